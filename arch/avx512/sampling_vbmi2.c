/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sampling_vbmi2.c: the avx512-vbmi2 backend's SampleNTT rejection step,
 * 32 candidates per 512-bit register, and its fused form that reads the
 * SHAKE128 blocks straight out of the x4 Keccak state.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 7 (SampleNTT) lines 5-12.
 *   [GRAV]    ctz/graviola pull request 214: SampleNTT with vpermb,
 *             vpsrlvw and vpcompressw on 48-byte groups, fed from the
 *             permutation's registers.
 *
 * Compiled with AVX-512 F, BW, VL, VBMI and VBMI2 (arch/avx512/
 * CMakeLists.txt); reached only when arch/dispatch.c has seen all of them
 * in CPUID and the ZMM state enabled in XCR0.
 *
 * One step: 48 bytes (16 three-byte groups) -> vpermb copies bytes (3i,
 * 3i+1) into 16-bit lane 2i and (3i+1, 3i+2) into lane 2i+1 -> vpsrlvw
 * shifts the odd lanes right by 4 -> AND 0xfff gives the 32 candidates d1,
 * d2 of Algorithm 7 in order -> a compare with q gives the accept mask ->
 * vpcompressw (register form) packs the accepted candidates to the front
 * -> a masked store writes exactly those that still fit (never past
 * r[len], and never a compressing store to memory, which is slow on some
 * CPUs). All of it works on public data (the XOF output of rho): the
 * branches and store positions depend on it freely.
 *
 * Fused form (sample_ntt_x4): the x4 state keeps lane j of state i at
 * s[4 j + i] (arch/keccak_simd.h). Two vpermt2q and a masked move gather
 * eight consecutive lanes of one state from four 512-bit loads, so the 168
 * rate bytes of a state come out as three registers T0, T1, T2 (bytes 0-63,
 * 64-127, 128-167); the four steps of the block then take their 48 bytes
 * from T0, T0:T1, T1:T2 and T2 with vpermb / vpermt2b (the two-register
 * byte permutation), so the block never passes through memory.
 */
#include <immintrin.h>
#include <stdint.h>

#include "arch/x86_64.h"
#include "keccak/keccak.h"

#define Q 3329

/* vpermb / vpermt2b indices: byte 4i + (0, 1, 2, 3) of the result (the
 * two bytes of lanes 2i and 2i + 1) <- bytes o + 3i + (0, 1, 1, 2), for a
 * step whose 48 bytes start at byte o of the table (one register, or two
 * for vpermt2b). */
static inline __m512i spread(int o)
{
    static const uint8_t idx[4][64] = {
#define UP(o, i) (uint8_t)((o) + 3 * (i)), (uint8_t)((o) + 3 * (i) + 1), \
                 (uint8_t)((o) + 3 * (i) + 1), (uint8_t)((o) + 3 * (i) + 2)
#define ROW(o) {UP(o, 0), UP(o, 1), UP(o, 2), UP(o, 3), UP(o, 4), UP(o, 5),   \
                UP(o, 6), UP(o, 7), UP(o, 8), UP(o, 9), UP(o, 10), UP(o, 11), \
                UP(o, 12), UP(o, 13), UP(o, 14), UP(o, 15)}
        ROW(0), ROW(48), ROW(32), ROW(16)
#undef ROW
#undef UP
    };
    const unsigned row = o == 0 ? 0 : o == 48 ? 1 : o == 32 ? 2 : 3;
    return _mm512_loadu_si512((const void *)idx[row]);
}
/* The 32 candidates of the spread bytes v (lane 2i+1 shifted down by 4). */
static inline __m512i candidates(__m512i v)
{
    const __m512i sh = _mm512_set1_epi32(4 << 16);
    return _mm512_and_si512(_mm512_srlv_epi16(v, sh), _mm512_set1_epi16(0x0fff));
}

/* Accept the valid candidates below q, store what fits at r + ctr (at
 * most len in all); returns the new count. */
static inline unsigned accept(__m512i c, __mmask32 valid, int16_t *r,
                              unsigned ctr, unsigned len)
{
    const __mmask32 ok =
        _mm512_mask_cmplt_epu16_mask(valid, c, _mm512_set1_epi16(Q));
    unsigned n = (unsigned)_mm_popcnt_u32((unsigned)ok);
    if (n > len - ctr)
        n = len - ctr;
    _mm512_mask_storeu_epi16(r + ctr, (__mmask32)((1ull << n) - 1),
                             _mm512_maskz_compress_epi16(ok, c));
    return ctr + n;
}

/*
 * Implements FIPS 203, Algorithm 7 (SampleNTT), lines 5-12, on a buffer of
 * XOF output (kem/poly_kernels.h sample_ntt_rej): 48 bytes per step, the
 * last step's load masked to the bytes that remain (a masked load does
 * not touch the others), buflen a multiple of 3.
 */
unsigned mlkem_sample_ntt_rej_vbmi2(int16_t *r, unsigned len,
                                    const uint8_t *buf, size_t buflen)
{
    const __m512i idx = spread(0);
    unsigned ctr = 0;
    size_t pos = 0;

    while (ctr < len && pos < buflen) {
        const size_t left = buflen - pos;
        const unsigned nb = left < 48 ? (unsigned)left : 48;
        const __m512i v = _mm512_maskz_loadu_epi8(
            (__mmask64)((1ull << nb) - 1), (const void *)(buf + pos));
        /* 2 candidates per 3 bytes */
        const __mmask32 valid = (__mmask32)((1ull << (2 * (nb / 3))) - 1);
        ctr = accept(candidates(_mm512_permutexvar_epi8(idx, v)), valid, r,
                     ctr, len);
        pos += nb;
    }
    return ctr;
}

/* Lanes j = 8g .. 8g + 7 of state l from the four registers of words
 * 32g .. 32g + 31 (lane j of state i at word 4 j + i). */
static inline __m512i gather8(const __m512i z[4], const __m512i lo,
                              const __m512i hi)
{
    const __m512i a = _mm512_permutex2var_epi64(z[0], lo, z[1]);
    const __m512i b = _mm512_permutex2var_epi64(z[2], hi, z[3]);
    return _mm512_mask_mov_epi64(a, 0xf0, b);
}

/* sample_ntt_x4 (kem/poly_kernels.h) on the x4 layout shared by the avx2
 * and avx512 Keccak sets (see the file comment). */
void mlkem_sample_ntt_x4_vbmi2(const mlkem_keccak_x4 *st, unsigned lanes,
                               int16_t *const r[4], unsigned ctr[4])
{
    const uint64_t *s = st->s;
    /* words 0 .. 95 (lanes j = 0 .. 23 of the four states; 96 <= 100),
     * read as the 256-bit halves the permutation has just stored (a 512-bit
     * load over two 256-bit stores cannot be forwarded and would wait for
     * both to reach the cache) */
    __m512i z[12];
    for (unsigned m = 0; m < 12; m++)
        z[m] = _mm512_inserti64x4(
            _mm512_castsi256_si512(
                _mm256_load_si256((const __m256i *)(const void *)(s + 8 * m))),
            _mm256_load_si256((const __m256i *)(const void *)(s + 8 * m + 4)),
            1);
    const __m512i i0 = spread(0), i48 = spread(48), i32 = spread(32),
                  i16 = spread(16);

    for (unsigned l = 0; l < 4; l++) {
        if (!((lanes >> l) & 1))
            continue;
        /* permutex2var indices: j, j + 1, j + 2, j + 3 of state l sit at
         * l, 4 + l, 8 + l, 12 + l of the register pair */
        const __m512i lo = _mm512_setr_epi64(l, 4 + l, 8 + l, 12 + l, 0, 0, 0, 0);
        const __m512i hi = _mm512_setr_epi64(0, 0, 0, 0, l, 4 + l, 8 + l, 12 + l);
        const __m512i t0 = gather8(z, lo, hi);
        const __m512i t1 = gather8(z + 4, lo, hi);
        const __m512i t2 = gather8(z + 8, lo, hi);
        int16_t *rl = r[l];
        unsigned c = ctr[l];
        /* bytes 0-47, 48-95, 96-143, 144-167 (16 candidates) */
        c = accept(candidates(_mm512_permutexvar_epi8(i0, t0)), 0xffffffffu,
                   rl, c, 256);
        if (c < 256)
            c = accept(candidates(_mm512_permutex2var_epi8(t0, i48, t1)),
                       0xffffffffu, rl, c, 256);
        if (c < 256)
            c = accept(candidates(_mm512_permutex2var_epi8(t1, i32, t2)),
                       0xffffffffu, rl, c, 256);
        if (c < 256)
            c = accept(candidates(_mm512_permutexvar_epi8(i16, t2)), 0xffffu,
                       rl, c, 256);
        ctr[l] = c;
    }
}
