/*
 * reduce.h: modular reduction mod q = 3329 for int16 coefficients.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §2.3 (mod q) and §4.3 (arithmetic in R_q, T_q).
 *   [MONT]    P. Montgomery, "Modular multiplication without trial division",
 *             Math. Comp. 44 (1985).
 *   [REF]     The ML-KEM reference implementation's signed Montgomery and
 *             Barrett reductions (pq-crystals/kyber, reduce.c): the same
 *             idea, bounds re-derived here.
 *
 * Representation: a coefficient is an int16_t congruent to the field element
 * mod q, usually not in [0, q). "Montgomery form" of x means x * 2^16 mod q.
 * Both functions here are branch-free and table-free (constant time); they
 * rely on gcc/clang's documented behaviour that converting an out-of-range
 * integer to a signed type wraps mod 2^n and that >> on a negative signed
 * value shifts arithmetically.
 *
 * test/kem/test_reduce.c checks both over their whole documented input range.
 */
#ifndef MLKEM_KEM_REDUCE_H
#define MLKEM_KEM_REDUCE_H

#include <stdint.h>

#define MLKEM_QINV (-3327)  /* q^-1 mod 2^16, as a signed 16-bit value */
#define MLKEM_MONT (-1044)  /* 2^16 mod q, centred */
#define MLKEM_MONT2 1353    /* 2^32 mod q: tomont multiplier */
#define MLKEM_BARRETT_V 20159 /* round(2^26 / q) */

/*
 * Signed Montgomery reduction: returns r = a * 2^-16 mod q.
 * Input:  |a| < q * 2^15 (= 109,084,672).
 * Output: |r| < q, r = a * 2^-16 (mod q).
 * Proof: t = (int16)(a * q^-1 mod 2^16) satisfies t*q = a (mod 2^16) and
 * |t| <= 2^15, so a - t*q is a multiple of 2^16 with
 * |a - t*q| < q*2^15 + 2^15*q = q*2^16, hence |(a - t*q) / 2^16| < q.
 */
static inline int16_t mlkem_montgomery_reduce(int32_t a)
{
    int16_t t = (int16_t)(uint16_t)((uint32_t)a * (uint32_t)(uint16_t)MLKEM_QINV);
    return (int16_t)((a - (int32_t)t * 3329) >> 16);
}

/* a * b * 2^-16 mod q, |result| < q. Needs |a * b| < q * 2^15, e.g. one
 * factor a zeta (|zeta| <= (q-1)/2 = 1664) and the other below 8q in
 * magnitude, or both below q. */
static inline int16_t mlkem_fqmul(int16_t a, int16_t b)
{
    return mlkem_montgomery_reduce((int32_t)a * b);
}

/*
 * Signed Barrett reduction: returns r = a mod q, centred.
 * Input:  |a| <= 2^16 (so every int16_t, and sums of two int16_t values).
 * Output: r = a (mod q) with -(q-1)/2 <= r <= (q-1)/2.
 * Proof: t = round(a * V / 2^26) with V = round(2^26 / q) = 20159, and
 * V = 2^26/q + delta with delta = 447/q < 0.135, so a*V/2^26 differs from
 * a/q by |a| * delta / 2^26 < 2^-12.8. Since q is odd, a/q is never within
 * 1/(2q) > 2^-12.8 of a half-integer unless it is exactly one (impossible),
 * so t = round(a/q) and r = a - t*q lies in [-(q-1)/2, (q-1)/2].
 * Overflow: |a * V| + 2^25 <= 2^16 * 20159 + 2^25 < 2^31.
 */
static inline int16_t mlkem_barrett_reduce(int32_t a)
{
    int32_t t = (MLKEM_BARRETT_V * a + (1 << 25)) >> 26;
    return (int16_t)(a - t * 3329);
}

/* Conditional add of q: maps (-q, q) to [0, q) without a branch. The sign
 * bit of a (arithmetic shift gives 0 or -1) selects q. */
static inline int16_t mlkem_caddq(int16_t a)
{
    return (int16_t)(a + ((a >> 15) & 3329));
}

#endif /* MLKEM_KEM_REDUCE_H */
