/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compress_avx2.c: the avx2 backend's ByteEncode_d(Compress_d(.)) and
 * Decompress_d(ByteDecode_d(.)) for d = 1, 4, 5, 10, 11 (the message
 * encoding is d = 1), 16 coefficients per 256-bit register.
 *
 * References
 *   [FIPS203] NIST FIPS 203: §4.2.1, equations (4.7) Compress_d and (4.8)
 *             Decompress_d; Algorithms 5-6 (ByteEncode_d, ByteDecode_d);
 *             Algorithm 14 lines 20-23, Algorithm 15 lines 3-4 and 7.
 *
 * Compiled with -mavx2 (arch/avx2/CMakeLists.txt). Inputs and outputs are
 * in the natural coefficient order (these polynomials are never in the NTT
 * domain). Everything is branch-free in the coefficients and the bytes; the
 * loops and the per-d code paths depend on d only (public).
 *
 * Compress_d(x), x in [0, q), = round(2^d x / q) mod 2^d
 *   d = 4, 5:   ((x * 20159) >> 16 rounded-shifted right by 10 - d), i.e.
 *               vpmulhw by round(2^26 / q) then vpmulhrsw by 2^(d+5). This is
 *               not an identity of real numbers but a fixed-point
 *               approximation; test/arch/test_slots.c checks it against the
 *               portable kernel for every x in (-q, q).
 *   d = 10, 11: too fine for one such product: an estimate from
 *               vpmulhw, corrected by one exact remainder test (see
 *               compress_large).
 *   d = 1:      bit = [833 <= |a| <= 2496] for a in (-q, q): round(2x/q) is
 *               odd exactly for x in [q/4, 3q/4), and x and q - x agree, so
 *               the centred |a| decides; the bits are collected with
 *               vpmovmskb.
 * Decompress_d(y) = round(q y / 2^d), half up (§2.3), = vpmulhrsw(y *
 *   2^(15-d), q): vpmulhrsw computes (a b + 2^14) >> 15 = floor(q y / 2^d +
 *   1/2) exactly.
 *
 * Bit packing of 16 d-bit values (d <= 11) into 2d bytes: vpmaddwd by (1,
 * 2^d) joins pairs into 2d-bit fields of the 32-bit lanes; a left shift of
 * the even lanes by 32 - 2d and a 64-bit right shift by the same join
 * those into 4d-bit fields of the 64-bit lanes; for even d these are whole
 * bytes that vpshufb moves together, for odd d shifting the upper 64-bit
 * lane of each half left by 4d (across the boundary: its low part moves to
 * the lower lane with vpsrldq) joins them into 8d bits; either way d bytes
 * at the bottom of each 128-bit half. Unpacking goes the other way with vpshufb
 * (copying the two or four bytes each value touches into its lane) and a
 * per-lane shift done as a multiplication by a power of two.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "arch/avx2/poly_avx2.h"
#include "arch/x86_64.h"

/* ---- Compress -------------------------------------------------------------- */

/* Compress_d of a in (-q, q) for d = 4 or 5 (16-bit lanes). */
static inline __m256i compress_small(__m256i a, unsigned d)
{
    const __m256i v = _mm256_set1_epi16(AVX2_BARRETT_V);
    const __m256i r = _mm256_set1_epi16((int16_t)(1 << (d + 5)));
    const __m256i mask = _mm256_set1_epi16((int16_t)((1 << d) - 1));
    const __m256i x = avx2_caddq(a);
    return _mm256_and_si256(_mm256_mulhrs_epi16(_mm256_mulhi_epi16(x, v), r),
                            mask);
}

/* Compress_d of a in (-q, q) for d = 10 or 11, in 16-bit lanes: with x
 * canonical and t = 2^d x / q, A = (8x * 20158) >> 16 (20158 =
 * floor(2^26 / q)) satisfies t - 1.4 / 2^(13-d) <= A / 2^(13-d) <= t, so
 * c = (A + 2^(12-d)) >> (13 - d) is round(t) or round(t) - 1; the
 * remainder r = 2^d x - c q (exact in 16 bits modulo 2^16, and in
 * (-q/2, 3q/2)) tells which: c + 1 exactly when r > (q - 1) / 2. */
static inline __m256i compress_large(__m256i a, unsigned d)
{
    const __m256i v = _mm256_set1_epi16(20158);
    const __m256i q = _mm256_set1_epi16(AVX2_Q);
    const __m256i half = _mm256_set1_epi16((AVX2_Q - 1) / 2);
    const __m256i rnd = _mm256_set1_epi16((int16_t)(1 << (12 - d)));
    const __m256i mask = _mm256_set1_epi16((int16_t)((1 << d) - 1));
    const __m256i x = avx2_caddq(a);
    const __m256i t = _mm256_mulhi_epi16(_mm256_slli_epi16(x, 3), v);
    __m256i c = _mm256_srli_epi16(_mm256_add_epi16(t, rnd), 13 - d);
    const __m256i r = _mm256_sub_epi16(_mm256_slli_epi16(x, d),
                                       _mm256_mullo_epi16(c, q));
    c = _mm256_sub_epi16(c, _mm256_cmpgt_epi16(r, half));
    return _mm256_and_si256(c, mask);
}

/* 16 values of d bits (d <= 11, 16-bit lanes) -> d bytes at the bottom of
 * each 128-bit half (see the file comment). For even d the 64-bit fields
 * are whole bytes (d / 2 each) and one vpshufb closes the gap. */
static inline __m256i pack_bits(__m256i t, unsigned d)
{
    const __m256i pair = _mm256_set1_epi32((int)(1u | (1u << (16 + d))));
    const __m256i sh32 = _mm256_setr_epi32((int)(32 - 2 * d), 0, (int)(32 - 2 * d),
                                           0, (int)(32 - 2 * d), 0,
                                           (int)(32 - 2 * d), 0);
    t = _mm256_madd_epi16(t, pair);
    t = _mm256_srli_epi64(_mm256_sllv_epi32(t, sh32), 32 - 2 * d);
    if (d % 2 == 0) {
        /* bytes 0 .. d/2 - 1 of each 64-bit field, then the next field's */
        const __m256i pick = d == 10
            ? _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1,
                               -1, -1, 0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1,
                               -1, -1, -1, -1)
            : _mm256_setr_epi8(0, 1, 8, 9, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                               -1, -1, -1, 0, 1, 8, 9, -1, -1, -1, -1, -1, -1,
                               -1, -1, -1, -1, -1, -1);
        return _mm256_shuffle_epi8(t, pick);
    }
    const __m256i up = _mm256_setr_epi64x(64, (long long)(4 * d), 64,
                                          (long long)(4 * d));
    const __m256i down = _mm256_setr_epi64x(0, (long long)(64 - 4 * d), 0,
                                            (long long)(64 - 4 * d));
    return _mm256_or_si256(_mm256_srlv_epi64(t, down),
                           _mm256_bsrli_epi128(_mm256_sllv_epi64(t, up), 8));
}

/* Store the 2d bytes of pack_bits' result at out: the low half's d bytes,
 * then the high half's. The 16-byte stores overlap what follows, so a group
 * near the end of the output (last set) is written with 8-byte stores that
 * end exactly at its last byte, the second overlapping the first (d = 10,
 * 11: the low half whole, then the high half's bytes 0-7 and d-8..d-1;
 * d = 5: both halves joined in one register, its bytes 0-7 and 2-9). No
 * buffer, so nothing to wipe and no store-to-load forwarding stall. */
static inline void store_bits(uint8_t *out, __m256i t, unsigned d, int last)
{
    const __m128i lo = _mm256_castsi256_si128(t);
    const __m128i hi = _mm256_extracti128_si256(t, 1);
    if (!last) {
        _mm_storeu_si128((__m128i *)(void *)out, lo);
        _mm_storeu_si128((__m128i *)(void *)(out + d), hi);
    } else if (d >= 8) {
        const __m128i tail = d == 10 ? _mm_bsrli_si128(hi, 2)
                                     : _mm_bsrli_si128(hi, 3);
        _mm_storeu_si128((__m128i *)(void *)out, lo);
        _mm_storel_epi64((__m128i *)(void *)(out + d), hi);
        _mm_storel_epi64((__m128i *)(void *)(out + 2 * d - 8), tail);
    } else { /* d = 5 */
        const __m128i low5 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0);
        const __m128i both = _mm_or_si128(_mm_and_si128(lo, low5),
                                          _mm_bslli_si128(hi, 5));
        _mm_storel_epi64((__m128i *)(void *)out, both);
        _mm_storel_epi64((__m128i *)(void *)(out + 2),
                         _mm_bsrli_si128(both, 2));
    }
}

static inline void compress_encode(uint8_t *out, const int16_t a[256],
                                   unsigned d)
{
    for (unsigned i = 0; i < 16; i++) {
        const __m256i x = avx2_load(a + 16 * i);
        const __m256i t = d <= 5 ? compress_small(x, d) : compress_large(x, d);
        /* the second 16-byte store ends at 2 d i + d + 16 */
        store_bits(out + 2 * d * i, pack_bits(t, d), d,
                   2 * d * i + d + 16 > 32 * d);
    }
}

/* d = 4 (ML-KEM-512/768's dv), 64 coefficients -> 32 bytes per step: the
 * 4-bit values are packed to bytes (vpackuswb), neighbours joined into one
 * byte (vpmaddubsw by (1, 16): value 2i in the low nibble), packed again,
 * and vpermd undoes the two packs' interleaving of 128-bit halves. */
static void compress_encode4(uint8_t out[128], const int16_t a[256])
{
    const __m256i join = _mm256_set1_epi16((16 << 8) | 1);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (unsigned i = 0; i < 4; i++) {
        const int16_t *p = a + 64 * i;
        const __m256i t0 = compress_small(avx2_load(p), 4);
        const __m256i t1 = compress_small(avx2_load(p + 16), 4);
        const __m256i t2 = compress_small(avx2_load(p + 32), 4);
        const __m256i t3 = compress_small(avx2_load(p + 48), 4);
        const __m256i b01 = _mm256_maddubs_epi16(_mm256_packus_epi16(t0, t1), join);
        const __m256i b23 = _mm256_maddubs_epi16(_mm256_packus_epi16(t2, t3), join);
        const __m256i b = _mm256_permutevar8x32_epi32(
            _mm256_packus_epi16(b01, b23), order);
        _mm256_storeu_si256((__m256i *)(void *)(out + 32 * i), b);
    }
}

/* Implements FIPS 203, Algorithm 15, line 7: m = ByteEncode_1(Compress_1(
 * a)), |a_i| < q. 32 coefficients -> 4 bytes: the mask words are packed to
 * bytes (vpacksswb, then vpermq undoes its lane interleaving) and their
 * sign bits collected. */
static void encode_message(uint8_t m[32], const int16_t a[256])
{
    const __m256i lo = _mm256_set1_epi16(832);
    const __m256i hi = _mm256_set1_epi16(2497);
    for (unsigned i = 0; i < 8; i++) {
        const __m256i x = _mm256_abs_epi16(avx2_load(a + 32 * i));
        const __m256i y = _mm256_abs_epi16(avx2_load(a + 32 * i + 16));
        const __m256i bx = _mm256_and_si256(_mm256_sub_epi16(lo, x),
                                            _mm256_sub_epi16(x, hi));
        const __m256i by = _mm256_and_si256(_mm256_sub_epi16(lo, y),
                                            _mm256_sub_epi16(y, hi));
        const __m256i b = _mm256_permute4x64_epi64(_mm256_packs_epi16(bx, by),
                                                   0xd8);
        const uint32_t bits = (uint32_t)_mm256_movemask_epi8(b);
        memcpy(m + 4 * i, &bits, 4);
    }
}

/* Implements FIPS 203, Algorithm 14, lines 22-23 and Algorithm 15, line 7
 * (kem/poly_kernels.h byte_encode_compress): |a_i| < q, 32 d bytes out. */
void mlkem_byte_encode_compress_avx2(uint8_t *out, const int16_t a[256],
                                    unsigned d)
{
    switch (d) {
    case 1: encode_message(out, a); break;
    case 4: compress_encode4(out, a); break;
    case 5: compress_encode(out, a, 5); break;
    case 10: compress_encode(out, a, 10); break;
    default: compress_encode(out, a, 11); break;
    }
}

/* ---- Decompress ------------------------------------------------------------ */

/* 16 bytes from in, or for the last group of a polynomial only the n
 * bytes that belong to it (no read past the input). */
static inline __m128i load_bytes(const uint8_t *in, unsigned n, int last)
{
    if (!last)
        return _mm_loadu_si128((const __m128i *)(const void *)in);
    uint8_t buf[16] = {0};
    memcpy(buf, in, n);
    return _mm_loadu_si128((const __m128i *)(const void *)buf);
}

/* round(q y / 2^d) for y placed at bits 15-d .. 14 of each lane. */
static inline __m256i decompress_top(__m256i y)
{
    return _mm256_mulhrs_epi16(y, _mm256_set1_epi16(AVX2_Q));
}

/* d = 4: byte j holds values 2j, 2j + 1. */
static inline __m256i decode4(const uint8_t *in)
{
    const __m256i spread = _mm256_setr_epi8(
        0, -1, 0, -1, 1, -1, 1, -1, 2, -1, 2, -1, 3, -1, 3, -1, 4, -1, 4, -1,
        5, -1, 5, -1, 6, -1, 6, -1, 7, -1, 7, -1);
    const __m256i mask = _mm256_set1_epi32(0x00f0000f);
    const __m256i shift = _mm256_set1_epi32((128 << 16) | 2048);
    const __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)in);
    __m256i v = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(b), spread);
    v = _mm256_mullo_epi16(_mm256_and_si256(v, mask), shift);
    return decompress_top(v);
}

/* d = 5 (10 bytes) and d = 10 (20 bytes): value i at bit d i, inside the
 * 16-bit word of bytes (floor(d i / 8), +1) at bit offset s = d i mod 8;
 * a multiplication by 2^(16 - d - s) or 2^(15 - d - s) moves it to bits
 * 15 - d .. 14 (bits pushed past 15 fall off, the ones below are masked). */
static inline __m256i decode5(const uint8_t *in, int last)
{
    const __m256i spread = _mm256_setr_epi8(
        0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 5, 6, 5, 6, 6, 7, 6,
        7, 7, 8, 8, 9, 8, 9, 9, 10);
    /* s = 0, 5, 2, 7, 4, 1, 6, 3: 2^(10 - s) */
    const __m256i shift = _mm256_setr_epi16(1024, 32, 256, 8, 64, 512, 16, 128,
                                            1024, 32, 256, 8, 64, 512, 16, 128);
    const __m256i mask = _mm256_set1_epi16(0x7c00);
    __m256i v = _mm256_broadcastsi128_si256(load_bytes(in, 10, last));
    v = _mm256_mullo_epi16(_mm256_shuffle_epi8(v, spread), shift);
    return decompress_top(_mm256_and_si256(v, mask));
}

static inline __m256i decode10(const uint8_t *in)
{
    /* low half: bytes 0-9, high half: bytes 10-19 (loaded from byte 4 so
     * that the read ends at byte 19) */
    const __m256i spread = _mm256_setr_epi8(
        0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 6, 7, 7, 8, 8, 9, 9,
        10, 11, 12, 12, 13, 13, 14, 14, 15);
    /* s = 0, 2, 4, 6: 2^(6 - s) to the top, then >> 1 */
    const __m256i shift = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16,
                                            4, 1, 64, 16, 4, 1);
    const __m256i mask = _mm256_set1_epi16(0x7fe0);
    const __m128i b0 = load_bytes(in, 16, 0);
    const __m128i b1 = load_bytes(in + 4, 16, 0);
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(b0), b1, 1);
    v = _mm256_mullo_epi16(_mm256_shuffle_epi8(v, spread), shift);
    return decompress_top(_mm256_and_si256(_mm256_srli_epi16(v, 1), mask));
}

/* d = 11 (22 bytes): a value touches up to three bytes, so each is read
 * as a 32-bit word, shifted right by its offset and masked; the two
 * registers of eight are packed to 16 bits. */
static inline __m256i decode11(const uint8_t *in, int last)
{
    /* values 0-3 from bytes 0-7, values 4-7 from bytes 5-12 (both of the
     * 16 bytes at in); 8-15 likewise from the 16 bytes at in + 11 */
    const __m256i spread = _mm256_setr_epi8(
        0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9,
        8, 9, 10, 11, 9, 10, 11, 12);
    const __m256i shift = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    const __m256i mask = _mm256_set1_epi32(0x7ff);
    const __m256i v0 = _mm256_broadcastsi128_si256(load_bytes(in, 16, 0));
    const __m256i v1 = _mm256_broadcastsi128_si256(load_bytes(in + 11, 11, last));
    const __m256i w0 = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_shuffle_epi8(v0, spread), shift), mask);
    const __m256i w1 = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_shuffle_epi8(v1, spread), shift), mask);
    const __m256i y = _mm256_permute4x64_epi64(_mm256_packus_epi32(w0, w1), 0xd8);
    return decompress_top(_mm256_slli_epi16(y, 4));
}

/* Implements FIPS 203, Algorithm 14, line 20: mu = Decompress_1(
 * ByteDecode_1(m)): bit j of the 16-bit word i of m selects 1665 for
 * coefficient 16 i + j (compare with a one-bit mask per lane). */
static void decode_message(int16_t r[256], const uint8_t m[32])
{
    const __m256i bits = _mm256_setr_epi16(
        1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
        (int16_t)-32768);
    const __m256i half = _mm256_set1_epi16((AVX2_Q + 1) / 2);
    for (unsigned i = 0; i < 16; i++) {
        uint16_t w;
        memcpy(&w, m + 2 * i, 2);
        const __m256i v = _mm256_and_si256(_mm256_set1_epi16((int16_t)w), bits);
        avx2_store(r + 16 * i,
                   _mm256_and_si256(_mm256_cmpeq_epi16(v, bits), half));
    }
}

static inline void decode_decompress(int16_t r[256], const uint8_t *in,
                                     unsigned d)
{
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t *p = in + 2 * d * i;
        const int last = i == 15;
        __m256i v;
        switch (d) {
        case 4: v = decode4(p); break;
        case 5: v = decode5(p, last); break;
        case 10: v = decode10(p); break;
        default: v = decode11(p, last); break;
        }
        avx2_store(r + 16 * i, v);
    }
}

/* Implements FIPS 203, Algorithm 15, lines 3-4 and Algorithm 14, line 20
 * (kem/poly_kernels.h decompress_byte_decode): 32 d bytes in, values in
 * [0, q) out. Reads exactly 32 d bytes. */
void mlkem_decompress_byte_decode_avx2(int16_t r[256], const uint8_t *in,
                                       unsigned d)
{
    switch (d) {
    case 1: decode_message(r, in); break;
    case 4: decode_decompress(r, in, 4); break;
    case 5: decode_decompress(r, in, 5); break;
    case 10: decode_decompress(r, in, 10); break;
    default: decode_decompress(r, in, 11); break;
    }
}
