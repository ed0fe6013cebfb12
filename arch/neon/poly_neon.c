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

/* Zetas 1 .. 7 (layers len = 128, 64, 32), lane i holding zeta_i: one q
 * register each for the plain and the twisted values, multiplied by lane
 * (MUL / SQRDMULH by element). Lane 0 and entries 8 .. 15 are unused.
 * NTT^-1 walks the same seven downwards. */
#define Z7(i, v) [(i)] = PL(v),
#define Z7_T(i, v) [(i)] = TW(PL(v)),
static const int16_t z123[16] = {MLKEM_ZETAS_0_15(Z7)};
static const int16_t z123_t[16] = {MLKEM_ZETAS_0_15(Z7_T)};

/*
 * The zetas of layers len = 16 .. 2 for one block of 32 coefficients b
 * (b = 0 .. 7): seven q registers, 56 int16_t, loaded by one LD1 of four
 * registers and one of three:
 *   register 0, by lane: (z, z') of the len = 16 block b in lanes 0, 1,
 *     of the len = 8 blocks 2b and 2b + 1 in lanes 2, 3 and 4, 5;
 *   registers 1, 2: z, z' of the len = 4 layer in the transposed layout
 *     (transpose4 below): block 4b + s's zeta in both lanes of slot s;
 *   registers 3, 4 and 5, 6: z, z' of the len = 2 layer for the register
 *     pairs (t0, t1) and (t2, t3): blocks 8b + 2s and 8b + 2s + 1 in slot s.
 * The NTT uses zeta_{8 + j} for block j of len = 16 (16 + j, 32 + j, 64 + j
 * for len = 8, 4, 2); NTT^-1 (Algorithm 10: k walks down) zeta_{15 - j}
 * (31 - j, 63 - j, 127 - j). Both tables are filled from kem/zetas.h by
 * designated initializers: zeta i goes to block j's position; zetas 0 .. 7
 * (not used by these layers) land in the 16 spare entries at the end.
 */
#define BLK 56
#define P16(j, z, t)                                                          \
    [(j) >= 0 && (j) < 8 ? BLK * (j) : BLK * 8 + 2 * (((j) + 8) % 8)] = z,    \
    [(j) >= 0 && (j) < 8 ? BLK * (j) + 1 : BLK * 8 + 2 * (((j) + 8) % 8) + 1] = t,
#define P8(j, z, t)                                                           \
    [BLK * ((j) / 2) + 2 + 2 * ((j) % 2)] = z,                                \
    [BLK * ((j) / 2) + 3 + 2 * ((j) % 2)] = t,
#define P4(j, z, t)                                                           \
    [BLK * ((j) / 4) + 8 + 2 * ((j) % 4)] = z,                                \
    [BLK * ((j) / 4) + 9 + 2 * ((j) % 4)] = z,                                \
    [BLK * ((j) / 4) + 16 + 2 * ((j) % 4)] = t,                               \
    [BLK * ((j) / 4) + 17 + 2 * ((j) % 4)] = t,
#define P2(j, z, t)                                                           \
    [BLK * ((j) / 8) + 24 + 16 * ((j) % 2) + (j) % 8 / 2 * 2] = z,            \
    [BLK * ((j) / 8) + 25 + 16 * ((j) % 2) + (j) % 8 / 2 * 2] = z,            \
    [BLK * ((j) / 8) + 32 + 16 * ((j) % 2) + (j) % 8 / 2 * 2] = t,            \
    [BLK * ((j) / 8) + 33 + 16 * ((j) % 2) + (j) % 8 / 2 * 2] = t,
#define F16(i, v) P16((i) - 8, PL(v), TW(PL(v)))
#define F8(i, v) P8((i) - 16, PL(v), TW(PL(v)))
#define F4(i, v) P4((i) - 32, PL(v), TW(PL(v)))
#define F2(i, v) P2((i) - 64, PL(v), TW(PL(v)))
#define I16(i, v) P16(15 - (i), PL(v), TW(PL(v)))
#define I8(i, v) P8(31 - (i), PL(v), TW(PL(v)))
#define I4(i, v) P4(63 - (i), PL(v), TW(PL(v)))
#define I2(i, v) P2(127 - (i), PL(v), TW(PL(v)))
static const int16_t ntt_blk[BLK * 8 + 16] = {
    MLKEM_ZETAS_0_15(F16) MLKEM_ZETAS_16_31(F8) MLKEM_ZETAS_32_63(F4)
        MLKEM_ZETAS_64_127(F2)};
static const int16_t inv_blk[BLK * 8 + 16] = {
    MLKEM_ZETAS_0_15(I16) MLKEM_ZETAS_16_31(I8) MLKEM_ZETAS_32_63(I4)
        MLKEM_ZETAS_64_127(I2)};

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

/* The same with z, z' in lanes iz, it of registers (MUL / SQRDMULH by
 * element; a macro, since the lanes must be constants). */
#define BARMUL_LANE(a, z, iz, zt, it)                                         \
    vmlsq_n_s16(vmulq_laneq_s16(a, z, iz), vqrdmulhq_laneq_s16(a, zt, it), Q)

/* A table register the compiler may not see through or hoist: without it
 * gcc turns the by-element multiplications by the loop-invariant z123 into
 * one DUP'ed register per zeta, hoisted out of the loop, and spills them.
 * An empty asm, as kem/ct.h's value barrier; no instruction is emitted. */
static MLKEM_ALWAYS_INLINE int16x8_t opaque(int16x8_t x)
{
    __asm__ volatile("" : "+w"(x));
    return x;
}

/* Barrett reduction: a mod q, centred, |result| <= (q-1)/2. */
static MLKEM_ALWAYS_INLINE int16x8_t barrett(int16x8_t a)
{
    const int16x8_t t = vrshrq_n_s16(vqdmulhq_n_s16(a, BARRETT_V), 11);
    return vmlsq_n_s16(a, t, Q);
}

/* Cooley-Tukey butterfly (Algorithm 9 lines 8-9): (a, b) <- (a + zb, a - zb),
 * with z, z' from lane i of (z, zt) (CT_L), lanes i, i + 1 of one register
 * (CT_P), or per lane (CT_V). */
#define CT(a, b, zmul)                                                        \
    do {                                                                      \
        const int16x8_t t_ = zmul;                                            \
        b = vsubq_s16(a, t_);                                                 \
        a = vaddq_s16(a, t_);                                                 \
    } while (0)
#define CT_L(a, b, z, zt, i) CT(a, b, BARMUL_LANE(b, z, i, zt, i))
#define CT_P(a, b, zz, i) CT(a, b, BARMUL_LANE(b, zz, i, zz, (i) + 1))
#define CT_V(a, b, z, zt) CT(a, b, barmul(b, z, zt))

/* Gentleman-Sande butterfly (Algorithm 10 lines 8-9):
 * (a, b) <- (a + b, z (b - a)). */
#define GS(a, b, zmul_of_d)                                                   \
    do {                                                                      \
        const int16x8_t d_ = vsubq_s16(b, a);                                 \
        a = vaddq_s16(a, b);                                                  \
        b = zmul_of_d;                                                        \
    } while (0)
#define GS_L(a, b, z, zt, i) GS(a, b, BARMUL_LANE(d_, z, i, zt, i))
#define GS_P(a, b, zz, i) GS(a, b, BARMUL_LANE(d_, zz, i, zz, (i) + 1))
#define GS_V(a, b, z, zt) GS(a, b, barmul(d_, z, zt))

/* The 4 x 4 transpose of 32-bit slots (coefficient pairs) of w0 .. w3:
 * slot s of t_j = slot j of w_s. Applied to 32 consecutive coefficients
 * (w_s = coefficients 8s .. 8s + 7), t_j holds coefficients 8s + 2j and
 * 8s + 2j + 1 in slot s: the partners of the len = 4 layer are t_j, t_{j+2}
 * and those of len = 2 are t_j, t_{j+1}, each in the same lanes. This is
 * the layout LD4 / ST4 of 32-bit elements give, so the transposed block is
 * stored (and NTT^-1's loaded) with one ST4 (LD4) and no transpose back. */
static MLKEM_ALWAYS_INLINE int32x4x4_t transpose4(int16x8_t w0, int16x8_t w1,
                                                  int16x8_t w2, int16x8_t w3)
{
    const int32x4_t a0 = vtrn1q_s32(vreinterpretq_s32_s16(w0),
                                    vreinterpretq_s32_s16(w1));
    const int32x4_t a1 = vtrn2q_s32(vreinterpretq_s32_s16(w0),
                                    vreinterpretq_s32_s16(w1));
    const int32x4_t a2 = vtrn1q_s32(vreinterpretq_s32_s16(w2),
                                    vreinterpretq_s32_s16(w3));
    const int32x4_t a3 = vtrn2q_s32(vreinterpretq_s32_s16(w2),
                                    vreinterpretq_s32_s16(w3));
    int32x4x4_t t;
    t.val[0] = vreinterpretq_s32_s64(vtrn1q_s64(vreinterpretq_s64_s32(a0),
                                                vreinterpretq_s64_s32(a2)));
    t.val[1] = vreinterpretq_s32_s64(vtrn1q_s64(vreinterpretq_s64_s32(a1),
                                                vreinterpretq_s64_s32(a3)));
    t.val[2] = vreinterpretq_s32_s64(vtrn2q_s64(vreinterpretq_s64_s32(a0),
                                                vreinterpretq_s64_s32(a2)));
    t.val[3] = vreinterpretq_s32_s64(vtrn2q_s64(vreinterpretq_s64_s32(a1),
                                                vreinterpretq_s64_s32(a3)));
    return t;
}

#define S16(x) vreinterpretq_s16_s32(x)
#define S32(x) vreinterpretq_s32_s16(x)

/* ---- NTT ------------------------------------------------------------------ */

/* Columns 2h and 2h + 1 of both transforms' layers 1-3 (len 128, 64, 32):
 * register k of a (b) holds coefficients 32k + 16h .. + 7 (+ 8 .. + 15). */
static MLKEM_ALWAYS_INLINE void columns_load(const int16_t r[256],
                                             unsigned h, int16x8_t a[8],
                                             int16x8_t b[8])
{
    for (unsigned k = 0; k < 8; k++) {
        a[k] = vld1q_s16(r + 32 * k + 16 * h);
        b[k] = vld1q_s16(r + 32 * k + 16 * h + 8);
    }
}

static MLKEM_ALWAYS_INLINE void columns_store(int16_t r[256], unsigned h,
                                              const int16x8_t a[8],
                                              const int16x8_t b[8])
{
    for (unsigned k = 0; k < 8; k++) {
        vst1q_s16(r + 32 * k + 16 * h, a[k]);
        vst1q_s16(r + 32 * k + 16 * h + 8, b[k]);
    }
}

/*
 * Implements FIPS 203, Algorithm 9 (NTT), in place, spec order.
 * Input |r_i| < q; output |r_i| < 8q: every layer adds a product of
 * magnitude < q (barmul) to values below (layer + 1) q, so after 7 layers
 * < 8q = 26,632 < 2^15.
 * Pass 1, layers len = 128, 64, 32, two columns at a time: for h = 0, 1,
 * register k of a (b) holds coefficients 32k + 16h .. + 7 (+ 8 .. + 15),
 * loaded together by one LD1 of two registers; the partners are k + 4,
 * k + 2, k + 1.
 * Pass 2, per block of 32 coefficients (LD1 of four registers w0 .. w3):
 * len = 16 (w0, w2), (w1, w3); len = 8 (w0, w1), (w2, w3); transpose4;
 * len = 4 (t0, t2), (t1, t3); len = 2 (t0, t1), (t2, t3); one ST4 writes
 * the block back in spec order.
 */
void mlkem_ntt_neon(int16_t r[256])
{
    for (unsigned h = 0; h < 2; h++) {
        const int16x8_t z = opaque(vld1q_s16(z123));
        const int16x8_t zt = opaque(vld1q_s16(z123_t));
        int16x8_t a[8], b[8];
        columns_load(r, h, a, b);
#define NTT123(v)                                                             \
    do {                                                                      \
        CT_L(v[0], v[4], z, zt, 1);                                           \
        CT_L(v[1], v[5], z, zt, 1);                                           \
        CT_L(v[2], v[6], z, zt, 1);                                           \
        CT_L(v[3], v[7], z, zt, 1);                                           \
        CT_L(v[0], v[2], z, zt, 2);                                           \
        CT_L(v[1], v[3], z, zt, 2);                                           \
        CT_L(v[4], v[6], z, zt, 3);                                           \
        CT_L(v[5], v[7], z, zt, 3);                                           \
        CT_L(v[0], v[1], z, zt, 4);                                           \
        CT_L(v[2], v[3], z, zt, 5);                                           \
        CT_L(v[4], v[5], z, zt, 6);                                           \
        CT_L(v[6], v[7], z, zt, 7);                                           \
    } while (0)
        NTT123(a);
        NTT123(b);
#undef NTT123
        columns_store(r, h, a, b);
    }
    for (unsigned blk = 0; blk < 8; blk++) {
        int16_t *p = r + 32 * blk;
        const int16x8x4_t za = vld1q_s16_x4(ntt_blk + BLK * blk);
        const int16x8x3_t zb = vld1q_s16_x3(ntt_blk + BLK * blk + 32);
        const int16x8_t z45 = za.val[0];
        int16x8x4_t w = vld1q_s16_x4(p);
        CT_P(w.val[0], w.val[2], z45, 0);
        CT_P(w.val[1], w.val[3], z45, 0);
        CT_P(w.val[0], w.val[1], z45, 2);
        CT_P(w.val[2], w.val[3], z45, 4);
        int32x4x4_t t = transpose4(w.val[0], w.val[1], w.val[2], w.val[3]);
        int16x8_t t0 = S16(t.val[0]), t1 = S16(t.val[1]);
        int16x8_t t2 = S16(t.val[2]), t3 = S16(t.val[3]);
        CT_V(t0, t2, za.val[1], za.val[2]);
        CT_V(t1, t3, za.val[1], za.val[2]);
        CT_V(t0, t1, za.val[3], zb.val[0]);
        CT_V(t2, t3, zb.val[1], zb.val[2]);
        t.val[0] = S32(t0);
        t.val[1] = S32(t1);
        t.val[2] = S32(t2);
        t.val[3] = S32(t3);
        vst4q_s32((int32_t *)(void *)p, t);
    }
}

/* ---- NTT^-1 --------------------------------------------------------------- */

/* Layers len = 32, 64, 128 of Algorithm 10 on column c of the polynomial
 * (register k: coefficients 32k + 8c .. + 7), with line 14's factor in the
 * last layer: its sums are multiplied by f, its differences by zeta_1 f.
 * `reduce` (a constant after inlining) names the Barrett reductions the
 * column needs, from the bounds of mlkem_ntt_inv_neon's first pass:
 * 2 = every register on entry, 1 = register 0 after len = 32, 0 = none. */
static MLKEM_ALWAYS_INLINE void ntt_inv_column(int16x8_t v[8], int16x8_t z,
                                               int16x8_t zt,
                                               const unsigned reduce)
{
    if (reduce == 2)
        for (unsigned k = 0; k < 8; k++)
            v[k] = barrett(v[k]);
    GS_L(v[0], v[1], z, zt, 7);
    GS_L(v[2], v[3], z, zt, 6);
    GS_L(v[4], v[5], z, zt, 5);
    GS_L(v[6], v[7], z, zt, 4);
    if (reduce == 1)
        v[0] = barrett(v[0]);
    GS_L(v[0], v[2], z, zt, 3);
    GS_L(v[1], v[3], z, zt, 3);
    GS_L(v[4], v[6], z, zt, 2);
    GS_L(v[5], v[7], z, zt, 2);
    for (unsigned k = 0; k < 4; k++) {
        const int16x8_t s = vaddq_s16(v[k], v[k + 4]);
        const int16x8_t d = vsubq_s16(v[k + 4], v[k]);
        v[k] = barmul_n(s, INV_F, TW(INV_F));
        v[k + 4] = barmul_n(d, INV_ZF, TW(INV_ZF));
    }
}

/* Columns 2h and 2h + 1 (16 registers, LDP / STP). */
static MLKEM_ALWAYS_INLINE void ntt_inv_columns(int16_t r[256],
                                                const unsigned h)
{
    const int16x8_t z = opaque(vld1q_s16(z123));
    const int16x8_t zt = opaque(vld1q_s16(z123_t));
    int16x8_t a[8], b[8];
    columns_load(r, h, a, b);
    ntt_inv_column(a, z, zt, h == 0 ? 2 : 0);
    ntt_inv_column(b, z, zt, h == 0 ? 1 : 0);
    columns_store(r, h, a, b);
}

/*
 * Implements FIPS 203, Algorithm 10 (NTT^-1), in place, spec order, with
 * line 14's factor 1/128 replaced by 2^16 / 128 (kem/poly_kernels.h: the
 * result carries 2^16, which cancels MultiplyNTTs' 2^-16).
 * Input: any int16_t. Output |r_i| < q.
 * Pass 1, per block of 32 coefficients: LD4 of 32-bit elements loads the
 * transposed layout (transpose4), Barrett-reduced (<= 1664); len = 2
 * (t0, t1), (t2, t3); len = 4 (t0, t2), (t1, t3); transpose4 back to
 * w0 .. w3 (coefficients 8s .. 8s + 7); len = 8 (w0, w1), (w2, w3);
 * len = 16 (w0, w2), (w1, w3).
 * Pass 2, layers len = 32, 64, 128, two columns at a time as in the NTT.
 * Bounds. A sum is at most the sum of its operands' bounds; a product
 * (barmul) is below q for any input, and below B(A) for inputs |a| <= A,
 * with B(1664) = 1738, B(3328) = 1823, B(6656) = 1984, B(13312) = 2314,
 * B(26624) = 2976 (the maximum over every zeta used and every such a,
 * computed exhaustively). Tracked per coefficient from 1664 after the
 * first reduction: pass 1 ends with |.| <= 16 * 1664 = 26,624 in column 0
 * (coefficients 0 .. 7 of each block), 4,628 in column 1, 2,976 and 1,882
 * in columns 2 and 3. Column 0 is reduced again (1664); in column 1 only
 * register 0 after len = 32 (its sum would otherwise reach 4 * 4,628 and
 * the last layer's 8 * 4,628 > 2^15). With these the largest value pass 2
 * computes (a sum or difference of its last layer) is 29,432 < 2^15, and
 * every output is a barmul result, |.| < q. (The old schedule reduced all
 * 32 registers before pass 2; these 9 of them are what the bounds need.)
 */
void mlkem_ntt_inv_neon(int16_t r[256])
{
    for (unsigned blk = 0; blk < 8; blk++) {
        int16_t *p = r + 32 * blk;
        const int16_t *zp = inv_blk + BLK * blk;
        const int16x8_t z45 = vld1q_s16(zp);
        const int16x8_t z4 = vld1q_s16(zp + 8), z4t = vld1q_s16(zp + 16);
        const int16x8_t z2a = vld1q_s16(zp + 24), z2at = vld1q_s16(zp + 32);
        const int16x8_t z2b = vld1q_s16(zp + 40), z2bt = vld1q_s16(zp + 48);
        const int32x4x4_t t = vld4q_s32((const int32_t *)(const void *)p);
        int16x8_t t0 = barrett(S16(t.val[0])), t1 = barrett(S16(t.val[1]));
        int16x8_t t2 = barrett(S16(t.val[2])), t3 = barrett(S16(t.val[3]));
        GS_V(t0, t1, z2a, z2at);
        GS_V(t2, t3, z2b, z2bt);
        GS_V(t0, t2, z4, z4t);
        GS_V(t1, t3, z4, z4t);
        /* transpose4 is its own inverse */
        const int32x4x4_t w = transpose4(t0, t1, t2, t3);
        int16x8_t w0 = S16(w.val[0]), w1 = S16(w.val[1]);
        int16x8_t w2 = S16(w.val[2]), w3 = S16(w.val[3]);
        GS_P(w0, w1, z45, 2);
        GS_P(w2, w3, z45, 4);
        GS_P(w0, w2, z45, 0);
        GS_P(w1, w3, z45, 0);
        vst1q_s16(p, w0);
        vst1q_s16(p + 8, w1);
        vst1q_s16(p + 16, w2);
        vst1q_s16(p + 24, w3);
    }
    ntt_inv_columns(r, 0);
    ntt_inv_columns(r, 1);
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
