/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ntt_template.h: the number-theoretic transform on R_q = Z_q[X]/(X^256 + 1),
 * its inverse, and multiplication in the NTT domain, written once as a
 * header template. kem/ntt.c instantiates it as the portable kernels; a
 * vector backend may instantiate it again in a file compiled with its ISA
 * flags, where the compiler vectorizes the same loops wider (the x86
 * backends have their own intrinsics, arch/avx2/ntt_avx2.c, which follow
 * these butterflies and bounds). The includer defines MLKEM_NTT_FN(name)
 * to name the copies (name##_portable, ...).
 *
 * References
 *   [FIPS203] NIST FIPS 203, §4.3: Algorithm 9 (NTT), Algorithm 10 (NTT^-1),
 *             Algorithm 11 (MultiplyNTTs), Algorithm 12 (BaseCaseMultiply),
 *             and the zeta values of Appendix A.
 *   [REF]     pq-crystals/kyber ref/ntt.c: same butterfly structure with
 *             Montgomery-form zetas; bounds re-derived here.
 *   [MLKN]    mlkem-native: the "mulcache" idea (b1 * gamma computed once per
 *             operand that is multiplied several times).
 *
 * Deviations from the spec, all invisible outside kem/ (the contracts are
 * kem/poly_kernels.h's):
 *   - the zetas are FIPS 203's in Montgomery form (zeta^BitRev7(i) * 2^16
 *     mod q, centred), read from the layouts kem/ntt.c derives from the one
 *     table kem/zetas.h, each with its product with q^-1 mod 2^16, so one
 *     mlkem_fqmul_pre() computes zeta * x;
 *   - coefficients are int16_t, reduced lazily (bounds in each comment);
 *   - NTT^-1 ends by multiplying with 2^16 / 128 instead of 1/128 (3303 in
 *     the spec), so its output carries a factor 2^16 that cancels the 2^-16
 *     left by MultiplyNTTs (the reference implementation's convention);
 *   - MultiplyNTTs is applied to k pairs and summed in 32 bits with one
 *     reduction, with b1 * gamma precomputed (mulcache).
 *
 * Shape of the code. Every layer is a loop over independent butterflies
 * on 16-bit values with 16 x 16-bit high/low products (kem/reduce.h). That
 * is plain C, but it is the shape compilers' vectorizers map onto 128-bit
 * SIMD (SSE2, NEON) without any ISA flag: 8 lanes per instruction. How a
 * layer is written decides which loop gets vectorized (measured with gcc 12
 * and clang 14 on x86-64): layers with span >= 16 are flat loops with one
 * zeta per block; the span-8 layers read their zeta per lane from a table;
 * the span-4 and span-2 layers process one group of 8 coefficients per
 * iteration, which compilers vectorize across groups. (Reading the zetas
 * backwards for NTT^-1, or broadcasting one zeta per 8-lane block, made gcc
 * 1.3x - 6x slower: hence the derived layouts.)
 */
#ifndef MLKEM_NTT_FN
#error "define MLKEM_NTT_FN(name) before including kem/ntt_template.h"
#endif

#include <stdint.h>

#include "common/compiler.h"
#include "kem/poly.h"
#include "kem/reduce.h"

/* Last layer of NTT^-1 with line 14's factor folded in: f = 2^32 / 128 mod
 * q = 1441 (Montgomery form of 2^16 / 128), and zetas[1] * f in Montgomery
 * form, -758 * 1441 * 2^-16 mod q = 1397, with their q^-1 twins
 * (test/kem/test_ntt.c and test_reduce.c recompute all four). */
#define NTT_INV_F 1441
#define NTT_INV_F_QINV (-10079)
#define NTT_INV_ZF 1397
#define NTT_INV_ZF_QINV 5237

/*
 * One layer of Algorithm 9 (lines 5-10) with span len >= 16: for each block
 * s the same zeta (index i0 + s) for len independent Cooley-Tukey
 * butterflies (x, y) <- (x + zeta y, x - zeta y). Written as flat loops
 * over the coefficients so that compilers vectorize the inner loop (8
 * lanes of 16-bit high/low products on SSE2 / NEON).
 */
static MLKEM_ALWAYS_INLINE void ntt_layer(int16_t r[256], const unsigned len,
                                          const unsigned i0)
{
    for (unsigned s = 0; s < 128 / len; s++) {
        const int16_t z = mlkem_zetas[i0 + s], zq = mlkem_zetas_qinv[i0 + s];
        for (unsigned l = 0; l < len; l++) {
            int16_t t = mlkem_fqmul_pre(r[2 * len * s + len + l], z, zq);
            int16_t a = r[2 * len * s + l];
            /*@ assert ntt_growth: \abs(a) + \abs(t) < 8 * 3329; */
            r[2 * len * s + len + l] = (int16_t)(a - t);
            r[2 * len * s + l] = (int16_t)(a + t);
        }
    }
}

/* One layer of Algorithm 10 (lines 5-10) with span len >= 16: zeta index
 * i0 - s for block s, Gentleman-Sande butterflies (x, y) <- (x + y,
 * zeta (y - x)); with reduce set, the sums are Barrett-reduced. */
static MLKEM_ALWAYS_INLINE void ntt_inv_layer(int16_t r[256], const unsigned len,
                                             const unsigned i0,
                                             const int reduce)
{
    for (unsigned s = 0; s < 128 / len; s++) {
        const int16_t z = mlkem_zetas[i0 - s], zq = mlkem_zetas_qinv[i0 - s];
        for (unsigned l = 0; l < len; l++) {
            int16_t a = r[2 * len * s + l], b = r[2 * len * s + len + l];
            /*@ assert ntt_inv_growth: \abs(a) + \abs(b) < 32768; */
            int16_t sum = (int16_t)(a + b);
            r[2 * len * s + l] = reduce ? mlkem_barrett_reduce(sum) : sum;
            r[2 * len * s + len + l] =
                mlkem_fqmul_pre((int16_t)(b - a), z, zq);
        }
    }
}

/*
 * Implements FIPS 203, Algorithm 9 (NTT), lines 1-14, in place.
 * Input |r_i| < q; output |r_i| < 8q, the NTT of the input (no extra
 * factor), in the spec's order.
 * Bounds: each of the 7 layers replaces (a, b) by (a + t, a - t) with
 * t = zeta b (Montgomery) and |t| < q (|zeta * b| <= 1664 * 8q < q * 2^15),
 * so magnitudes grow by < q per layer: < q + 7q = 8q = 26,632 < 2^15.
 * Shape: layers len = 128 .. 16 are flat loops (ntt_layer), len = 8 reads
 * its zetas per lane, and len = 4 and 2 run on one group of 8 coefficients
 * per iteration; compilers vectorize that loop across 8 groups, so the two
 * layers within a group cost a transpose in and out but no per-coefficient
 * shuffles of zetas.
 */
void MLKEM_NTT_FN(mlkem_ntt)(int16_t r[256])
{
    /* Lines 2-11 for len = 128, 64, 32, 16 (zeta indices 1 .. 15). */
    ntt_layer(r, 128, 1);
    ntt_layer(r, 64, 2);
    ntt_layer(r, 32, 4);
    ntt_layer(r, 16, 8);
    /* len = 8 (indices 16 .. 31). */
    for (unsigned s = 0; s < 16; s++) {
        for (unsigned l = 0; l < 8; l++) {
            int16_t t = mlkem_fqmul_pre(r[16 * s + 8 + l],
                                        mlkem_zetas_lane8[8 * s + l],
                                        mlkem_zetas_lane8_qinv[8 * s + l]);
            int16_t a = r[16 * s + l];
            /*@ assert ntt_growth: \abs(a) + \abs(t) < 8 * 3329; */
            r[16 * s + 8 + l] = (int16_t)(a - t);
            r[16 * s + l] = (int16_t)(a + t);
        }
    }
    /* len = 4 (index 32 + g for group g of 8 coefficients) and len = 2
     * (indices 64 + 2g, 65 + 2g for its two blocks of 4). */
    for (unsigned g = 0; g < 32; g++) {
        int16_t c[8];
        for (unsigned e = 0; e < 8; e++)
            c[e] = r[8 * g + e];
        const int16_t z4 = mlkem_zetas[32 + g], z4q = mlkem_zetas_qinv[32 + g];
        for (unsigned e = 0; e < 4; e++) {
            int16_t t = mlkem_fqmul_pre(c[e + 4], z4, z4q);
            c[e + 4] = (int16_t)(c[e] - t);
            c[e] = (int16_t)(c[e] + t);
        }
        for (unsigned h = 0; h < 2; h++) {
            const int16_t z2 = mlkem_zetas[64 + 2 * g + h];
            const int16_t z2q = mlkem_zetas_qinv[64 + 2 * g + h];
            for (unsigned e = 4 * h; e < 4 * h + 2; e++) {
                int16_t t = mlkem_fqmul_pre(c[e + 2], z2, z2q);
                /*@ assert ntt_growth: \abs(c[e]) + \abs(t) < 8 * 3329; */
                c[e + 2] = (int16_t)(c[e] - t);
                c[e] = (int16_t)(c[e] + t);
            }
        }
        for (unsigned e = 0; e < 8; e++)
            r[8 * g + e] = c[e];
    }
}

/*
 * Implements FIPS 203, Algorithm 10 (NTT^-1), lines 1-14, in place, with
 * line 14's factor 1/128 replaced by 2^16/128 (see the file comment).
 * Input: any int16_t. Output: |r_i| < q, equal to NTT^-1(input) * 2^16.
 * Bounds (reduction is lazy: two Barrett reductions instead of one per
 * layer). A Montgomery product by a zeta (|zeta| <= 1664) of a value v
 * satisfies |result| <= |v| * 1664 / 2^16 + 1666 (high half of the
 * product, minus the high half of t*q with |t| <= 2^15). Every input is
 * first Barrett-reduced to |.| <= 1664. Each layer maps values bounded by
 * B to sums bounded by 2B and products bounded by 2B * 1664 / 2^16 + 1666
 * < 2B, so after layers len = 2, 4, 8, 16 everything is below 16 * 1664 =
 * 26,624 < 2^15 (and the differences fed to the products, also below 2B,
 * fit too). The sums of layer len = 16 are Barrett-reduced as they are
 * formed (its products are already below 2 * 8 * 1664 * 1664 / 2^16 + 1666
 * < 2,343), so layers len = 32, 64 start from values <= 2,343 and end below
 * 4 * 2,343 = 9,372. The last layer, len = 128, folds in line 14: its sums
 * are multiplied by f = 2^32 / 128 mod q = 1441 (Montgomery form of
 * 2^16 / 128), its differences by zeta_1 * f (NTT_INV_ZF, one Montgomery
 * product); the inputs are below 2 * 9,372 = 18,744, and 18,744 * 1664 <
 * q * 2^15, so every output is a Montgomery product with |.| < q.
 */
void MLKEM_NTT_FN(mlkem_ntt_inv)(int16_t r[256])
{
    /* Barrett on input; len = 2 (zeta indices 127 - 2g, 126 - 2g for the
     * two blocks of group g, read as mlkem_zetas_rev[2g], [2g + 1]) and
     * len = 4 (63 - g = mlkem_zetas_rev[64 + g]), one group of 8
     * coefficients per iteration (the mirror image of the NTT's last two
     * layers; ascending table reads keep the loop vectorizable). */
    for (unsigned g = 0; g < 32; g++) {
        int16_t c[8];
        for (unsigned e = 0; e < 8; e++)
            c[e] = mlkem_barrett_reduce(r[8 * g + e]);
        for (unsigned h = 0; h < 2; h++) {
            const int16_t z2 = mlkem_zetas_rev[2 * g + h];
            const int16_t z2q = mlkem_zetas_rev_qinv[2 * g + h];
            for (unsigned e = 4 * h; e < 4 * h + 2; e++) {
                int16_t a = c[e], b = c[e + 2];
                c[e] = (int16_t)(a + b);
                c[e + 2] = mlkem_fqmul_pre((int16_t)(b - a), z2, z2q);
            }
        }
        const int16_t z4 = mlkem_zetas_rev[64 + g];
        const int16_t z4q = mlkem_zetas_rev_qinv[64 + g];
        for (unsigned e = 0; e < 4; e++) {
            int16_t a = c[e], b = c[e + 4];
            c[e] = (int16_t)(a + b);
            c[e + 4] = mlkem_fqmul_pre((int16_t)(b - a), z4, z4q);
        }
        for (unsigned e = 0; e < 8; e++)
            r[8 * g + e] = c[e];
    }
    /* len = 8 (indices 31 .. 16), zetas per lane. */
    for (unsigned s = 0; s < 16; s++) {
        for (unsigned l = 0; l < 8; l++) {
            int16_t a = r[16 * s + l], b = r[16 * s + 8 + l];
            r[16 * s + l] = (int16_t)(a + b);
            r[16 * s + 8 + l] =
                mlkem_fqmul_pre((int16_t)(b - a), mlkem_zetas_inv_lane8[8 * s + l],
                                mlkem_zetas_inv_lane8_qinv[8 * s + l]);
        }
    }
    /* len = 16 (indices 15 .. 8) with reduced sums, then 32, 64. */
    ntt_inv_layer(r, 16, 15, 1);
    ntt_inv_layer(r, 32, 7, 0);
    ntt_inv_layer(r, 64, 3, 0);
    /* len = 128 (index 1) and line 14, times 2^16. */
    for (unsigned l = 0; l < 128; l++) {
        int16_t a = r[l], b = r[128 + l];
        /*@ assert ntt_inv_last: \abs(a) + \abs(b) < 18744; */
        r[l] = mlkem_fqmul_pre((int16_t)(a + b), NTT_INV_F, NTT_INV_F_QINV);
        r[128 + l] = mlkem_fqmul_pre((int16_t)(b - a), NTT_INV_ZF,
                                     NTT_INV_ZF_QINV);
    }
}

/*
 * The multiplication cache of b: c[p] = b[2p + 1] * gamma_p (Montgomery, so
 * exactly b1 gamma mod q, |.| < q), where gamma_p = zeta^(2 BitRev7(p) + 1)
 * is Algorithm 11's gamma for coefficient pair p. Input |b_i| < q.
 */
void MLKEM_NTT_FN(mlkem_mulcache)(int16_t c[128], const int16_t b[256])
{
    for (unsigned p = 0; p < 128; p++)
        c[p] = mlkem_fqmul_pre(b[2 * p + 1], mlkem_gammas[p],
                               mlkem_gammas_qinv[p]);
}

/*
 * The k-term product for a constant k (so that the loop over the k terms is
 * unrolled and the loop over coefficient pairs vectorizes).
 */
static MLKEM_ALWAYS_INLINE void multiply_ntts_acc_k(int16_t r[256],
                                                    const int16_t *a,
                                                    const int16_t *b,
                                                    const int16_t *bc,
                                                    const unsigned k)
{
    for (unsigned p = 0; p < 128; p++) {
        int32_t c0 = 0, c1 = 0;
        for (unsigned i = 0; i < k; i++) {
            const int16_t *x = a + 256 * i + 2 * p;
            const int16_t *y = b + 256 * i + 2 * p;
            c0 += (int32_t)x[0] * y[0] + (int32_t)x[1] * bc[128 * i + p];
            c1 += (int32_t)x[0] * y[1] + (int32_t)x[1] * y[0];
        }
        r[2 * p] = mlkem_montgomery_reduce(c0);
        r[2 * p + 1] = mlkem_montgomery_reduce(c1);
    }
}

/*
 * r = sum_{i<k} a_i o b_i * 2^-16, where o is MultiplyNTTs. Implements FIPS
 * 203, Algorithm 11 (MultiplyNTTs) for each of the k products and sums them,
 * with Algorithm 12 (BaseCaseMultiply) inlined: for the pair (a0, a1),
 * (b0, b1) and gamma = zeta^(2 BitRev7(p) + 1),
 *   c0 = a0 b0 + a1 b1 gamma,   c1 = a0 b1 + a1 b0,
 * b1 gamma taken from the cache bc (mlkem_mulcache). Both sums are formed
 * in 32 bits and reduced once, leaving the factor 2^-16.
 * a, b and bc point at k polynomials (caches) stored contiguously (a row of
 * the matrix, a vector). Contract: 1 <= k <= 4, |a_i| <= q, |b_i| < q.
 * Output |r_i| < q. Bounds: per term |a0 b0 + a1 (b1 gamma)| and
 * |a0 b1 + a1 b0| are < 2 q^2; over k <= 4 terms < 8 q^2 = 88,657,928 <
 * q * 2^15 = 109,084,672, the Montgomery input bound (and far inside int32).
 */
void MLKEM_NTT_FN(mlkem_multiply_ntts_acc)(int16_t r[256], const int16_t *a,
                                           const int16_t *b, const int16_t *bc,
                                           unsigned k)
{
    switch (k) {
    case 1: multiply_ntts_acc_k(r, a, b, bc, 1); break;
    case 2: multiply_ntts_acc_k(r, a, b, bc, 2); break;
    case 3: multiply_ntts_acc_k(r, a, b, bc, 3); break;
    default: multiply_ntts_acc_k(r, a, b, bc, 4); break;
    }
}
