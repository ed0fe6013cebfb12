/* SPDX-License-Identifier: Apache-2.0 */
/*
 * poly_avx2.h: the avx2 backend's vector helpers for ML-KEM polynomials:
 * 16 coefficients (int16_t) per 256-bit register, the modular arithmetic of
 * kem/reduce.h lane by lane, and the three in-register shuffles that define
 * the backend's NTT-domain order. Included only by files under arch/ that
 * are compiled with -mavx2 (arch/avx2/CMakeLists.txt, arch/avx512/).
 *
 * References
 *   [FIPS203] NIST FIPS 203, §4.3 (NTT, Algorithms 9-12).
 *   [SEIL]    G. Seiler, "Faster AVX2 optimized NTT multiplication for
 *             Ring-LWE lattice cryptography", ePrint 2018/039: Montgomery
 *             products from 16-bit high/low products, and a vector NTT whose
 *             last layers run on shuffled registers.
 *
 * Arithmetic. Every helper below computes exactly what its scalar twin in
 * kem/reduce.h computes, in each lane (same formula, same representative),
 * so the backend's outputs equal the portable ones wherever the order of
 * coefficients is the same:
 *   avx2_fqmul(a, z, zq)  = mlkem_fqmul_pre(a, z, zq)  (|a z| < q 2^15);
 *   avx2_barrett(a)       = mlkem_barrett_reduce(a)    (any int16_t): the
 *                           scalar (mulhi(a, V) + 2^9) >> 10 is vpmulhrsw
 *                           by 2^5, which rounds exactly that way;
 *   avx2_caddq(a)         = mlkem_caddq(a)             ((-q, q) -> [0, q)).
 *
 * The NTT-domain order ("set order"). The last three NTT layers (len = 8, 4,
 * 2) pair coefficients inside one 32-coefficient block, i.e. inside a pair
 * of registers (A, B) = (c[0..15], c[16..31]). Before each of them the pair
 * is reshuffled so that the butterflies again run between the two
 * registers:
 *   shuffle8: (A, B) <- ([A.lo128, B.lo128], [A.hi128, B.hi128])
 *   shuffle4: (A, B) <- per 128-bit lane, ([A.q0, B.q0], [A.q1, B.q1])
 *   shuffle2: (A, B) <- per 64-bit group, ([A.d0, B.d0], [A.d1, B.d1])
 * (q = 64-bit, d = 32-bit element). Each is its own inverse. The forward
 * NTT leaves its output where the shuffles put it and never undoes them:
 * the set order is pack(natural) = shuffle2(shuffle4(shuffle8(.))) on each
 * block, which puts, for block g and e = 0..7,
 *   A lanes 2e, 2e+1 = spec coefficients 32g + 4e + 0, 1 (pair 16g + 2e)
 *   B lanes 2e, 2e+1 = spec coefficients 32g + 4e + 2, 3 (pair 16g + 2e + 1)
 * so every MultiplyNTTs pair (c[2p], c[2p + 1]) sits in one 32-bit lane.
 * ByteEncode_12 / ByteDecode_12 apply the inverse / the shuffles to convert
 * at the byte boundary, NTT^-1 undoes them as it goes.
 */
#ifndef MLKEM_ARCH_AVX2_POLY_AVX2_H
#define MLKEM_ARCH_AVX2_POLY_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#define AVX2_Q 3329
#define AVX2_QINV (-3327)     /* q^-1 mod 2^16 */
#define AVX2_BARRETT_V 20159  /* round(2^26 / q) */

static inline __m256i avx2_load(const int16_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

static inline void avx2_store(int16_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

/* a * z * 2^-16 mod q with zq = z * q^-1 mod 2^16 (mlkem_fqmul_pre). */
static inline __m256i avx2_fqmul(__m256i a, __m256i z, __m256i zq)
{
    const __m256i q = _mm256_set1_epi16(AVX2_Q);
    const __m256i t = _mm256_mullo_epi16(a, zq);
    return _mm256_sub_epi16(_mm256_mulhi_epi16(a, z),
                            _mm256_mulhi_epi16(t, q));
}

/* Centred Barrett reduction (mlkem_barrett_reduce): any int16_t in,
 * |r| <= (q - 1) / 2 out. */
static inline __m256i avx2_barrett(__m256i a)
{
    const __m256i v = _mm256_set1_epi16(AVX2_BARRETT_V);
    const __m256i r = _mm256_set1_epi16(1 << 5);
    const __m256i q = _mm256_set1_epi16(AVX2_Q);
    __m256i t = _mm256_mulhrs_epi16(_mm256_mulhi_epi16(a, v), r);
    return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, q));
}

/* (-q, q) -> [0, q) (mlkem_caddq). */
static inline __m256i avx2_caddq(__m256i a)
{
    const __m256i q = _mm256_set1_epi16(AVX2_Q);
    return _mm256_add_epi16(a, _mm256_and_si256(_mm256_srai_epi16(a, 15), q));
}

/* The block shuffles (see above); each is an involution. */
static inline void avx2_shuffle8(__m256i *a, __m256i *b)
{
    const __m256i x = _mm256_permute2x128_si256(*a, *b, 0x20);
    const __m256i y = _mm256_permute2x128_si256(*a, *b, 0x31);
    *a = x;
    *b = y;
}

static inline void avx2_shuffle4(__m256i *a, __m256i *b)
{
    const __m256i x = _mm256_unpacklo_epi64(*a, *b);
    const __m256i y = _mm256_unpackhi_epi64(*a, *b);
    *a = x;
    *b = y;
}

static inline void avx2_shuffle2(__m256i *a, __m256i *b)
{
    const __m256i x = _mm256_blend_epi32(*a, _mm256_slli_epi64(*b, 32), 0xaa);
    const __m256i y = _mm256_blend_epi32(_mm256_srli_epi64(*a, 32), *b, 0xaa);
    *a = x;
    *b = y;
}

/* Natural order -> set order for one 32-coefficient block, and back. */
static inline void avx2_pack_block(__m256i *a, __m256i *b)
{
    avx2_shuffle8(a, b);
    avx2_shuffle4(a, b);
    avx2_shuffle2(a, b);
}

static inline void avx2_unpack_block(__m256i *a, __m256i *b)
{
    avx2_shuffle2(a, b);
    avx2_shuffle4(a, b);
    avx2_shuffle8(a, b);
}

#endif /* MLKEM_ARCH_AVX2_POLY_AVX2_H */
