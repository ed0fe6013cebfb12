/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_compress.c: the portable compression and byte-encoding kernels
 * (kem/compress.c, kem/poly.c) against exact arithmetic. Every other
 * backend's kernels are compared with these by test/arch/test_slots.c.
 *
 *   - Compress_d(x) = round(2^d x / q) mod 2^d for every x in [0, q) and
 *     every d the kernel uses (1, 4, 5, 10, 11), computed with exact
 *     integer (rational) arithmetic: round(a / b) = floor((2a + b) / (2b));
 *   - Decompress_d(y) = round(q y / 2^d) (half up) for every y < 2^d;
 *   - Compress_d(Decompress_d(y)) = y for every y < 2^d (FIPS 203 §4.2.1);
 *   - poly compress / decompress (d = 4, 5, 10, 11) vs a bit-by-bit
 *     ByteEncode_d / ByteDecode_d (Algorithms 5, 6) on random input, with
 *     coefficients given as any representative in (-q, q);
 *   - message encode / decode (d = 1) the same way;
 *   - ByteEncode_12 / ByteDecode_12: round trip, bit-by-bit reference, and
 *     the §7.2 verdict (q - 1 accepted; q and 4095 rejected at every
 *     position).
 */
#include "kem/poly.h"
#include "test/kem/kem_test.h"

#define Q 3329

/* Algorithm 5 (ByteEncode_d) bit by bit: bit j of value i goes to bit
 * i*d + j of the output. */
static void encode_ref(uint8_t *out, const uint16_t *v, unsigned d)
{
    memset(out, 0, 32 * d);
    for (unsigned i = 0; i < 256; i++)
        for (unsigned j = 0; j < d; j++)
            out[(i * d + j) / 8] |= (uint8_t)(((v[i] >> j) & 1) << ((i * d + j) % 8));
}

static void decode_ref(uint16_t *v, const uint8_t *in, unsigned d)
{
    for (unsigned i = 0; i < 256; i++) {
        v[i] = 0;
        for (unsigned j = 0; j < d; j++)
            v[i] |= (uint16_t)(((in[(i * d + j) / 8] >> ((i * d + j) % 8)) & 1) << j);
    }
}

static uint32_t compress_exact(uint32_t x, unsigned d)
{
    uint64_t a = (uint64_t)x << d, b = Q;
    return (uint32_t)(((2 * a + b) / (2 * b)) & ((1u << d) - 1));
}

static uint32_t decompress_exact(uint32_t y, unsigned d)
{
    uint64_t a = (uint64_t)Q * y, b = 1ull << d;
    return (uint32_t)((2 * a + b) / (2 * b));
}

int main(void)
{
    test_rng rng;
    test_rng_init(&rng, "test_compress");

    static const unsigned used[5] = {1, 4, 5, 10, 11};
    for (unsigned t = 0; t < 5; t++) {
        const unsigned d = used[t];
        TEST_CHECK(mlkem_compress_a[d] ==
                  (uint32_t)(((1ull << (19 + d)) * 2 + Q) / (2 * Q)),
              "A_%u = %u is not round(2^(19+d) / q)", d, mlkem_compress_a[d]);
        for (uint32_t x = 0; x < Q; x++)
            TEST_CHECK(mlkem_compress_d((uint16_t)x, d) == compress_exact(x, d),
                  "Compress_%u(%u) = %u, want %u", d, x,
                  mlkem_compress_d((uint16_t)x, d), compress_exact(x, d));
        for (uint32_t y = 0; y < (1u << d); y++) {
            TEST_CHECK(mlkem_decompress_d((uint16_t)y, d) == decompress_exact(y, d),
                  "Decompress_%u(%u)", d, y);
            TEST_CHECK(mlkem_compress_d(mlkem_decompress_d((uint16_t)y, d), d) == y,
                  "Compress_%u(Decompress_%u(%u)) != %u", d, d, y, y);
        }
    }
    TEST_CHECK(mlkem_decompress_d(1, 1) == 1665, "Decompress_1(1) must be 1665");

    /* Polynomial encodings, d = 4, 5, 10, 11. */
    static const unsigned ds[] = {4, 5, 10, 11};
    for (unsigned t = 0; t < 4; t++) {
        const unsigned d = ds[t];
        for (unsigned it = 0; it < 50; it++) {
            int16_t a[256], r[256];
            uint16_t v[256], back[256];
            uint8_t got[32 * 11], want[32 * 11], bytes[32 * 11];
            for (unsigned i = 0; i < 256; i++) {
                uint32_t x = (uint32_t)test_rng_below(&rng, Q);
                v[i] = (uint16_t)compress_exact(x, d);
                /* any representative of x in (-q, q) */
                a[i] = (int16_t)((test_rng_u32(&rng) & 1) && x ? (int32_t)x - Q
                                                            : (int32_t)x);
            }
            mlkem_byte_encode_compress_portable(got, a, d);
            encode_ref(want, v, d);
            TEST_CHECK(memcmp(got, want, 32 * d) == 0, "poly_compress d=%u it %u",
                  d, it);
            /* decode of arbitrary bytes */
            test_rng_bytes(&rng, bytes, 32 * d);
            decode_ref(back, bytes, d);
            mlkem_decompress_byte_decode_portable(r, bytes, d);
            for (unsigned i = 0; i < 256; i++)
                TEST_CHECK(r[i] == (int16_t)decompress_exact(back[i], d),
                      "poly_decompress d=%u it %u coeff %u", d, it, i);
            /* and back: ByteEncode_d(Compress_d(Decompress_d(ByteDecode_d(b))))
             * = b, every bit pattern being valid for d < 12 */
            mlkem_byte_encode_compress_portable(got, r, d);
            TEST_CHECK(memcmp(got, bytes, 32 * d) == 0, "decode/encode d=%u", d);
        }
    }

    /* Messages (d = 1). */
    for (unsigned it = 0; it < 50; it++) {
        uint8_t m[32], m2[32];
        int16_t r[256], w[256];
        test_rng_bytes(&rng, m, 32);
        mlkem_decompress_byte_decode_portable(r, m, 1);
        for (unsigned i = 0; i < 256; i++)
            TEST_CHECK(r[i] == ((m[i / 8] >> (i % 8)) & 1) * 1665, "frommsg %u", i);
        /* tomsg of random (-q, q) values vs Compress_1 */
        for (unsigned i = 0; i < 256; i++)
            w[i] = (int16_t)((int32_t)(uint32_t)test_rng_below(&rng, 2 * Q - 1) - (Q - 1));
        mlkem_byte_encode_compress_portable(m2, w, 1);
        for (unsigned i = 0; i < 256; i++)
            TEST_CHECK(((m2[i / 8] >> (i % 8)) & 1) ==
                      compress_exact((uint32_t)kt_modq(w[i]), 1),
                  "tomsg coeff %u (w = %d)", i, w[i]);
        mlkem_byte_encode_compress_portable(m2, r, 1);
        TEST_CHECK(memcmp(m, m2, 32) == 0, "tomsg(frommsg(m)) != m");
    }

    /* ByteEncode_12 / ByteDecode_12 and the modulus verdict. */
    for (unsigned it = 0; it < 100; it++) {
        int16_t a[256], r[256];
        uint16_t v[256];
        uint8_t got[384], want[384];
        for (unsigned i = 0; i < 256; i++) {
            uint32_t x = it == 0 ? Q - 1 : (uint32_t)test_rng_below(&rng, Q);
            v[i] = (uint16_t)x;
            a[i] = (int16_t)((test_rng_u32(&rng) & 1) && x ? (int32_t)x - Q
                                                        : (int32_t)x);
        }
        mlkem_byte_encode_12_portable(got, a);
        encode_ref(want, v, 12);
        TEST_CHECK(memcmp(got, want, 384) == 0, "tobytes it %u", it);
        TEST_CHECK(mlkem_byte_decode_12_portable(r, got) == 0xffffffffu,
              "frombytes rejected a reduced encoding");
        for (unsigned i = 0; i < 256; i++)
            TEST_CHECK(r[i] == (int16_t)v[i], "frombytes value %u", i);
    }
    for (unsigned pos = 0; pos < 256; pos++) {
        static const uint16_t bad[] = {Q, Q + 1, 4095};
        for (unsigned t = 0; t < 3; t++) {
            uint16_t v[256];
            uint8_t bytes[384];
            int16_t r[256];
            for (unsigned i = 0; i < 256; i++)
                v[i] = (uint16_t)(uint32_t)test_rng_below(&rng, Q);
            v[pos] = bad[t];
            encode_ref(bytes, v, 12);
            TEST_CHECK(mlkem_byte_decode_12_portable(r, bytes) == 0,
                  "frombytes accepted %u at %u", bad[t], pos);
            TEST_CHECK(r[pos] == (int16_t)bad[t], "frombytes raw value");
        }
    }
    return test_finish("test_compress");
}
