/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reduce.h: modular reduction mod q = 3329 for int16 coefficients.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §2.3 (mod q) and §4.3 (arithmetic in R_q, T_q).
 *   [MONT]    P. Montgomery, "Modular multiplication without trial division",
 *             Math. Comp. 44 (1985).
 *   [SEIL]    G. Seiler, "Faster AVX2 optimized NTT multiplication for
 *             Ring-LWE lattice cryptography", ePrint 2018/039: Montgomery
 *             multiplication from 16-bit high/low products.
 *
 * Representation: a coefficient is an int16_t congruent to the field element
 * mod q, usually not in [0, q). "Montgomery form" of x means x * 2^16 mod q.
 *
 * Everything is written with 16 x 16-bit products whose high or low half is
 * kept (mlkem_mulhi16 / mlkem_mullo16). That is exact integer arithmetic, and
 * it is also the shape compilers turn into 8-lane SIMD multiplies (SSE2
 * pmulhw / pmullw, NEON sqdmulh-style) when they vectorize the loops of
 * kem/ntt.c and kem/poly.c, with no ISA-specific code here.
 *
 * All functions are branch-free and table-free (constant time). No
 * conversion here is out of range for its type: the low half of a product,
 * a value mod 2^16, is read by mlkem_lo16 without one (docs/proofs.md;
 * proof/ checks every function with Frama-C). They rely on gcc/clang's
 * documented behaviour that >> on a negative value shifts arithmetically
 * (rounds toward minus infinity).
 *
 * test/kem/test_reduce.c checks each function over its whole documented
 * input range. The ACSL contracts (requires / ensures) are the bounds the
 * rest of the kernel relies on: Frama-C's Eva checks every requires at
 * every call and every ensures (docs/proofs.md; Barrett's by exhaustion,
 * proof/drivers/reduce.c).
 */
#ifndef MLKEM_KEM_REDUCE_H
#define MLKEM_KEM_REDUCE_H

#include <stdint.h>
#include <string.h>

#define MLKEM_QINV (-3327)     /* q^-1 mod 2^16, as a signed 16-bit value */
#define MLKEM_MONT (-1044)     /* 2^16 mod q, centred */
#define MLKEM_MONT2 1353       /* 2^32 mod q: the tomont multiplier */
#define MLKEM_MONT2_QINV 20553 /* 1353 * q^-1 mod 2^16 (signed) */
#define MLKEM_BARRETT_V 20159  /* round(2^26 / q) */

/* x mod 2^16 as a signed value, in [-2^15, 2^15): the low 16 bits read as
 * two's complement. A plain (int16_t) cast of a larger value would be
 * implementation-defined (C11 6.3.1.3); copying the bits of a uint16_t
 * into an int16_t is not (exact-width types are two's complement, 7.20.1.1),
 * and compiles to nothing (proof/codegen.sh compares the code). */
static inline int16_t mlkem_lo16(uint32_t x)
{
    const uint16_t u = (uint16_t)x;
    int16_t r;
    memcpy(&r, &u, sizeof(r));
    return r;
}

/* floor(a * b / 2^16): the high half of the 32-bit product. */
static inline int16_t mlkem_mulhi16(int16_t a, int16_t b)
{
    return (int16_t)(((int32_t)a * b) >> 16);
}

/* a * b mod 2^16, as a signed value: the low half of the product. */
static inline int16_t mlkem_mullo16(int16_t a, int16_t b)
{
    return mlkem_lo16((uint32_t)(uint16_t)a * (uint16_t)b);
}

/*
 * Signed Montgomery reduction: returns r = a * 2^-16 mod q.
 * Input:  |a| < q * 2^15 (= 109,084,672).
 * Output: |r| < q, r = a * 2^-16 (mod q).
 * Proof: t = a * q^-1 mod 2^16 (signed, |t| <= 2^15) makes t*q = a
 * (mod 2^16), so a - t*q is a multiple of 2^16 with |a - t*q| < q*2^15 +
 * 2^15*q = q*2^16, hence |(a - t*q) / 2^16| < q. Because a and t*q agree in
 * their low 16 bits, (a - t*q) / 2^16 = floor(a / 2^16) - floor(t*q / 2^16)
 * exactly, which is how it is computed.
 */
/*@ requires -3329 * 32768 < a < 3329 * 32768;
    assigns \result \from a;
    ensures -3329 < \result < 3329; */
static inline int16_t mlkem_montgomery_reduce(int32_t a)
{
    int16_t t = mlkem_mullo16(mlkem_lo16((uint32_t)a), (int16_t)MLKEM_QINV);
    return (int16_t)((int16_t)(a >> 16) - mlkem_mulhi16(t, 3329));
}

/*
 * Montgomery multiplication by a constant: returns a * b * 2^-16 mod q,
 * given bq = b * q^-1 mod 2^16 (precomputed with the constant b).
 * Input:  |a * b| < q * 2^15 (e.g. |b| <= (q-1)/2 = 1664 and any int16 a).
 * Output: |r| < q. It equals mlkem_montgomery_reduce(a * b): its t =
 * a * b * q^-1 mod 2^16 = a * bq mod 2^16, and floor(a*b / 2^16) is the
 * high half of the product.
 */
/*@ requires -3329 * 32768 < a * b < 3329 * 32768;
    assigns \result \from a, b, bq;
    ensures -3329 < \result < 3329; */
static inline int16_t mlkem_fqmul_pre(int16_t a, int16_t b, int16_t bq)
{
    int16_t t = mlkem_mullo16(a, bq);
    return (int16_t)(mlkem_mulhi16(a, b) - mlkem_mulhi16(t, 3329));
}

/* a * b * 2^-16 mod q, |result| < q, for |a * b| < q * 2^15. */
static inline int16_t mlkem_fqmul(int16_t a, int16_t b)
{
    return mlkem_montgomery_reduce((int32_t)a * b);
}

/*
 * Signed Barrett reduction: returns r = a mod q, centred.
 * Input:  any int16_t.
 * Output: r = a (mod q) with -(q-1)/2 <= r <= (q-1)/2.
 * Proof: let V = round(2^26 / q) = 20159 = 2^26/q + delta, delta = 447/q
 * < 0.135. The computed quotient is
 *   t = floor((floor(a V / 2^16) + 2^9) / 2^10) = floor(a V / 2^26 + 1/2)
 * (nested floors with integer offsets collapse), i.e. a V / 2^26 rounded.
 * a V / 2^26 differs from a / q by |a| delta / 2^26 <= 2^15 * 0.135 / 2^26
 * < 2^-13.8, while a / q, q odd, is at least 1/(2q) > 2^-12.8 away from any
 * half-integer. So t = round(a / q) and r = a - t q is centred.
 */
/*@ assigns \result \from a;
    ensures -1664 <= \result <= 1664; */
static inline int16_t mlkem_barrett_reduce(int16_t a)
{
    int16_t t = (int16_t)((mlkem_mulhi16(a, MLKEM_BARRETT_V) + (1 << 9)) >> 10);
    return (int16_t)(a - t * 3329);
}

/* Conditional add of q: maps (-q, q) to [0, q) without a branch. The sign
 * bit of a (arithmetic shift gives 0 or -1) selects q. */
/*@ requires -3329 < a < 3329;
    assigns \result \from a;
    ensures 0 <= \result < 3329; */
static inline int16_t mlkem_caddq(int16_t a)
{
    /*@ split a < 0; */
    return (int16_t)(a + ((a >> 15) & 3329));
}

#endif /* MLKEM_KEM_REDUCE_H */
