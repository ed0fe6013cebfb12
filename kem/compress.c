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
 *   Compress_d(x) = round(2^d x / q) mod 2^d = floor((2^d x + 1664) / q)
 * (q is odd, so 2^d x / q is never a tie; with r = 2^d x mod q the rounding
 * goes up exactly when r >= 1665 = (q+1)/2, i.e. when r + 1664 >= q).
 * The numerator n = 2^d x + 1664 is < 2^23 for d <= 11, and
 *   floor(n / q) = floor(n * M / 2^36),  M = ceil(2^36 / q) = 20,642,679.
 * Proof: M q = 2^36 + e with e = 1655, so n M / 2^36 = n/q + n e / (q 2^36).
 * The fractional part of n/q is at most (q-1)/q, and n e < 2^23 * 1655 <
 * 2^36 makes the added term < 1/q, so the floor does not change.
 * test/kem/test_compress.c checks this for every n < 2^23 and checks each
 * Compress_d against exact rational arithmetic over all of [0, q).
 *
 * Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d), with
 * round-half-up as in §2.3 (a tie occurs for d = 1, y = 1: 1664.5 -> 1665),
 * and is exact with a shift.
 *
 * Everything is branch-free on the coefficients. The bit packers branch only
 * on the bit count, which depends on d alone (public).
 */
#include "kem/poly.h"

#include "kem/reduce.h"

#define MLKEM_COMPRESS_M 20642679u /* ceil(2^36 / q) */

static inline uint32_t div_q_23(uint32_t n) /* floor(n / q) for n < 2^23 */
{
    return (uint32_t)(((uint64_t)n * MLKEM_COMPRESS_M) >> 36);
}

uint16_t mlkem_compress_d(uint16_t x, unsigned d)
{
    return (uint16_t)(div_q_23(((uint32_t)x << d) + 1664u) & ((1u << d) - 1u));
}

uint16_t mlkem_decompress_d(uint16_t y, unsigned d)
{
    return (uint16_t)(((uint32_t)y * MLKEM_Q + (1u << (d - 1))) >> d);
}

/*
 * ByteEncode_d(Compress_d(a)) (Algorithm 5 after eq. 4.7), 8 coefficients
 * (d bytes) per step. always_inline with a constant d lets the compiler
 * resolve every shift and byte boundary at build time.
 */
#if defined(__GNUC__) || defined(__clang__)
#define MLKEM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MLKEM_ALWAYS_INLINE inline
#endif

static MLKEM_ALWAYS_INLINE void compress_encode(uint8_t *out,
                                                const int16_t a[256],
                                                unsigned d)
{
    for (unsigned g = 0; g < 32; g++) {
        uint64_t acc = 0;
        unsigned bits = 0;
        uint8_t *o = out + g * d;
        for (unsigned j = 0; j < 8; j++) {
            uint16_t x = (uint16_t)mlkem_caddq(a[8 * g + j]);
            acc |= (uint64_t)mlkem_compress_d(x, d) << bits;
            bits += d;
            while (bits >= 8) {
                *o++ = (uint8_t)acc;
                acc >>= 8;
                bits -= 8;
            }
        }
    }
}

/* Decompress_d(ByteDecode_d(in)) (Algorithm 6, then eq. 4.8). For d < 12
 * ByteDecode_d is "mod 2^d", so every bit pattern is valid. */
static MLKEM_ALWAYS_INLINE void decode_decompress(int16_t r[256],
                                                  const uint8_t *in,
                                                  unsigned d)
{
    for (unsigned g = 0; g < 32; g++) {
        uint64_t acc = 0;
        unsigned bits = 0;
        const uint8_t *p = in + g * d;
        for (unsigned j = 0; j < 8; j++) {
            while (bits < d) {
                acc |= (uint64_t)*p++ << bits;
                bits += 8;
            }
            uint16_t y = (uint16_t)(acc & ((1u << d) - 1u));
            acc >>= d;
            bits -= d;
            r[8 * g + j] = (int16_t)mlkem_decompress_d(y, d);
        }
    }
}

/* Implements FIPS 203, Algorithm 14, lines 22-23 (one polynomial of c1 with
 * d = du, or c2 with d = dv). Input |a_i| < q. */
void mlkem_poly_compress(uint8_t *out, const int16_t a[256], unsigned d)
{
    switch (d) {
    case 4: compress_encode(out, a, 4); break;
    case 5: compress_encode(out, a, 5); break;
    case 10: compress_encode(out, a, 10); break;
    case 11: compress_encode(out, a, 11); break;
    default: compress_encode(out, a, d); break;
    }
}

/* Implements FIPS 203, Algorithm 15, lines 3-4 (one polynomial of u' with
 * d = du, or v' with d = dv). Output in [0, q). */
void mlkem_poly_decompress(int16_t r[256], const uint8_t *in, unsigned d)
{
    switch (d) {
    case 4: decode_decompress(r, in, 4); break;
    case 5: decode_decompress(r, in, 5); break;
    case 10: decode_decompress(r, in, 10); break;
    case 11: decode_decompress(r, in, 11); break;
    default: decode_decompress(r, in, d); break;
    }
}

/* Implements FIPS 203, Algorithm 14, line 20: mu = Decompress_1(
 * ByteDecode_1(m)). Bit b of m becomes b * 1665 through a mask, with no
 * branch on the (secret) message. */
void mlkem_poly_frommsg(int16_t r[256], const uint8_t m[32])
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
void mlkem_poly_tomsg(uint8_t m[32], const int16_t a[256])
{
    for (unsigned i = 0; i < 32; i++) {
        uint8_t byte = 0;
        for (unsigned j = 0; j < 8; j++) {
            uint16_t x = (uint16_t)mlkem_caddq(a[8 * i + j]);
            byte |= (uint8_t)(mlkem_compress_d(x, 1) << j);
        }
        m[i] = byte;
    }
}
