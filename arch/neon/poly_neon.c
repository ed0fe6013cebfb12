/* SPDX-License-Identifier: Apache-2.0 */
/*
 * poly_neon.c: the neon backends' NTT, NTT^-1, multiplication cache,
 * MultiplyNTTs and the Barrett / Montgomery-domain reductions, in NEON
 * intrinsics (eight int16 coefficients per q register). Contracts:
 * kem/poly_kernels.h; T_q stays in the spec's order, so ntt_pack and the
 * byte encodings need no conversion.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §4.3: Algorithms 9 (NTT), 10 (NTT^-1),
 *             11 (MultiplyNTTs), 12 (BaseCaseMultiply); Appendix A.
 *   [NEONNTT] H. Becker, V. Hwang, M. J. Kannwischer, B.-Y. Yang, S.-Y. Yang,
 *             "Neon NTT: Faster Dilithium, Kyber, and Saber on Cortex-A72
 *             and Apple M1", TCHES 2022(1), ePrint 2021/986: Barrett
 *             multiplication with SQRDMULH.
 *   [MLKN]    mlkem-native, mlkem/src/native/aarch64/: the same split into
 *             layers 1-3 and 4-7 and the b1 * gamma cache.
 *
 * Multiplication by a constant (Barrett multiplication, [NEONNTT] §3).
 * For a constant z (centred, |z| <= (q-1)/2) and its "twisted" form
 * z' = round(z * 2^15 / q), barmul(a, z) is
 *     t = SQRDMULH(a, z') = round(2 a z' / 2^16)        (an estimate of a z / q)
 *     r = a * z - t * q                                  (low 16 bits: MUL, MLS)
 * Bound: 2 z' = z 2^16 / q + delta with |delta| <= 1, so
 * t = a z / q + e with |e| <= |a| / 2^16 + 1/2 <= 1 for |a| <= 2^15, hence
 * |r| = |a z - t q| <= q; r is computed exactly because it fits in int16.
 * Checked exhaustively (every int16 a, every centred z) while writing this:
 * |r| <= 3323 < q. So r = a * z mod q with |r| < q for ANY int16 input,
 * which keeps the bounds below simple. (This is not Montgomery: the zetas
 * are the spec's plain values, derived from kem/zetas.h's Montgomery table
 * by the factor 2^-16 mod q = 169.)
 *
 * Barrett reduction (poly_reduce) is the portable one, instruction for
 * instruction: SQDMULH by round(2^26 / q) gives floor(a v / 2^15), the
 * rounding shift by 11 completes round(a v / 2^26), MLS subtracts t q; the
 * output equals kem/reduce.h's mlkem_barrett_reduce, |r| <= (q-1)/2.
 *
 * Everything is branch-free and indexed by loop counters only (constant
 * time); the tables are read at public positions.
 */
#include <arm_neon.h>

#include "arch/aarch64.h"
#include "common/compiler.h"
#include "kem/zetas.h"

#if !defined(__aarch64__) || defined(__AARCH64EB__)
#error "arch/neon/ is for little-endian AArch64"
#endif

#define Q 3329
#define BARRETT_V 20159 /* round(2^26 / q) */

/* ---- Constants, derived from kem/zetas.h by the compiler ---------------- */

/* The centred representative of x, |x| < q. */
#define CEN(x) ((x) > 1664 ? (x) - Q : (x) < -1664 ? (x) + Q : (x))
/* A Montgomery-form table value v (zeta * 2^16 mod q) in plain form:
 * v * 2^-16 = v * 169 mod q, centred. */
#define PL(v) ((int16_t)CEN(((v) * 169) % Q))
/* The twisted form of a plain value p: round(p * 2^15 / q). */
#define TW(p)                                                                 \
    ((int16_t)((p) >= 0 ? ((p) * 65536 + Q) / (2 * Q)                         \
                        : -((-(p) * 65536 + Q) / (2 * Q))))

/* Zetas 1 .. 31 (layers len = 128 .. 8 and their inverses), one per block:
 * zs[i] = zeta^BitRev7(i) mod q, centred; zs_t its twisted form. */
#define ZS(i, v) [(i)] = PL(v),
#define ZS_T(i, v) [(i)] = TW(PL(v)),
static const int16_t zs[32] = {MLKEM_ZETAS_0_15(ZS) MLKEM_ZETAS_16_31(ZS)};
static const int16_t zs_t[32] = {MLKEM_ZETAS_0_15(ZS_T)
                                     MLKEM_ZETAS_16_31(ZS_T)};

/* Per-lane zetas of the in-register layers (see ntt_in_register below):
 *   len = 4: zeta 32 + j (block j of 8 coefficients) in lanes 4j .. 4j + 3;
 *   len = 2: zeta 64 + j (block j of 4) in lanes 2j, 2j + 1;
 * and for NTT^-1, which walks the zetas downwards, block j's zeta 63 - j
 * (len = 4) and 127 - j (len = 2) at the same positions. */
#define L4(i, v, pos)                                                         \
    [4 * (pos) + 0] = v, [4 * (pos) + 1] = v, [4 * (pos) + 2] = v,            \
    [4 * (pos) + 3] = v,
#define L2(i, v, pos) [2 * (pos) + 0] = v, [2 * (pos) + 1] = v,
#define F4(i, v) L4(i, PL(v), (i) - 32)
#define F4_T(i, v) L4(i, TW(PL(v)), (i) - 32)
#define F2(i, v) L2(i, PL(v), (i) - 64)
#define F2_T(i, v) L2(i, TW(PL(v)), (i) - 64)
#define I4(i, v) L4(i, PL(v), 63 - (i))
#define I4_T(i, v) L4(i, TW(PL(v)), 63 - (i))
#define I2(i, v) L2(i, PL(v), 127 - (i))
#define I2_T(i, v) L2(i, TW(PL(v)), 127 - (i))
static const int16_t ntt_l4[128] = {MLKEM_ZETAS_32_63(F4)};
static const int16_t ntt_l4_t[128] = {MLKEM_ZETAS_32_63(F4_T)};
static const int16_t ntt_l2[128] = {MLKEM_ZETAS_64_127(F2)};
static const int16_t ntt_l2_t[128] = {MLKEM_ZETAS_64_127(F2_T)};
static const int16_t inv_l4[128] = {MLKEM_ZETAS_32_63(I4)};
static const int16_t inv_l4_t[128] = {MLKEM_ZETAS_32_63(I4_T)};
static const int16_t inv_l2[128] = {MLKEM_ZETAS_64_127(I2)};
static const int16_t inv_l2_t[128] = {MLKEM_ZETAS_64_127(I2_T)};

/* Algorithm 11's gamma_p = zeta^(2 BitRev7(p) + 1) = +zeta_{64 + p/2} for
 * even p, -zeta_{64 + p/2} for odd p (plain, centred), and twisted. */
#define G(i, v) [2 * ((i) - 64)] = PL(v), [2 * ((i) - 64) + 1] = (int16_t)-PL(v),
#define G_T(i, v)                                                             \
    [2 * ((i) - 64)] = TW(PL(v)), [2 * ((i) - 64) + 1] = (int16_t)-TW(PL(v)),
static const int16_t gammas[128] = {MLKEM_ZETAS_64_127(G)};
static const int16_t gammas_t[128] = {MLKEM_ZETAS_64_127(G_T)};

/* NTT^-1's last layer with line 14's factor: its output carries 2^16
 * (kem/poly_kernels.h), so sums are multiplied by f = 2^16 / 128 = 512
 * (mod q) and differences by zeta_1 * f. */
#define INV_F 512
#define INV_ZF ((int16_t)CEN((PL(-758) * INV_F) % Q)) /* zetas.h entry 1 */
/* 2^16 mod q, centred: poly_tomont's multiplier. */
#define MONT_R (-1044)

/* ---- Arithmetic --------------------------------------------------------- */

/* a * z mod q, |result| < q, z and its twisted form zt in every lane. */
static MLKEM_ALWAYS_INLINE int16x8_t barmul(int16x8_t a, int16x8_t z,
                                            int16x8_t zt)
{
    const int16x8_t t = vqrdmulhq_s16(a, zt);
    return vmlsq_n_s16(vmulq_s16(a, z), t, Q);
}

/* The same with one constant for all lanes. */
static MLKEM_ALWAYS_INLINE int16x8_t barmul_n(int16x8_t a, int16_t z,
                                              int16_t zt)
{
    const int16x8_t t = vqrdmulhq_n_s16(a, zt);
    return vmlsq_n_s16(vmulq_n_s16(a, z), t, Q);
}

/* Barrett reduction: a mod q, centred, |result| <= (q-1)/2. */
static MLKEM_ALWAYS_INLINE int16x8_t barrett(int16x8_t a)
{
    const int16x8_t t = vrshrq_n_s16(vqdmulhq_n_s16(a, BARRETT_V), 11);
    return vmlsq_n_s16(a, t, Q);
}

/* Cooley-Tukey butterfly (Algorithm 9 lines 8-9): (a, b) <- (a + zb, a - zb). */
#define CT(a, b, zmul)                                                        \
    do {                                                                      \
        const int16x8_t t_ = zmul;                                            \
        b = vsubq_s16(a, t_);                                                 \
        a = vaddq_s16(a, t_);                                                 \
    } while (0)
#define CT_N(a, b, i) CT(a, b, barmul_n(b, zs[i], zs_t[i]))
#define CT_V(a, b, z, zt) CT(a, b, barmul(b, z, zt))

/* Gentleman-Sande butterfly (Algorithm 10 lines 8-9):
 * (a, b) <- (a + b, z (b - a)). */
#define GS_N(a, b, i)                                                         \
    do {                                                                      \
        const int16x8_t d_ = vsubq_s16(b, a);                                 \
        a = vaddq_s16(a, b);                                                  \
        b = barmul_n(d_, zs[i], zs_t[i]);                                     \
    } while (0)
#define GS_V(a, b, z, zt)                                                     \
    do {                                                                      \
        const int16x8_t d_ = vsubq_s16(b, a);                                 \
        a = vaddq_s16(a, b);                                                  \
        b = barmul(d_, z, zt);                                                \
    } while (0)

/* Transposes for the layers with span 4 and 2, which pair coefficients
 * inside one 8-lane register. From two registers w0, w1 (coefficients
 * 0-7 and 8-15 of a block of 16):
 *   zip64: X = [w0 0-3, w1 0-3], Y = [w0 4-7, w1 4-7]  (span-4 partners);
 *   trn32 of X, Y: P = [w0 0,1, w0 4,5, w1 0,1, w1 4,5],
 *                  Q = [w0 2,3, w0 6,7, w1 2,3, w1 6,7] (span-2 partners);
 * and trn32 of P, Q gives X, Y back, zip64 of X, Y gives w0, w1. */
static MLKEM_ALWAYS_INLINE void zip64(int16x8_t *x, int16x8_t *y, int16x8_t a,
                                      int16x8_t b)
{
    const int64x2_t a64 = vreinterpretq_s64_s16(a);
    const int64x2_t b64 = vreinterpretq_s64_s16(b);
    *x = vreinterpretq_s16_s64(vzip1q_s64(a64, b64));
    *y = vreinterpretq_s16_s64(vzip2q_s64(a64, b64));
}

static MLKEM_ALWAYS_INLINE void trn32(int16x8_t *x, int16x8_t *y, int16x8_t a,
                                      int16x8_t b)
{
    const int32x4_t a32 = vreinterpretq_s32_s16(a);
    const int32x4_t b32 = vreinterpretq_s32_s16(b);
    *x = vreinterpretq_s16_s32(vtrn1q_s32(a32, b32));
    *y = vreinterpretq_s16_s32(vtrn2q_s32(a32, b32));
}

/* ---- NTT ------------------------------------------------------------------ */

/* Layers len = 4 and len = 2 of Algorithm 9 on the 16 coefficients
 * 16 m .. 16 m + 15 in w0, w1: their two blocks of 8 are blocks 2m, 2m + 1
 * of the len = 4 layer (zetas at entries 4 (2m) .. of ntt_l4) and their
 * four blocks of 4 are blocks 4m .. 4m + 3 of the len = 2 layer (entries
 * 2 (4m) .. of ntt_l2): both start at `at` = 8 m, and the lanes line up
 * with X / Y and P / Q of the transposes above. */
static MLKEM_ALWAYS_INLINE void ntt_in_register(int16x8_t *w0, int16x8_t *w1,
                                                unsigned at)
{
    int16x8_t x, y, p, q;
    zip64(&x, &y, *w0, *w1);
    CT_V(x, y, vld1q_s16(ntt_l4 + at), vld1q_s16(ntt_l4_t + at));
    trn32(&p, &q, x, y);
    CT_V(p, q, vld1q_s16(ntt_l2 + at), vld1q_s16(ntt_l2_t + at));
    trn32(&x, &y, p, q);
    zip64(w0, w1, x, y);
}

/*
 * Implements FIPS 203, Algorithm 9 (NTT), in place, spec order.
 * Input |r_i| < q; output |r_i| < 8q: every layer adds a product of
 * magnitude < q (barmul) to values below (layer + 1) q, so after 7 layers
 * < 8q = 26,632 < 2^15.
 * Pass 1, layers len = 128, 64, 32: column c holds the registers of
 * coefficients 8c + 32k (k = 0..7); the partners are k + 4, k + 2, k + 1.
 * Pass 2, per block of 32 coefficients b (registers w0..w3): len = 16
 * (w0, w2), (w1, w3); len = 8 (w0, w1), (w2, w3); then len = 4 and 2
 * inside registers.
 */
void mlkem_ntt_neon(int16_t r[256])
{
    for (unsigned c = 0; c < 4; c++) {
        int16x8_t v[8];
        for (unsigned k = 0; k < 8; k++)
            v[k] = vld1q_s16(r + 8 * c + 32 * k);
        for (unsigned k = 0; k < 4; k++)
            CT_N(v[k], v[k + 4], 1);
        CT_N(v[0], v[2], 2);
        CT_N(v[1], v[3], 2);
        CT_N(v[4], v[6], 3);
        CT_N(v[5], v[7], 3);
        CT_N(v[0], v[1], 4);
        CT_N(v[2], v[3], 5);
        CT_N(v[4], v[5], 6);
        CT_N(v[6], v[7], 7);
        for (unsigned k = 0; k < 8; k++)
            vst1q_s16(r + 8 * c + 32 * k, v[k]);
    }
    for (unsigned b = 0; b < 8; b++) {
        int16_t *p = r + 32 * b;
        int16x8_t w0 = vld1q_s16(p), w1 = vld1q_s16(p + 8);
        int16x8_t w2 = vld1q_s16(p + 16), w3 = vld1q_s16(p + 24);
        CT_N(w0, w2, 8 + b);
        CT_N(w1, w3, 8 + b);
        CT_N(w0, w1, 16 + 2 * b);
        CT_N(w2, w3, 17 + 2 * b);
        ntt_in_register(&w0, &w1, 16 * b);     /* m = 2b */
        ntt_in_register(&w2, &w3, 16 * b + 8); /* m = 2b + 1 */
        vst1q_s16(p, w0);
        vst1q_s16(p + 8, w1);
        vst1q_s16(p + 16, w2);
        vst1q_s16(p + 24, w3);
    }
}

/* ---- NTT^-1 --------------------------------------------------------------- */

/* Layers len = 2 and len = 4 of Algorithm 10 inside w0, w1 (the mirror
 * image of ntt_in_register; inv_l2 / inv_l4 hold block j's zeta at the
 * position where ntt_l2 / ntt_l4 hold block j's). */
static MLKEM_ALWAYS_INLINE void ntt_inv_in_register(int16x8_t *w0,
                                                    int16x8_t *w1, unsigned at)
{
    int16x8_t x, y, p, q;
    zip64(&x, &y, *w0, *w1);
    trn32(&p, &q, x, y);
    GS_V(p, q, vld1q_s16(inv_l2 + at), vld1q_s16(inv_l2_t + at));
    trn32(&x, &y, p, q);
    GS_V(x, y, vld1q_s16(inv_l4 + at), vld1q_s16(inv_l4_t + at));
    zip64(w0, w1, x, y);
}

/*
 * Implements FIPS 203, Algorithm 10 (NTT^-1), in place, spec order, with
 * line 14's factor 1/128 replaced by 2^16 / 128 (kem/poly_kernels.h: the
 * result carries 2^16, which cancels MultiplyNTTs' 2^-16).
 * Input: any int16_t. Output |r_i| < q.
 * Bounds: products are always < q in magnitude (barmul); sums double.
 * Pass 1 (per block of 32, layers len = 2, 4, 8, 16) starts from Barrett-
 * reduced values (<= 1664): sums reach 3328, 6656, 13,312, 26,624 < 2^15
 * (the differences fed to barmul are bounded the same way). Pass 2 (per
 * column, layers len = 32, 64, 128) Barrett-reduces again on load: 3328,
 * 6656, then the last layer multiplies its sums (<= 13,312) by f and its
 * differences by zeta_1 f, so every output is a barmul result, |.| < q.
 */
void mlkem_ntt_inv_neon(int16_t r[256])
{
    for (unsigned b = 0; b < 8; b++) {
        int16_t *p = r + 32 * b;
        int16x8_t w0 = barrett(vld1q_s16(p)), w1 = barrett(vld1q_s16(p + 8));
        int16x8_t w2 = barrett(vld1q_s16(p + 16));
        int16x8_t w3 = barrett(vld1q_s16(p + 24));
        ntt_inv_in_register(&w0, &w1, 16 * b);
        ntt_inv_in_register(&w2, &w3, 16 * b + 8);
        GS_N(w0, w1, 31 - 2 * b);
        GS_N(w2, w3, 30 - 2 * b);
        GS_N(w0, w2, 15 - b);
        GS_N(w1, w3, 15 - b);
        vst1q_s16(p, w0);
        vst1q_s16(p + 8, w1);
        vst1q_s16(p + 16, w2);
        vst1q_s16(p + 24, w3);
    }
    for (unsigned c = 0; c < 4; c++) {
        int16x8_t v[8];
        for (unsigned k = 0; k < 8; k++)
            v[k] = barrett(vld1q_s16(r + 8 * c + 32 * k));
        GS_N(v[0], v[1], 7);
        GS_N(v[2], v[3], 6);
        GS_N(v[4], v[5], 5);
        GS_N(v[6], v[7], 4);
        GS_N(v[0], v[2], 3);
        GS_N(v[1], v[3], 3);
        GS_N(v[4], v[6], 2);
        GS_N(v[5], v[7], 2);
        for (unsigned k = 0; k < 4; k++) {
            const int16x8_t a = v[k], d = vsubq_s16(v[k + 4], a);
            v[k] = barmul_n(vaddq_s16(a, v[k + 4]), INV_F, TW(INV_F));
            v[k + 4] = barmul_n(d, INV_ZF, TW(INV_ZF));
        }
        for (unsigned k = 0; k < 8; k++)
            vst1q_s16(r + 8 * c + 32 * k, v[k]);
    }
}

/* ---- MultiplyNTTs --------------------------------------------------------- */

/* The multiplication cache of b (kem/poly_kernels.h mulcache): c[p] =
 * b[2p + 1] * gamma_p mod q, |c[p]| < q, in the spec's pair order (the
 * layout multiply_ntts_acc reads). Input any int16 (|b_i| < q by contract). */
void mlkem_mulcache_neon(int16_t c[128], const int16_t b[256])
{
    for (unsigned p = 0; p < 128; p += 8) {
        const int16x8x2_t x = vld2q_s16(b + 2 * p);
        vst1q_s16(c + p, barmul(x.val[1], vld1q_s16(gammas + p),
                                vld1q_s16(gammas_t + p)));
    }
}

/* Signed Montgomery reduction of eight 32-bit values (lo: lanes 0-3, hi:
 * 4-7) to int16: (a - t q) / 2^16 with t = a q^-1 mod 2^16, exact because
 * a - t q is a multiple of 2^16; |result| < q for |a| < q 2^15 (kem/reduce.h
 * mlkem_montgomery_reduce, same value). */
static MLKEM_ALWAYS_INLINE int16x8_t montgomery(int32x4_t lo, int32x4_t hi)
{
    const int16x8_t t = vmulq_n_s16(
        vuzp1q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi)),
        -3327 /* q^-1 mod 2^16 */);
    lo = vmlsl_n_s16(lo, vget_low_s16(t), Q);
    hi = vmlsl_high_n_s16(hi, t, Q);
    return vuzp2q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi));
}

/* The k-term product for a constant k (unrolled). Eight coefficient pairs
 * p .. p + 7 per step: LD2 splits a pair array into its even (a0) and odd
 * (a1) coefficients. */
static MLKEM_ALWAYS_INLINE void multiply_ntts_acc_k(int16_t r[256],
                                                    const int16_t *a,
                                                    const int16_t *b,
                                                    const int16_t *bc,
                                                    const unsigned k)
{
    for (unsigned p = 0; p < 128; p += 8) {
        int32x4_t c0l = vdupq_n_s32(0), c0h = vdupq_n_s32(0);
        int32x4_t c1l = vdupq_n_s32(0), c1h = vdupq_n_s32(0);
        for (unsigned i = 0; i < k; i++) {
            const int16x8x2_t x = vld2q_s16(a + 256 * i + 2 * p);
            const int16x8x2_t y = vld2q_s16(b + 256 * i + 2 * p);
            const int16x8_t yc = vld1q_s16(bc + 128 * i + p);
            /* c0 = a0 b0 + a1 (b1 gamma), c1 = a0 b1 + a1 b0 */
            c0l = vmlal_s16(c0l, vget_low_s16(x.val[0]), vget_low_s16(y.val[0]));
            c0h = vmlal_high_s16(c0h, x.val[0], y.val[0]);
            c0l = vmlal_s16(c0l, vget_low_s16(x.val[1]), vget_low_s16(yc));
            c0h = vmlal_high_s16(c0h, x.val[1], yc);
            c1l = vmlal_s16(c1l, vget_low_s16(x.val[0]), vget_low_s16(y.val[1]));
            c1h = vmlal_high_s16(c1h, x.val[0], y.val[1]);
            c1l = vmlal_s16(c1l, vget_low_s16(x.val[1]), vget_low_s16(y.val[0]));
            c1h = vmlal_high_s16(c1h, x.val[1], y.val[0]);
        }
        int16x8x2_t out;
        out.val[0] = montgomery(c0l, c0h);
        out.val[1] = montgomery(c1l, c1h);
        vst2q_s16(r + 2 * p, out);
    }
}

/*
 * r = sum_{i<k} a_i o b_i * 2^-16: FIPS 203 Algorithm 11 (MultiplyNTTs)
 * with Algorithm 12 (BaseCaseMultiply) inlined, for each of the k products,
 * summed in 32 bits and reduced once (Montgomery, the factor 2^-16).
 * Contract: 1 <= k <= 4, |a_i| <= q, |b_i| < q, bc from mlkem_mulcache_neon.
 * Bound: per term |a0 b0 + a1 (b1 gamma)|, |a0 b1 + a1 b0| < 2 q^2; over
 * k <= 4 terms < 8 q^2 < q 2^15, the Montgomery input bound: |r_i| < q.
 */
void mlkem_multiply_ntts_acc_neon(int16_t r[256], const int16_t *a,
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

/* ---- Reductions ----------------------------------------------------------- */

/* Any int16 in; the centred representative out (|r_i| <= (q-1)/2). */
void mlkem_poly_reduce_neon(int16_t r[256])
{
    for (unsigned i = 0; i < 256; i += 8)
        vst1q_s16(r + i, barrett(vld1q_s16(r + i)));
}

/* r * 2^16 mod q: any int16 in, |r_i| < q out (one barmul by 2^16 mod q). */
void mlkem_poly_tomont_neon(int16_t r[256])
{
    for (unsigned i = 0; i < 256; i += 8)
        vst1q_s16(r + i, barmul_n(vld1q_s16(r + i), MONT_R, TW(MONT_R)));
}
