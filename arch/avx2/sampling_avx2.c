/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sampling_avx2.c: the avx2 backend's SamplePolyCBD (eta = 2, 3) and the
 * rejection step of SampleNTT.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 7 (SampleNTT) lines 5-12, Algorithm
 *             8 (SamplePolyCBD_eta).
 *
 * Compiled with -mavx2 (arch/avx2/CMakeLists.txt).
 *
 * CBD works on secret bytes: bit-sliced additions, shifts and byte
 * shuffles with constant controls, no branch or index on the data (the
 * portable kernel's method, kem/sampling.c, 32 or 24 bytes at a time).
 *
 * The rejection step works on public bytes (the XOF output of rho): 24
 * bytes give 16 candidates in 16-bit lanes, a compare with q gives a mask,
 * and the accepted values of each half are moved to the front with one
 * vpshufb whose control comes from a table indexed by the 8-bit mask
 * (store positions, branches and table indices depend on public data
 * only).
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "arch/avx2/poly_avx2.h"
#include "arch/x86_64.h"
#include "keccak/keccak.h"

/* ---- SamplePolyCBD ------------------------------------------------------- */

/* eta = 2, 32 bytes -> 64 coefficients. Per byte, the two-bit sums
 * (bits 0-1, 2-3, 4-5, 6-7) are a0, b0, a1, b1, and the coefficients
 * a0 - b0, a1 - b1 (kem/sampling.c). Adding 2 to each a before
 * subtracting keeps every nibble in [0, 4] with no borrow; the nibbles are
 * then interleaved into coefficient order and sign-extended. vpermq first
 * puts bytes 0-7 / 8-15 at the bottom of the two halves (and 16-23 /
 * 24-31 above) so that the in-lane unpacks come out in order. */
static void cbd2(int16_t r[256], const uint8_t buf[128])
{
    const __m256i m55 = _mm256_set1_epi8(0x55);
    const __m256i m33 = _mm256_set1_epi8(0x33);
    const __m256i m0f = _mm256_set1_epi8(0x0f);
    const __m256i two2 = _mm256_set1_epi8(0x22);
    const __m256i two = _mm256_set1_epi8(2);
    for (unsigned i = 0; i < 4; i++) {
        __m256i t = _mm256_loadu_si256((const __m256i *)(const void *)(buf + 32 * i));
        t = _mm256_permute4x64_epi64(t, 0xd8);
        const __m256i d = _mm256_add_epi8(
            _mm256_and_si256(t, m55),
            _mm256_and_si256(_mm256_srli_epi16(t, 1), m55));
        const __m256i x = _mm256_and_si256(d, m33);
        const __m256i y = _mm256_and_si256(_mm256_srli_epi16(d, 2), m33);
        const __m256i u = _mm256_sub_epi8(_mm256_add_epi8(x, two2), y);
        const __m256i lo = _mm256_and_si256(u, m0f);
        const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(u, 4), m0f);
        const __m256i e0 = _mm256_sub_epi8(_mm256_unpacklo_epi8(lo, hi), two);
        const __m256i e1 = _mm256_sub_epi8(_mm256_unpackhi_epi8(lo, hi), two);
        int16_t *p = r + 64 * i;
        avx2_store(p, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(e0)));
        avx2_store(p + 16, _mm256_cvtepi8_epi16(_mm256_extracti128_si256(e0, 1)));
        avx2_store(p + 32, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(e1)));
        avx2_store(p + 48, _mm256_cvtepi8_epi16(_mm256_extracti128_si256(e1, 1)));
    }
}

/* eta = 3, 24 bytes -> 32 coefficients: each 3-byte group goes to a 32-bit
 * lane, where the three-bit sums a0, b0, a1, b1, a2, b2, a3, b3 are formed
 * (kem/sampling.c), 3 is added to each a and the b subtracted (fields at
 * bits 0, 6, 12, 18, each in [0, 6]); then every 16-bit output lane takes
 * the two bytes holding its field, a multiplication by 2^(13 - offset)
 * moves the field to bits 13-15 and a shift brings it down. The last 24
 * bytes are read as the last 32 of the buffer (no read past its end). */
static void cbd3(int16_t r[256], const uint8_t buf[192])
{
    const __m256i spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 0, 1, 2, -1, 3,
        4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m256i m249 = _mm256_set1_epi32(0x249249);
    const __m256i m1c7 = _mm256_set1_epi32(0x1c71c7);
    const __m256i three4 = _mm256_set1_epi32(0x0c30c3);
    /* output lane j of group k (4 per group): bytes 4k + (0, 0, 1, 2) and
     * the next, field offsets (0, 6, 4, 2) */
    const __m256i pick = _mm256_setr_epi8(
        0, 1, 0, 1, 1, 2, 2, 3, 4, 5, 4, 5, 5, 6, 6, 7, 8, 9, 8, 9, 9, 10, 10,
        11, 12, 13, 12, 13, 13, 14, 14, 15);
    const __m256i shift = _mm256_setr_epi16(8192, 128, 512, 2048, 8192, 128,
                                            512, 2048, 8192, 128, 512, 2048,
                                            8192, 128, 512, 2048);
    const __m256i three = _mm256_set1_epi16(3);
    for (unsigned i = 0; i < 8; i++) {
        const int last = i == 7;
        const __m256i t0 = _mm256_loadu_si256(
            (const __m256i *)(const void *)(buf + (last ? 160 : 24 * i)));
        const __m256i idx = last ? _mm256_setr_epi32(2, 3, 4, 0, 5, 6, 7, 0)
                                 : _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
        const __m256i t = _mm256_shuffle_epi8(
            _mm256_permutevar8x32_epi32(t0, idx), spread);
        const __m256i d = _mm256_add_epi32(
            _mm256_add_epi32(_mm256_and_si256(t, m249),
                             _mm256_and_si256(_mm256_srli_epi32(t, 1), m249)),
            _mm256_and_si256(_mm256_srli_epi32(t, 2), m249));
        const __m256i x = _mm256_and_si256(d, m1c7);
        const __m256i y = _mm256_and_si256(_mm256_srli_epi32(d, 3), m1c7);
        const __m256i z = _mm256_sub_epi32(_mm256_add_epi32(x, three4), y);
        /* groups 4h .. 4h + 3 (128-bit half h of z) -> 16 coefficients;
         * the lane selector is an immediate, so the halves are spelled out */
        const __m256i z0 = _mm256_permute2x128_si256(z, z, 0x00);
        const __m256i z1 = _mm256_permute2x128_si256(z, z, 0x11);
        __m256i v0 = _mm256_shuffle_epi8(z0, pick);
        __m256i v1 = _mm256_shuffle_epi8(z1, pick);
        v0 = _mm256_srli_epi16(_mm256_mullo_epi16(v0, shift), 13);
        v1 = _mm256_srli_epi16(_mm256_mullo_epi16(v1, shift), 13);
        avx2_store(r + 32 * i, _mm256_sub_epi16(v0, three));
        avx2_store(r + 32 * i + 16, _mm256_sub_epi16(v1, three));
    }
}

/* Implements FIPS 203, Algorithm 8 (SamplePolyCBD_eta) on 64 eta bytes,
 * eta in {2, 3} (kem/poly_kernels.h). Output in [-eta, eta]. */
void mlkem_sample_poly_cbd_avx2(int16_t r[256], const uint8_t *buf,
                                unsigned eta)
{
    if (eta == 2)
        cbd2(r, buf);
    else
        cbd3(r, buf);
}

/* ---- Rejection sampling -------------------------------------------------- */

/* Row m: the positions of the set bits of m, ascending (unused entries 0).
 * test/arch/test_slots.c drives every row (all 256 accept/reject patterns
 * of eight candidates). */
static const uint8_t rej_idx[256][8] = {
    {0,0,0,0,0,0,0,0}, {0,0,0,0,0,0,0,0}, {1,0,0,0,0,0,0,0}, {0,1,0,0,0,0,0,0},
    {2,0,0,0,0,0,0,0}, {0,2,0,0,0,0,0,0}, {1,2,0,0,0,0,0,0}, {0,1,2,0,0,0,0,0},
    {3,0,0,0,0,0,0,0}, {0,3,0,0,0,0,0,0}, {1,3,0,0,0,0,0,0}, {0,1,3,0,0,0,0,0},
    {2,3,0,0,0,0,0,0}, {0,2,3,0,0,0,0,0}, {1,2,3,0,0,0,0,0}, {0,1,2,3,0,0,0,0},
    {4,0,0,0,0,0,0,0}, {0,4,0,0,0,0,0,0}, {1,4,0,0,0,0,0,0}, {0,1,4,0,0,0,0,0},
    {2,4,0,0,0,0,0,0}, {0,2,4,0,0,0,0,0}, {1,2,4,0,0,0,0,0}, {0,1,2,4,0,0,0,0},
    {3,4,0,0,0,0,0,0}, {0,3,4,0,0,0,0,0}, {1,3,4,0,0,0,0,0}, {0,1,3,4,0,0,0,0},
    {2,3,4,0,0,0,0,0}, {0,2,3,4,0,0,0,0}, {1,2,3,4,0,0,0,0}, {0,1,2,3,4,0,0,0},
    {5,0,0,0,0,0,0,0}, {0,5,0,0,0,0,0,0}, {1,5,0,0,0,0,0,0}, {0,1,5,0,0,0,0,0},
    {2,5,0,0,0,0,0,0}, {0,2,5,0,0,0,0,0}, {1,2,5,0,0,0,0,0}, {0,1,2,5,0,0,0,0},
    {3,5,0,0,0,0,0,0}, {0,3,5,0,0,0,0,0}, {1,3,5,0,0,0,0,0}, {0,1,3,5,0,0,0,0},
    {2,3,5,0,0,0,0,0}, {0,2,3,5,0,0,0,0}, {1,2,3,5,0,0,0,0}, {0,1,2,3,5,0,0,0},
    {4,5,0,0,0,0,0,0}, {0,4,5,0,0,0,0,0}, {1,4,5,0,0,0,0,0}, {0,1,4,5,0,0,0,0},
    {2,4,5,0,0,0,0,0}, {0,2,4,5,0,0,0,0}, {1,2,4,5,0,0,0,0}, {0,1,2,4,5,0,0,0},
    {3,4,5,0,0,0,0,0}, {0,3,4,5,0,0,0,0}, {1,3,4,5,0,0,0,0}, {0,1,3,4,5,0,0,0},
    {2,3,4,5,0,0,0,0}, {0,2,3,4,5,0,0,0}, {1,2,3,4,5,0,0,0}, {0,1,2,3,4,5,0,0},
    {6,0,0,0,0,0,0,0}, {0,6,0,0,0,0,0,0}, {1,6,0,0,0,0,0,0}, {0,1,6,0,0,0,0,0},
    {2,6,0,0,0,0,0,0}, {0,2,6,0,0,0,0,0}, {1,2,6,0,0,0,0,0}, {0,1,2,6,0,0,0,0},
    {3,6,0,0,0,0,0,0}, {0,3,6,0,0,0,0,0}, {1,3,6,0,0,0,0,0}, {0,1,3,6,0,0,0,0},
    {2,3,6,0,0,0,0,0}, {0,2,3,6,0,0,0,0}, {1,2,3,6,0,0,0,0}, {0,1,2,3,6,0,0,0},
    {4,6,0,0,0,0,0,0}, {0,4,6,0,0,0,0,0}, {1,4,6,0,0,0,0,0}, {0,1,4,6,0,0,0,0},
    {2,4,6,0,0,0,0,0}, {0,2,4,6,0,0,0,0}, {1,2,4,6,0,0,0,0}, {0,1,2,4,6,0,0,0},
    {3,4,6,0,0,0,0,0}, {0,3,4,6,0,0,0,0}, {1,3,4,6,0,0,0,0}, {0,1,3,4,6,0,0,0},
    {2,3,4,6,0,0,0,0}, {0,2,3,4,6,0,0,0}, {1,2,3,4,6,0,0,0}, {0,1,2,3,4,6,0,0},
    {5,6,0,0,0,0,0,0}, {0,5,6,0,0,0,0,0}, {1,5,6,0,0,0,0,0}, {0,1,5,6,0,0,0,0},
    {2,5,6,0,0,0,0,0}, {0,2,5,6,0,0,0,0}, {1,2,5,6,0,0,0,0}, {0,1,2,5,6,0,0,0},
    {3,5,6,0,0,0,0,0}, {0,3,5,6,0,0,0,0}, {1,3,5,6,0,0,0,0}, {0,1,3,5,6,0,0,0},
    {2,3,5,6,0,0,0,0}, {0,2,3,5,6,0,0,0}, {1,2,3,5,6,0,0,0}, {0,1,2,3,5,6,0,0},
    {4,5,6,0,0,0,0,0}, {0,4,5,6,0,0,0,0}, {1,4,5,6,0,0,0,0}, {0,1,4,5,6,0,0,0},
    {2,4,5,6,0,0,0,0}, {0,2,4,5,6,0,0,0}, {1,2,4,5,6,0,0,0}, {0,1,2,4,5,6,0,0},
    {3,4,5,6,0,0,0,0}, {0,3,4,5,6,0,0,0}, {1,3,4,5,6,0,0,0}, {0,1,3,4,5,6,0,0},
    {2,3,4,5,6,0,0,0}, {0,2,3,4,5,6,0,0}, {1,2,3,4,5,6,0,0}, {0,1,2,3,4,5,6,0},
    {7,0,0,0,0,0,0,0}, {0,7,0,0,0,0,0,0}, {1,7,0,0,0,0,0,0}, {0,1,7,0,0,0,0,0},
    {2,7,0,0,0,0,0,0}, {0,2,7,0,0,0,0,0}, {1,2,7,0,0,0,0,0}, {0,1,2,7,0,0,0,0},
    {3,7,0,0,0,0,0,0}, {0,3,7,0,0,0,0,0}, {1,3,7,0,0,0,0,0}, {0,1,3,7,0,0,0,0},
    {2,3,7,0,0,0,0,0}, {0,2,3,7,0,0,0,0}, {1,2,3,7,0,0,0,0}, {0,1,2,3,7,0,0,0},
    {4,7,0,0,0,0,0,0}, {0,4,7,0,0,0,0,0}, {1,4,7,0,0,0,0,0}, {0,1,4,7,0,0,0,0},
    {2,4,7,0,0,0,0,0}, {0,2,4,7,0,0,0,0}, {1,2,4,7,0,0,0,0}, {0,1,2,4,7,0,0,0},
    {3,4,7,0,0,0,0,0}, {0,3,4,7,0,0,0,0}, {1,3,4,7,0,0,0,0}, {0,1,3,4,7,0,0,0},
    {2,3,4,7,0,0,0,0}, {0,2,3,4,7,0,0,0}, {1,2,3,4,7,0,0,0}, {0,1,2,3,4,7,0,0},
    {5,7,0,0,0,0,0,0}, {0,5,7,0,0,0,0,0}, {1,5,7,0,0,0,0,0}, {0,1,5,7,0,0,0,0},
    {2,5,7,0,0,0,0,0}, {0,2,5,7,0,0,0,0}, {1,2,5,7,0,0,0,0}, {0,1,2,5,7,0,0,0},
    {3,5,7,0,0,0,0,0}, {0,3,5,7,0,0,0,0}, {1,3,5,7,0,0,0,0}, {0,1,3,5,7,0,0,0},
    {2,3,5,7,0,0,0,0}, {0,2,3,5,7,0,0,0}, {1,2,3,5,7,0,0,0}, {0,1,2,3,5,7,0,0},
    {4,5,7,0,0,0,0,0}, {0,4,5,7,0,0,0,0}, {1,4,5,7,0,0,0,0}, {0,1,4,5,7,0,0,0},
    {2,4,5,7,0,0,0,0}, {0,2,4,5,7,0,0,0}, {1,2,4,5,7,0,0,0}, {0,1,2,4,5,7,0,0},
    {3,4,5,7,0,0,0,0}, {0,3,4,5,7,0,0,0}, {1,3,4,5,7,0,0,0}, {0,1,3,4,5,7,0,0},
    {2,3,4,5,7,0,0,0}, {0,2,3,4,5,7,0,0}, {1,2,3,4,5,7,0,0}, {0,1,2,3,4,5,7,0},
    {6,7,0,0,0,0,0,0}, {0,6,7,0,0,0,0,0}, {1,6,7,0,0,0,0,0}, {0,1,6,7,0,0,0,0},
    {2,6,7,0,0,0,0,0}, {0,2,6,7,0,0,0,0}, {1,2,6,7,0,0,0,0}, {0,1,2,6,7,0,0,0},
    {3,6,7,0,0,0,0,0}, {0,3,6,7,0,0,0,0}, {1,3,6,7,0,0,0,0}, {0,1,3,6,7,0,0,0},
    {2,3,6,7,0,0,0,0}, {0,2,3,6,7,0,0,0}, {1,2,3,6,7,0,0,0}, {0,1,2,3,6,7,0,0},
    {4,6,7,0,0,0,0,0}, {0,4,6,7,0,0,0,0}, {1,4,6,7,0,0,0,0}, {0,1,4,6,7,0,0,0},
    {2,4,6,7,0,0,0,0}, {0,2,4,6,7,0,0,0}, {1,2,4,6,7,0,0,0}, {0,1,2,4,6,7,0,0},
    {3,4,6,7,0,0,0,0}, {0,3,4,6,7,0,0,0}, {1,3,4,6,7,0,0,0}, {0,1,3,4,6,7,0,0},
    {2,3,4,6,7,0,0,0}, {0,2,3,4,6,7,0,0}, {1,2,3,4,6,7,0,0}, {0,1,2,3,4,6,7,0},
    {5,6,7,0,0,0,0,0}, {0,5,6,7,0,0,0,0}, {1,5,6,7,0,0,0,0}, {0,1,5,6,7,0,0,0},
    {2,5,6,7,0,0,0,0}, {0,2,5,6,7,0,0,0}, {1,2,5,6,7,0,0,0}, {0,1,2,5,6,7,0,0},
    {3,5,6,7,0,0,0,0}, {0,3,5,6,7,0,0,0}, {1,3,5,6,7,0,0,0}, {0,1,3,5,6,7,0,0},
    {2,3,5,6,7,0,0,0}, {0,2,3,5,6,7,0,0}, {1,2,3,5,6,7,0,0}, {0,1,2,3,5,6,7,0},
    {4,5,6,7,0,0,0,0}, {0,4,5,6,7,0,0,0}, {1,4,5,6,7,0,0,0}, {0,1,4,5,6,7,0,0},
    {2,4,5,6,7,0,0,0}, {0,2,4,5,6,7,0,0}, {1,2,4,5,6,7,0,0}, {0,1,2,4,5,6,7,0},
    {3,4,5,6,7,0,0,0}, {0,3,4,5,6,7,0,0}, {1,3,4,5,6,7,0,0}, {0,1,3,4,5,6,7,0},
    {2,3,4,5,6,7,0,0}, {0,2,3,4,5,6,7,0}, {1,2,3,4,5,6,7,0}, {0,1,2,3,4,5,6,7},
};

/* The vpshufb control that moves the 16-bit lanes listed in row m to the
 * front: bytes (2 i, 2 i + 1) for each index i. */
static inline __m128i rej_control(unsigned m)
{
    const __m128i idx = _mm_loadl_epi64((const __m128i *)(const void *)rej_idx[m]);
    const __m128i i2 = _mm_add_epi8(idx, idx);
    return _mm_unpacklo_epi8(i2, _mm_add_epi8(i2, _mm_set1_epi8(1)));
}

/*
 * Implements FIPS 203, Algorithm 7 (SampleNTT), lines 5-12, on a buffer of
 * XOF output (kem/poly_kernels.h sample_ntt_rej): accepted values in spec
 * order at r[0..], at most len; nothing written at r[len..]. Each step
 * takes 24 bytes (16 candidates) and stores the accepted ones of each
 * half with one 16-byte store; a step whose 32-byte load would pass the end
 * of buf loads the 32 bytes that end where its 24 do (or, for a 24-byte
 * buffer, a copy), and one that could store past r[len] stores into a
 * scratch buffer and copies what fits. Lengths that are not a multiple of
 * 24 leave up to 7 candidate pairs to the portable loop.
 */
unsigned mlkem_sample_ntt_rej_avx2(int16_t *r, unsigned len,
                                   const uint8_t *buf, size_t buflen)
{
    /* lane 2i <- bytes (3i, 3i+1), lane 2i+1 <- (3i+1, 3i+2); the high
     * half reads bytes 12-23 from its copy of bytes 8-23 */
    const __m256i spread = _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5, 5, 6, 7, 8, 8,
        9, 10, 11, 11, 12, 13, 14, 14, 15);
    const __m256i m12 = _mm256_set1_epi16(0x0fff);
    const __m256i q = _mm256_set1_epi16(AVX2_Q);
    unsigned ctr = 0;
    size_t pos = 0;

    while (ctr < len && pos + 24 <= buflen) {
        __m256i v;
        if (pos + 32 <= buflen) {
            v = _mm256_loadu_si256((const __m256i *)(const void *)(buf + pos));
            v = _mm256_permute4x64_epi64(v, 0x94); /* qwords 0, 1, 1, 2 */
        } else if (pos >= 8) { /* the 32 bytes ending at pos + 24 */
            v = _mm256_loadu_si256((const __m256i *)(const void *)(buf + pos - 8));
            v = _mm256_permute4x64_epi64(v, 0xe9); /* qwords 1, 2, 2, 3 */
        } else {
            uint8_t t[32] = {0};
            memcpy(t, buf + pos, 24);
            v = _mm256_loadu_si256((const __m256i *)(const void *)t);
            v = _mm256_permute4x64_epi64(v, 0x94);
        }
        v = _mm256_shuffle_epi8(v, spread);
        v = _mm256_blend_epi16(_mm256_and_si256(v, m12), _mm256_srli_epi16(v, 4),
                               0xaa);
        const __m256i good = _mm256_cmpgt_epi16(q, v);
        const unsigned m = (unsigned)_mm256_movemask_epi8(
            _mm256_packs_epi16(good, good));
        const unsigned m0 = m & 0xff, m1 = (m >> 16) & 0xff;
        const __m128i lo = _mm_shuffle_epi8(_mm256_castsi256_si128(v),
                                            rej_control(m0));
        const __m128i hi = _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1),
                                            rej_control(m1));
        const unsigned n0 = (unsigned)__builtin_popcount(m0);
        const unsigned n1 = (unsigned)__builtin_popcount(m1);
        pos += 24;
        if (ctr + 16 <= len) {
            _mm_storeu_si128((__m128i *)(void *)(r + ctr), lo);
            _mm_storeu_si128((__m128i *)(void *)(r + ctr + n0), hi);
            ctr += n0 + n1;
        } else {
            int16_t t[24];
            unsigned n = n0 + n1;
            _mm_storeu_si128((__m128i *)(void *)t, lo);
            _mm_storeu_si128((__m128i *)(void *)(t + n0), hi);
            if (n > len - ctr)
                n = len - ctr;
            memcpy(r + ctr, t, n * sizeof(int16_t));
            ctr += n;
        }
    }
    return ctr + mlkem_sample_ntt_rej_portable(r + ctr, len - ctr, buf + pos,
                                               buflen - pos);
}

/*
 * sample_ntt_x4 (kem/poly_kernels.h) on the avx2 x4 layout (lane j of
 * state i at s[4 j + i], arch/keccak_simd.h): the 21 rate lanes of the four
 * states are transposed four at a time (4 x 4 blocks of 64-bit words:
 * vpunpck{l,h}qdq, vperm2i128) into one 168-byte buffer per listed
 * state, then each listed state's block goes through the rejection step
 * above. The transposition reads the state once instead of once per state.
 * Only the listed states are stored: the others may hold secret streams
 * (PRF, G, J beside the public SampleNTT ones), and a copy of them here
 * would stay on the stack (test/hardening/stack_secrets.c found PRF output
 * there when it did).
 */
void mlkem_sample_ntt_x4_avx2(const mlkem_keccak_x4 *st, unsigned lanes,
                              int16_t *const r[4], unsigned ctr[4])
{
    uint64_t buf[4][24];
    const __m256i *v = (const __m256i *)(const void *)st->s;

    for (unsigned b = 0; b < 5; b++) {
        const __m256i v0 = _mm256_load_si256(v + 4 * b);
        const __m256i v1 = _mm256_load_si256(v + 4 * b + 1);
        const __m256i v2 = _mm256_load_si256(v + 4 * b + 2);
        const __m256i v3 = _mm256_load_si256(v + 4 * b + 3);
        const __m256i t0 = _mm256_unpacklo_epi64(v0, v1);
        const __m256i t1 = _mm256_unpackhi_epi64(v0, v1);
        const __m256i t2 = _mm256_unpacklo_epi64(v2, v3);
        const __m256i t3 = _mm256_unpackhi_epi64(v2, v3);
        /* lanes is public (which lanes run SampleNTT streams) */
        if (lanes & 1)
            _mm256_storeu_si256((__m256i *)(void *)(buf[0] + 4 * b),
                                _mm256_permute2x128_si256(t0, t2, 0x20));
        if (lanes & 2)
            _mm256_storeu_si256((__m256i *)(void *)(buf[1] + 4 * b),
                                _mm256_permute2x128_si256(t1, t3, 0x20));
        if (lanes & 4)
            _mm256_storeu_si256((__m256i *)(void *)(buf[2] + 4 * b),
                                _mm256_permute2x128_si256(t0, t2, 0x31));
        if (lanes & 8)
            _mm256_storeu_si256((__m256i *)(void *)(buf[3] + 4 * b),
                                _mm256_permute2x128_si256(t1, t3, 0x31));
    }
    for (unsigned l = 0; l < 4; l++) {
        if (!((lanes >> l) & 1))
            continue;
        buf[l][20] = st->s[80 + l];
        ctr[l] += mlkem_sample_ntt_rej_avx2(r[l] + ctr[l], 256 - ctr[l],
                                            (const uint8_t *)buf[l], 168);
    }
}
