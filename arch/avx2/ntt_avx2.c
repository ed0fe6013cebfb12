/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ntt_avx2.c: the avx2 backend's NTT-domain kernels: NTT, NTT^-1, the
 * multiplication cache, MultiplyNTTs summed over k terms, Barrett and
 * Montgomery element-wise reductions, and ByteEncode_12 / ByteDecode_12
 * with the conversion between the set order and the spec's byte order.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §4.3: Algorithms 9 (NTT), 10 (NTT^-1), 11
 *             (MultiplyNTTs), 12 (BaseCaseMultiply); Algorithms 5, 6
 *             (ByteEncode_12, ByteDecode_12); §7.2 (modulus check).
 *   [SEIL]    G. Seiler, ePrint 2018/039 (see arch/avx2/poly_avx2.h).
 *
 * Compiled with -mavx2 (arch/avx2/CMakeLists.txt); reached only through the
 * backend tables of arch/dispatch.c after CPUID showed AVX2.
 *
 * Each transform performs, coefficient by coefficient, the same butterflies
 * with the same zetas and the same (lazy) reductions as the portable
 * template kem/ntt_template.h, whose comments carry the bound proofs; only
 * the placement of the coefficients in registers differs (the set order of
 * poly_avx2.h). So the outputs equal the portable ones up to that order,
 * and the bounds are the portable ones: NTT |a| < q in, < 8q out; NTT^-1
 * any int16_t in, |r| < q out (times 2^16).
 *
 * Register use: each transform makes two passes over the polynomial, four
 * registers (64 coefficients) at a time: the NTT runs len = 128 and 64 on
 * (r[m], r[m+4], r[m+8], r[m+12]) (register numbers, 16 coefficients
 * each), then len = 32 .. 2 on four consecutive registers; NTT^-1 the
 * reverse. The four iterations of each pass are independent and written
 * out (#pragma GCC unroll), which the out-of-order core overlaps better
 * than the loop: NTT 167 -> 156 ticks, NTT^-1 182 -> 172 on Zen 4.
 *
 * Constant time: no branch or index depends on coefficients; only the
 * §7.2 verdict of ByteDecode_12 is computed from them, as a mask.
 */
#include <immintrin.h>
#include <stdint.h>

#include "arch/avx2/poly_avx2.h"
#include "arch/x86_64.h"
#include "common/ct.h"
#include "kem/poly.h"
#include "kem/zetas.h"

/* ---- Twiddle layouts -------------------------------------------------------
 * Expanded from kem/zetas.h like kem/ntt.c's tables. A register of the
 * len = 4 layer holds four blocks of 4 coefficient pairs, of the len = 2
 * layer eight blocks of 2 (poly_avx2.h), so the zeta of block s of those
 * layers is repeated 4 or 2 times; the len = 8 layer's layout is kem/'s
 * mlkem_zetas_lane8 (8 copies). The inverse layouts walk the zetas
 * downwards (Algorithm 10: index 127 - s for block s of len = 2, 63 - s for
 * len = 4). */

/* v * q^-1 mod 2^16, signed (as kem/ntt.c). */
#define ZQ(v) ((int16_t)(uint16_t)((uint32_t)((v) + 65536) * 62209u))

#define R2(base, v) [(base)] = (v), [(base) + 1] = (v),
#define R4(base, v) R2(base, v) R2((base) + 2, v)
#define F4(i, v) R4(4 * ((i) - 32), v)
#define F4Q(i, v) R4(4 * ((i) - 32), ZQ(v))
#define I4(i, v) R4(4 * (63 - (i)), v)
#define I4Q(i, v) R4(4 * (63 - (i)), ZQ(v))
#define F2(i, v) R2(2 * ((i) - 64), v)
#define F2Q(i, v) R2(2 * ((i) - 64), ZQ(v))
#define I2(i, v) R2(2 * (127 - (i)), v)
#define I2Q(i, v) R2(2 * (127 - (i)), ZQ(v))

static const int16_t zetas4[128] = {MLKEM_ZETAS_32_63(F4)};
static const int16_t zetas4_qinv[128] = {MLKEM_ZETAS_32_63(F4Q)};
static const int16_t zetas4_inv[128] = {MLKEM_ZETAS_32_63(I4)};
static const int16_t zetas4_inv_qinv[128] = {MLKEM_ZETAS_32_63(I4Q)};
static const int16_t zetas2[128] = {MLKEM_ZETAS_64_127(F2)};
static const int16_t zetas2_qinv[128] = {MLKEM_ZETAS_64_127(F2Q)};
static const int16_t zetas2_inv[128] = {MLKEM_ZETAS_64_127(I2)};
static const int16_t zetas2_inv_qinv[128] = {MLKEM_ZETAS_64_127(I2Q)};

/* NTT^-1's last layer with line 14's factor (kem/ntt_template.h: f =
 * 2^32 / 128 mod q = 1441 and zeta_1 * f in Montgomery form = 1397, with
 * their q^-1 twins; test/arch/test_slots.c compares the results). */
#define NTT_INV_F 1441
#define NTT_INV_ZF 1397

/* The tomont multiplier 2^32 mod q (kem/reduce.h MLKEM_MONT2). */
#define MONT2 1353

static inline __m256i bcast(const int16_t *t, unsigned i)
{
    return _mm256_set1_epi16(t[i]);
}

/* Cooley-Tukey (Algorithm 9 lines 8-10): (a, b) <- (a + zb, a - zb). */
static inline void ct(__m256i *a, __m256i *b, __m256i z, __m256i zq)
{
    const __m256i t = avx2_fqmul(*b, z, zq);
    *b = _mm256_sub_epi16(*a, t);
    *a = _mm256_add_epi16(*a, t);
}

/* Gentleman-Sande (Algorithm 10 lines 8-10): (a, b) <- (a + b, z(b - a)). */
static inline void gs(__m256i *a, __m256i *b, __m256i z, __m256i zq)
{
    const __m256i d = _mm256_sub_epi16(*b, *a);
    *a = _mm256_add_epi16(*a, *b);
    *b = avx2_fqmul(d, z, zq);
}

/* gs with the sum Barrett-reduced (NTT^-1's len = 16 layer). */
static inline void gs_reduce(__m256i *a, __m256i *b, __m256i z, __m256i zq)
{
    const __m256i d = _mm256_sub_epi16(*b, *a);
    *a = avx2_barrett(_mm256_add_epi16(*a, *b));
    *b = avx2_fqmul(d, z, zq);
}

/*
 * Implements FIPS 203, Algorithm 9 (NTT), in place; output in the set
 * order. Input |r_i| < q, output |r_i| < 8q (kem/poly_kernels.h).
 */
void mlkem_ntt_avx2(int16_t r[256])
{
    /* Pass 1: len = 128 (zeta index 1) and len = 64 (2, 3). */
    #pragma GCC unroll 4
    for (unsigned m = 0; m < 4; m++) {
        __m256i a0 = avx2_load(r + 16 * m), a1 = avx2_load(r + 16 * (m + 4));
        __m256i a2 = avx2_load(r + 16 * (m + 8));
        __m256i a3 = avx2_load(r + 16 * (m + 12));
        ct(&a0, &a2, bcast(mlkem_zetas, 1), bcast(mlkem_zetas_qinv, 1));
        ct(&a1, &a3, bcast(mlkem_zetas, 1), bcast(mlkem_zetas_qinv, 1));
        ct(&a0, &a1, bcast(mlkem_zetas, 2), bcast(mlkem_zetas_qinv, 2));
        ct(&a2, &a3, bcast(mlkem_zetas, 3), bcast(mlkem_zetas_qinv, 3));
        avx2_store(r + 16 * m, a0);
        avx2_store(r + 16 * (m + 4), a1);
        avx2_store(r + 16 * (m + 8), a2);
        avx2_store(r + 16 * (m + 12), a3);
    }
    /* Pass 2, 64 coefficients (block s of len = 32) at a time: len = 32
     * (index 4 + s), 16 (8 + 2s, 9 + 2s), then per 32-coefficient block g
     * the shuffled layers len = 8, 4, 2. */
    #pragma GCC unroll 4
    for (unsigned s = 0; s < 4; s++) {
        int16_t *p = r + 64 * s;
        __m256i a0 = avx2_load(p), a1 = avx2_load(p + 16);
        __m256i a2 = avx2_load(p + 32), a3 = avx2_load(p + 48);
        ct(&a0, &a2, bcast(mlkem_zetas, 4 + s), bcast(mlkem_zetas_qinv, 4 + s));
        ct(&a1, &a3, bcast(mlkem_zetas, 4 + s), bcast(mlkem_zetas_qinv, 4 + s));
        ct(&a0, &a1, bcast(mlkem_zetas, 8 + 2 * s),
           bcast(mlkem_zetas_qinv, 8 + 2 * s));
        ct(&a2, &a3, bcast(mlkem_zetas, 9 + 2 * s),
           bcast(mlkem_zetas_qinv, 9 + 2 * s));
        for (unsigned h = 0; h < 2; h++) {
            const unsigned g = 2 * s + h;
            __m256i *x = h ? &a2 : &a0, *y = h ? &a3 : &a1;
            avx2_shuffle8(x, y);
            ct(x, y, avx2_load(mlkem_zetas_lane8 + 16 * g),
               avx2_load(mlkem_zetas_lane8_qinv + 16 * g));
            avx2_shuffle4(x, y);
            ct(x, y, avx2_load(zetas4 + 16 * g), avx2_load(zetas4_qinv + 16 * g));
            avx2_shuffle2(x, y);
            ct(x, y, avx2_load(zetas2 + 16 * g), avx2_load(zetas2_qinv + 16 * g));
        }
        avx2_store(p, a0);
        avx2_store(p + 16, a1);
        avx2_store(p + 32, a2);
        avx2_store(p + 48, a3);
    }
}

/*
 * Implements FIPS 203, Algorithm 10 (NTT^-1), in place, times 2^16 (as
 * kem/ntt_template.h): input in the set order, any int16_t; output in the
 * natural order, |r_i| < q.
 */
void mlkem_ntt_inv_avx2(int16_t r[256])
{
    /* Pass 1: Barrett on input; per block g the layers len = 2, 4, 8
     * (undoing the shuffles), then len = 16 (reduced sums) and 32. */
    #pragma GCC unroll 4
    for (unsigned s = 0; s < 4; s++) {
        int16_t *p = r + 64 * s;
        __m256i a0 = avx2_barrett(avx2_load(p));
        __m256i a1 = avx2_barrett(avx2_load(p + 16));
        __m256i a2 = avx2_barrett(avx2_load(p + 32));
        __m256i a3 = avx2_barrett(avx2_load(p + 48));
        for (unsigned h = 0; h < 2; h++) {
            const unsigned g = 2 * s + h;
            __m256i *x = h ? &a2 : &a0, *y = h ? &a3 : &a1;
            gs(x, y, avx2_load(zetas2_inv + 16 * g),
               avx2_load(zetas2_inv_qinv + 16 * g));
            avx2_shuffle2(x, y);
            gs(x, y, avx2_load(zetas4_inv + 16 * g),
               avx2_load(zetas4_inv_qinv + 16 * g));
            avx2_shuffle4(x, y);
            gs(x, y, avx2_load(mlkem_zetas_inv_lane8 + 16 * g),
               avx2_load(mlkem_zetas_inv_lane8_qinv + 16 * g));
            avx2_shuffle8(x, y);
        }
        gs_reduce(&a0, &a1, bcast(mlkem_zetas, 15 - 2 * s),
                  bcast(mlkem_zetas_qinv, 15 - 2 * s));
        gs_reduce(&a2, &a3, bcast(mlkem_zetas, 14 - 2 * s),
                  bcast(mlkem_zetas_qinv, 14 - 2 * s));
        gs(&a0, &a2, bcast(mlkem_zetas, 7 - s), bcast(mlkem_zetas_qinv, 7 - s));
        gs(&a1, &a3, bcast(mlkem_zetas, 7 - s), bcast(mlkem_zetas_qinv, 7 - s));
        avx2_store(p, a0);
        avx2_store(p + 16, a1);
        avx2_store(p + 32, a2);
        avx2_store(p + 48, a3);
    }
    /* Pass 2: len = 64 (index 3 for the first half, 2 for the second),
     * then len = 128 with line 14's factor folded in. */
    const __m256i f = _mm256_set1_epi16(NTT_INV_F);
    const __m256i fq = _mm256_set1_epi16(ZQ(NTT_INV_F));
    const __m256i zf = _mm256_set1_epi16(NTT_INV_ZF);
    const __m256i zfq = _mm256_set1_epi16(ZQ(NTT_INV_ZF));
    #pragma GCC unroll 4
    for (unsigned m = 0; m < 4; m++) {
        __m256i a0 = avx2_load(r + 16 * m), a1 = avx2_load(r + 16 * (m + 4));
        __m256i a2 = avx2_load(r + 16 * (m + 8));
        __m256i a3 = avx2_load(r + 16 * (m + 12));
        gs(&a0, &a1, bcast(mlkem_zetas, 3), bcast(mlkem_zetas_qinv, 3));
        gs(&a2, &a3, bcast(mlkem_zetas, 2), bcast(mlkem_zetas_qinv, 2));
        const __m256i s0 = _mm256_add_epi16(a0, a2);
        const __m256i d0 = _mm256_sub_epi16(a2, a0);
        const __m256i s1 = _mm256_add_epi16(a1, a3);
        const __m256i d1 = _mm256_sub_epi16(a3, a1);
        avx2_store(r + 16 * m, avx2_fqmul(s0, f, fq));
        avx2_store(r + 16 * (m + 4), avx2_fqmul(s1, f, fq));
        avx2_store(r + 16 * (m + 8), avx2_fqmul(d0, zf, zfq));
        avx2_store(r + 16 * (m + 12), avx2_fqmul(d1, zf, zfq));
    }
}

/* Spec order -> set order (a T_q element sampled by SampleNTT). */
void mlkem_ntt_pack_avx2(int16_t r[256])
{
    for (unsigned g = 0; g < 8; g++) {
        __m256i a = avx2_load(r + 32 * g), b = avx2_load(r + 32 * g + 16);
        avx2_pack_block(&a, &b);
        avx2_store(r + 32 * g, a);
        avx2_store(r + 32 * g + 16, b);
    }
}

/*
 * The multiplication cache of b (set order): for block g, 16 32-bit words
 * at c + 16g; word e holds b1 * gamma of the pair in register A's lanes
 * 2e, 2e+1 in its low half and of the pair in register B's lanes in its
 * high half, each a Montgomery product (|.| < q). gamma = +zeta[64 + 8g +
 * e] for A's pair (spec pair 16g + 2e, even) and -zeta[64 + 8g + e] for
 * B's (pair 16g + 2e + 1): Algorithm 11's gamma = zeta^(2 BitRev7(p) + 1),
 * the same values the len = 2 layer uses (kem/poly.h mlkem_gammas).
 * Input |b_i| < q.
 */
void mlkem_mulcache_avx2(int16_t c[128], const int16_t b[256])
{
    for (unsigned g = 0; g < 8; g++) {
        const __m256i z = avx2_load(zetas2 + 16 * g);
        const __m256i zq = avx2_load(zetas2_qinv + 16 * g);
        const __m256i x = avx2_fqmul(avx2_load(b + 32 * g), z, zq);
        const __m256i y = _mm256_sub_epi16(
            _mm256_setzero_si256(), avx2_fqmul(avx2_load(b + 32 * g + 16), z, zq));
        /* odd lanes of x down into the low halves, odd lanes of y kept */
        avx2_store(c + 16 * g,
                   _mm256_blend_epi16(_mm256_srli_epi32(x, 16), y, 0xaa));
    }
}

/* Montgomery reduction of 32-bit sums (|c| < q 2^15) in both halves of a
 * pair: lo gets (c0 q^-1-reduced) in the low 16 bits, hi's result in the
 * high 16 bits (mlkem_montgomery_reduce, exactly: t = c * q^-1 mod 2^16,
 * (c - t q) / 2^16, with c - t q computed exactly in 32 bits). */
static inline __m256i mont_pair(__m256i c0, __m256i c1)
{
    const __m256i qinv = _mm256_set1_epi32(AVX2_QINV & 0xffff);
    const __m256i q = _mm256_set1_epi32(AVX2_Q);
    const __m256i t0 = _mm256_mullo_epi16(c0, qinv);
    const __m256i t1 = _mm256_mullo_epi16(c1, qinv);
    /* t * q as 32-bit products of the low halves (the high halves of t
     * are 0 since qinv's are) */
    const __m256i r0 = _mm256_sub_epi32(c0, _mm256_madd_epi16(t0, q));
    const __m256i r1 = _mm256_sub_epi32(c1, _mm256_madd_epi16(t1, q));
    return _mm256_blend_epi16(_mm256_srli_epi32(r0, 16), r1, 0xaa);
}

/*
 * r = sum_{i<k} a_i o b_i * 2^-16 (Algorithms 11 and 12 summed over k
 * terms, kem/poly_kernels.h): every pair (a0, a1), (b0, b1) sits in one
 * 32-bit lane, so with b' = (b0, b1 gamma) from the cache and the swapped
 * (b1, b0), vpmaddwd gives c0 = a0 b0 + a1 b1 gamma and c1 = a0 b1 + a1 b0
 * in 32 bits; the k terms are summed there and reduced once. Bounds as
 * kem/ntt_template.h: |a| <= q, |b| < q, |bc| < q, so |c| < 2 k q^2 <=
 * 8 q^2 < q 2^15; output |r_i| < q.
 */
static inline void multiply_k(int16_t r[256], const int16_t *a,
                              const int16_t *b, const int16_t *bc,
                              const unsigned k)
{
    const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                          14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4,
                                          5, 10, 11, 8, 9, 14, 15, 12, 13);
    for (unsigned g = 0; g < 8; g++) {
        __m256i c0x = _mm256_setzero_si256(), c1x = c0x, c0y = c0x, c1y = c0x;
        for (unsigned i = 0; i < k; i++) {
            const __m256i ax = avx2_load(a + 256 * i + 32 * g);
            const __m256i ay = avx2_load(a + 256 * i + 32 * g + 16);
            const __m256i bx = avx2_load(b + 256 * i + 32 * g);
            const __m256i by = avx2_load(b + 256 * i + 32 * g + 16);
            const __m256i l = avx2_load(bc + 128 * i + 16 * g);
            const __m256i bgx = _mm256_blend_epi16(bx, _mm256_slli_epi32(l, 16), 0xaa);
            const __m256i bgy = _mm256_blend_epi16(by, l, 0xaa);
            c0x = _mm256_add_epi32(c0x, _mm256_madd_epi16(ax, bgx));
            c1x = _mm256_add_epi32(
                c1x, _mm256_madd_epi16(ax, _mm256_shuffle_epi8(bx, swap)));
            c0y = _mm256_add_epi32(c0y, _mm256_madd_epi16(ay, bgy));
            c1y = _mm256_add_epi32(
                c1y, _mm256_madd_epi16(ay, _mm256_shuffle_epi8(by, swap)));
        }
        avx2_store(r + 32 * g, mont_pair(c0x, c1x));
        avx2_store(r + 32 * g + 16, mont_pair(c0y, c1y));
    }
}

void mlkem_multiply_ntts_acc_avx2(int16_t r[256], const int16_t *a,
                                  const int16_t *b, const int16_t *bc,
                                  unsigned k)
{
    switch (k) {
    case 1: multiply_k(r, a, b, bc, 1); break;
    case 2: multiply_k(r, a, b, bc, 2); break;
    case 3: multiply_k(r, a, b, bc, 3); break;
    default: multiply_k(r, a, b, bc, 4); break;
    }
}

/* Barrett reduction of every coefficient: any int16_t in, |r_i| <=
 * (q - 1) / 2 out (equal to the portable kernel's output). */
void mlkem_poly_reduce_avx2(int16_t r[256])
{
    for (unsigned i = 0; i < 256; i += 16)
        avx2_store(r + i, avx2_barrett(avx2_load(r + i)));
}

/* r * 2^16 mod q: Montgomery product with 2^32 mod q; any int16_t in,
 * |r_i| < q out (kem/poly.c's portable kernel, lane by lane). */
void mlkem_poly_tomont_avx2(int16_t r[256])
{
    const __m256i m = _mm256_set1_epi16(MONT2);
    const __m256i mq = _mm256_set1_epi16(ZQ(MONT2));
    for (unsigned i = 0; i < 256; i += 16)
        avx2_store(r + i, avx2_fqmul(avx2_load(r + i), m, mq));
}

/* ---- ByteEncode_12 / ByteDecode_12 -----------------------------------------
 * 16 values of 12 bits are 24 bytes: vpmaddwd by (1, 2^12) joins each pair
 * into the low 24 bits of a 32-bit lane, vpshufb keeps bytes 0-2 of every
 * lane (12 bytes at the bottom of each 128-bit half) and vpermd closes the
 * gap between the halves. Decoding reverses it: vpermd spreads 24 bytes
 * into two 12-byte halves, vpshufb copies bytes (3i, 3i+1) to lane 2i and
 * (3i+1, 3i+2) to lane 2i+1, and the even lanes keep their low 12 bits,
 * the odd ones drop their low 4. */

/* 16 canonical values -> the 24-byte groups' dwords at positions 0-2 and
 * 4-6 of the result (bytes 0-11 and 16-27). */
static inline __m256i encode12_lanes(__m256i v)
{
    const __m256i mul = _mm256_set1_epi32(1 | (1 << 28)); /* (1, 4096) */
    const __m256i pick = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5,
        6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    return _mm256_shuffle_epi8(_mm256_madd_epi16(v, mul), pick);
}

/*
 * Implements FIPS 203, Algorithm 5 (ByteEncode_12) of the canonical value
 * of each coefficient: input in the set order, |a_i| < q; output 384 bytes
 * in the spec's order. 32 coefficients (48 bytes) per block.
 */
void mlkem_byte_encode_12_avx2(uint8_t out[384], const int16_t a[256])
{
    const __m256i idx0 = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    const __m256i idx1 = _mm256_setr_epi32(2, 4, 5, 6, 3, 7, 0, 1);
    for (unsigned g = 0; g < 8; g++) {
        __m256i x = avx2_load(a + 32 * g), y = avx2_load(a + 32 * g + 16);
        avx2_unpack_block(&x, &y);
        /* x's 24 bytes in dwords 0-5; y's first 8 in dwords 6-7, the other
         * 16 in dwords 0-3 of y2 */
        const __m256i x2 =
            _mm256_permutevar8x32_epi32(encode12_lanes(avx2_caddq(x)), idx0);
        const __m256i y2 =
            _mm256_permutevar8x32_epi32(encode12_lanes(avx2_caddq(y)), idx1);
        _mm256_storeu_si256((__m256i *)(void *)(out + 48 * g),
                            _mm256_blend_epi32(x2, y2, 0xc0));
        _mm_storeu_si128((__m128i *)(void *)(out + 48 * g + 32),
                         _mm256_castsi256_si128(y2));
    }
}

/* 24 bytes in dwords 0-2 and 4-6 -> 16 raw 12-bit values. */
static inline __m256i decode12_lanes(__m256i v)
{
    const __m256i spread = _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 0, 1, 1, 2, 3, 4, 4,
        5, 6, 7, 7, 8, 9, 10, 10, 11);
    const __m256i m = _mm256_set1_epi16(0x0fff);
    v = _mm256_shuffle_epi8(v, spread);
    return _mm256_blend_epi16(_mm256_and_si256(v, m), _mm256_srli_epi16(v, 4),
                              0xaa);
}

/*
 * Implements FIPS 203, Algorithm 6 (ByteDecode_12) without line 3's mod q:
 * raw 12-bit values in the set order, and the §7.2 verdict (0xffffffff if
 * every value is < q, else 0), collected as a compare mask and turned into
 * the verdict without a branch. Reads exactly 384 bytes.
 */
uint32_t mlkem_byte_decode_12_avx2(int16_t r[256], const uint8_t in[384])
{
    const __m256i idx0 = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
    const __m256i idx1 = _mm256_setr_epi32(2, 3, 4, 0, 5, 6, 7, 0);
    const __m256i qm1 = _mm256_set1_epi16(AVX2_Q - 1);
    __m256i bad = _mm256_setzero_si256();
    /* Not unrolled: gcc 12's full unrolling spilled decoded coefficients
     * (of s, when a dk is parsed) to the stack; rolled it keeps everything
     * in registers and is as fast (65 -> 63 ticks). */
#pragma GCC unroll 1
    for (unsigned g = 0; g < 8; g++) {
        const __m256i lo =
            _mm256_loadu_si256((const __m256i *)(const void *)(in + 48 * g));
        const __m128i hi =
            _mm_loadu_si128((const __m128i *)(const void *)(in + 48 * g + 32));
        /* bytes 16-47 of the block */
        const __m256i mid = _mm256_inserti128_si256(
            _mm256_permute2x128_si256(lo, lo, 0x11), hi, 1);
        __m256i x = decode12_lanes(_mm256_permutevar8x32_epi32(lo, idx0));
        __m256i y = decode12_lanes(_mm256_permutevar8x32_epi32(mid, idx1));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(x, qm1));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(y, qm1));
        avx2_pack_block(&x, &y);
        avx2_store(r + 32 * g, x);
        avx2_store(r + 32 * g + 16, y);
    }
    /* 1 when no lane is >= q */
    const uint32_t ok = (uint32_t)_mm256_testz_si256(bad, bad);
    return 0u - mlkem_ct_barrier_u32(ok);
}
