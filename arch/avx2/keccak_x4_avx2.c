/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4_avx2.c: the avx2 backend's Keccak: four states in 256-bit
 * registers (arch/keccak_simd.h), and eight as two such groups.
 *
 * Compiled with -mavx2 only (arch/CMakeLists.txt); reached only when
 * arch/dispatch.c has seen AVX2 in CPUID and the YMM state enabled in XCR0.
 * AVX2 has no 64-bit rotate: rol(a, n) = (a << n) | (a >> (64 - n)), except
 * the byte-multiple rotations by 8 and 56, which one vpshufb does (the
 * shuffle control is a constant, the data only moves), and the rotation by
 * one, whose left shift is an add.
 */
#include <immintrin.h>

#include "arch/x86_64.h"

#define KS_N 4
#define KS_V __m256i
#define KS_LOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define KS_STORE(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define KS_XOR(a, b) _mm256_xor_si256((a), (b))
#define KS_XOR5(a, b, c, d, e) KS_XOR(KS_XOR(KS_XOR(a, b), KS_XOR(c, d)), e)
#define KS_ROL(a, n) ks_rol_avx2((a), (n))
#define KS_CHI(a, b, c) _mm256_xor_si256((a), _mm256_andnot_si256((b), (c)))
#define KS_IOTA(a, rc) _mm256_xor_si256((a), _mm256_set1_epi64x((long long)(rc)))
#define KS_FN(name) mlkem_keccak_x4_##name##_avx2_lanes
#define KS_STATE mlkem_keccak_x4
#define KS_API(name) mlkem_keccak_x4_##name##_avx2

static inline __m256i ks_rol_avx2(__m256i a, int n)
{
    /* a + a is a << 1 on a pipe that is not a shift pipe: of this CPU
     * family's four vector ALU pipes only two shift, and theta's five
     * rotations by one are the only ones with a cheaper left half. */
    if (n == 1)
        return _mm256_or_si256(_mm256_add_epi64(a, a), _mm256_srli_epi64(a, 63));
    if (n == 8)
        return _mm256_shuffle_epi8(
            a, _mm256_set_epi8(14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3, 2, 1,
                               0, 7, 14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3,
                               2, 1, 0, 7));
    if (n == 56)
        return _mm256_shuffle_epi8(
            a, _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3,
                               2, 1, 8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5,
                               4, 3, 2, 1));
    return _mm256_or_si256(_mm256_slli_epi64(a, n), _mm256_srli_epi64(a, 64 - n));
}

#include "arch/keccak_simd.h"

/* mlkem_keccak_x4: one interleaved group (the KS_API functions above). */

/* ---- mlkem_keccak_x8: two interleaved groups of four (states 0-3 in s[0..99],
 * 4-7 in s[100..199]) ------------------------------------------------------ */

void mlkem_keccak_x8_xor_bytes_avx2(mlkem_keccak_x8 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len)
{
    mlkem_keccak_x4_xor_bytes_avx2_lanes(st->s + 100 * (lane / 4), lane % 4,
                                         offset, in, len);
}

void mlkem_keccak_x8_extract_bytes_avx2(const mlkem_keccak_x8 *st, unsigned lane,
                                        unsigned offset, uint8_t *out,
                                        size_t len)
{
    mlkem_keccak_x4_extract_bytes_avx2_lanes(st->s + 100 * (lane / 4),
                                             lane % 4, offset, out, len);
}

void mlkem_keccak_x8_clear_lane_avx2(mlkem_keccak_x8 *st, unsigned lane)
{
    mlkem_keccak_x4_clear_lane_avx2_lanes(st->s + 100 * (lane / 4), lane % 4);
}

void mlkem_keccak_x8_permute_avx2(mlkem_keccak_x8 *st)
{
    mlkem_keccak_x4_permute_avx2_lanes(st->s);
    mlkem_keccak_x4_permute_avx2_lanes(st->s + 100);
}
