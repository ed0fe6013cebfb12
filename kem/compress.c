/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compress.c: Compress_d / Decompress_d and the compressed encodings of
 * ciphertext polynomials and messages.
 *
 * References
 *   [FIPS203] NIST FIPS 203: §4.2.1, equations (4.7) Compress_d and (4.8)
 *             Decompress_d; Algorithms 5-6 (ByteEncode_d, ByteDecode_d);
 *             Algorithm 14 lines 20-23 and Algorithm 15 lines 3-4, 7.
 *
 * Division-free compression. For x in [0, q),
 *   Compress_d(x) = round(2^d x / q) mod 2^d
 * (q is odd, so 2^d x / q is never a tie). It is computed as
 *   ((x * A_d + B) >> 19) mod 2^d,  A_d = round(2^(19+d) / q),
 *                                   B = round(1664 * 2^19 / q) = 262,065,
 * i.e. 2^d x / q + 1664 / q in fixed point with 19 fractional bits, whose
 * floor is floor((2^d x + 1664) / q) = round(2^d x / q) (with r = 2^d x
 * mod q the rounding goes up exactly when r >= 1665 = (q+1)/2). The fixed
 * point error stays small enough for every x in [0, q) when d is 1, 2, 3,
 * 4, 5, 7, 10 or 11 (not for 6, 8, 9): x ranges over only 3,329 values, so
 * this is proven by exhaustion, in test/kem/test_compress.c, against exact
 * rational arithmetic for the five d the kernel uses (1, 4, 5, 10, 11).
 * All products stay below 2^31 (x * A_11 + B < 1.08e9), so the arithmetic
 * is 32-bit and vectorizes.
 *
 * Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d), with
 * round-half-up as in §2.3 (a tie occurs for d = 1, y = 1: 1664.5 -> 1665),
 * and is exact with a shift.
 *
 * Everything is branch-free on the coefficients. The bit packers branch only
 * on the bit count, which depends on d alone (public).
 */
#include "kem/poly.h"

#include "common/compiler.h"
#include "common/ct.h"
#include "kem/reduce.h"

#define MLKEM_COMPRESS_SHIFT 19
#define MLKEM_COMPRESS_B 262065u /* round(1664 * 2^19 / q) */

/* A_d = round(2^(19+d) / q) for the d where the formula is exact (0 marks
 * the others); test/kem/test_compress.c recomputes the used entries. */
const uint32_t mlkem_compress_a[12] = {0,    315,  630, 1260,   2520,   5040,
                                       0,  20159,    0,    0, 161271, 322542};

/* Compress_d for d in {1, 4, 5, 10, 11} (see above). With a constant d the
 * table entry is a compile-time constant. */
static inline uint16_t compress_d(uint16_t x, unsigned d)
{
    return (uint16_t)(((x * mlkem_compress_a[d] + MLKEM_COMPRESS_B) >>
                       MLKEM_COMPRESS_SHIFT) &
                      ((1u << d) - 1u));
}

uint16_t mlkem_compress_d(uint16_t x, unsigned d)
{
    return compress_d(x, d);
}

static inline uint16_t decompress_d(uint16_t y, unsigned d)
{
    return (uint16_t)(((uint32_t)y * MLKEM_Q + (1u << (d - 1))) >> d);
}

uint16_t mlkem_decompress_d(uint16_t y, unsigned d)
{
    return decompress_d(y, d);
}

/*
 * ByteEncode_d (Algorithm 5) of 256 values below 2^d: value i occupies bits
 * d*i .. d*i + d - 1 of the output, least significant bit first. Groups of
 * n values that fill whole bytes within 64 bits (n = 8 for d <= 8, n = 4 for
 * d = 10) are assembled in one word; d = 11 streams through an accumulator.
 * always_inline with a constant d lets the compiler resolve every shift.
 */
static MLKEM_ALWAYS_INLINE void byte_encode(uint8_t *out, const uint16_t t[256],
                                            unsigned d)
{
    const unsigned n = d <= 8 ? 8 : d == 10 ? 4 : 0;
    if (n != 0) {
        const unsigned nb = n * d / 8;
        for (unsigned g = 0; g < 256 / n; g++) {
            uint64_t v = 0;
            for (unsigned j = 0; j < n; j++)
                v |= (uint64_t)t[n * g + j] << (d * j);
            for (unsigned b = 0; b < nb; b++)
                out[nb * g + b] = (uint8_t)(v >> (8 * b));
        }
        return;
    }
    for (unsigned g = 0; g < 32; g++) {
        uint64_t acc = 0;
        unsigned bits = 0;
        uint8_t *o = out + g * d;
        for (unsigned j = 0; j < 8; j++) {
            acc |= (uint64_t)t[8 * g + j] << bits;
            bits += d;
            while (bits >= 8) {
                *o++ = (uint8_t)acc;
                acc >>= 8;
                bits -= 8;
            }
        }
    }
}

/* ByteDecode_d (Algorithm 6) for d < 12 ("mod 2^d": every bit pattern is
 * valid), the inverse of byte_encode, with the same grouping. */
static MLKEM_ALWAYS_INLINE void byte_decode(uint16_t t[256], const uint8_t *in,
                                            unsigned d)
{
    const unsigned n = d <= 8 ? 8 : d == 10 ? 4 : 0;
    const uint32_t mask = (1u << d) - 1u;
    if (n != 0) {
        const unsigned nb = n * d / 8;
        for (unsigned g = 0; g < 256 / n; g++) {
            uint64_t v = 0;
            for (unsigned b = 0; b < nb; b++)
                v |= (uint64_t)in[nb * g + b] << (8 * b);
            for (unsigned j = 0; j < n; j++)
                t[n * g + j] = (uint16_t)((v >> (d * j)) & mask);
        }
        return;
    }
    for (unsigned g = 0; g < 32; g++) {
        uint64_t acc = 0;
        unsigned bits = 0;
        const uint8_t *p = in + g * d;
        for (unsigned j = 0; j < 8; j++) {
            while (bits < d) {
                acc |= (uint64_t)*p++ << bits;
                bits += 8;
            }
            t[8 * g + j] = (uint16_t)(acc & mask);
            acc >>= d;
            bits -= d;
        }
    }
}

/* ByteEncode_d(Compress_d(a)): Compress_d of every coefficient
 * (vectorizable), then the packing. Input |a_i| < q. In decapsulation the
 * output is the re-encryption c', which for a rejected ciphertext carries
 * information about m', so the buffer is wiped. */
static MLKEM_ALWAYS_INLINE void compress_encode(uint8_t *out,
                                                const int16_t a[256],
                                                unsigned d)
{
    uint16_t t[256];
    for (unsigned i = 0; i < 256; i++)
        t[i] = compress_d((uint16_t)mlkem_caddq(a[i]), d);
    byte_encode(out, t, d);
    mlkem_cleanse(t, sizeof(t));
}

/* Decompress_d(ByteDecode_d(in)). */
static MLKEM_ALWAYS_INLINE void decode_decompress(int16_t r[256],
                                                  const uint8_t *in,
                                                  unsigned d)
{
    uint16_t t[256];
    byte_decode(t, in, d);
    for (unsigned i = 0; i < 256; i++)
        r[i] = (int16_t)decompress_d(t[i], d);
}

/* Implements FIPS 203, Algorithm 14, line 20: mu = Decompress_1(
 * ByteDecode_1(m)). Bit b of m becomes b * 1665 through a mask, with no
 * branch on the (secret) message. */
static void decode_message(int16_t r[256], const uint8_t m[32])
{
    for (unsigned i = 0; i < 32; i++) {
        for (unsigned j = 0; j < 8; j++) {
            int16_t mask = (int16_t)-(int16_t)((m[i] >> j) & 1);
            r[8 * i + j] = (int16_t)(mask & ((MLKEM_Q + 1) / 2));
        }
    }
}

/* Implements FIPS 203, Algorithm 15, line 7: m = ByteEncode_1(Compress_1(w)).
 * Input |a_i| < q; the secret bits are computed arithmetically. */
static void encode_message(uint8_t m[32], const int16_t a[256])
{
    for (unsigned i = 0; i < 32; i++) {
        uint8_t byte = 0;
        for (unsigned j = 0; j < 8; j++) {
            uint16_t x = (uint16_t)mlkem_caddq(a[8 * i + j]);
            byte |= (uint8_t)(compress_d(x, 1) << j);
        }
        m[i] = byte;
    }
}

/* Implements FIPS 203, Algorithm 14, lines 22-23 (one polynomial of c1 with
 * d = du, or c2 with d = dv) and Algorithm 15, line 7 (d = 1). Input
 * |a_i| < q. */
void mlkem_byte_encode_compress_portable(uint8_t *out, const int16_t a[256],
                                         unsigned d)
{
    switch (d) {
    case 1: encode_message(out, a); break;
    case 4: compress_encode(out, a, 4); break;
    case 5: compress_encode(out, a, 5); break;
    case 10: compress_encode(out, a, 10); break;
    case 11: compress_encode(out, a, 11); break;
    default: compress_encode(out, a, d); break;
    }
}

/* Implements FIPS 203, Algorithm 15, lines 3-4 (one polynomial of u' with
 * d = du, or v' with d = dv) and Algorithm 14, line 20 (d = 1). Output in
 * [0, q). */
void mlkem_decompress_byte_decode_portable(int16_t r[256], const uint8_t *in,
                                           unsigned d)
{
    switch (d) {
    case 1: decode_message(r, in); break;
    case 4: decode_decompress(r, in, 4); break;
    case 5: decode_decompress(r, in, 5); break;
    case 10: decode_decompress(r, in, 10); break;
    case 11: decode_decompress(r, in, 11); break;
    default: decode_decompress(r, in, d); break;
    }
}
