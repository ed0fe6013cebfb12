/*
 * kem_test.h: small helpers for the kem/ unit tests.
 *
 *   CHECK(cond, fmt, ...)  count and report a failure (does not stop).
 *   kt_rng_*               a deterministic byte stream (SHAKE128 of a label
 *                          through test/common's independent SHAKE), so
 *                          every run sees the same "random" inputs.
 *   kt_modq                the canonical representative in [0, q).
 */
#ifndef MLKEM_TEST_KEM_TEST_H
#define MLKEM_TEST_KEM_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test/common/test_shake.h"
#include "test/common/test_util.h"

static int kt_failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            if (kt_failures < 50) {                                            \
                fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                \
                test_fail(__VA_ARGS__);                                        \
            }                                                                  \
            kt_failures++;                                                     \
        }                                                                      \
    } while (0)

typedef struct {
    test_shake x;
} kt_rng;

static inline void kt_rng_init(kt_rng *r, const char *label)
{
    test_shake128_init(&r->x);
    test_shake_absorb(&r->x, (const uint8_t *)label, strlen(label));
}

static inline void kt_rng_bytes(kt_rng *r, uint8_t *out, size_t len)
{
    test_shake_squeeze(&r->x, out, len);
}

static inline uint32_t kt_rng_u32(kt_rng *r)
{
    uint8_t b[4];
    kt_rng_bytes(r, b, 4);
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
           ((uint32_t)b[3] << 24);
}

/* Uniform in [0, n) (n small; the bias of a 32-bit modulo is negligible
 * for test inputs). */
static inline uint32_t kt_rng_below(kt_rng *r, uint32_t n)
{
    return kt_rng_u32(r) % n;
}

static inline int32_t kt_modq(int64_t a)
{
    int64_t r = a % 3329;
    return (int32_t)(r < 0 ? r + 3329 : r);
}

/* FIPS 203 Algorithm 7 (SampleNTT) on SHAKE128(rho || b0 || b1), 3 bytes
 * at a time, on the independent SHAKE; returns the XOF bytes consumed. */
static inline unsigned kt_sample_ntt_ref(int16_t a[256], const uint8_t rho[32],
                                         uint8_t b0, uint8_t b1)
{
    test_shake x;
    uint8_t seed[34], c[3];
    unsigned j = 0, used = 0;
    memcpy(seed, rho, 32);
    seed[32] = b0;
    seed[33] = b1;
    test_shake128_init(&x);
    test_shake_absorb(&x, seed, 34);
    while (j < 256) {
        test_shake_squeeze(&x, c, 3);
        used += 3;
        unsigned d1 = c[0] + 256u * (c[1] % 16);
        unsigned d2 = c[1] / 16 + 16u * c[2];
        if (d1 < 3329)
            a[j++] = (int16_t)d1;
        if (d2 < 3329 && j < 256)
            a[j++] = (int16_t)d2;
    }
    return used;
}

static inline int kt_finish(const char *name)
{
    if (kt_failures) {
        fprintf(stderr, "%s: %d failure%s\n", name, kt_failures,
                kt_failures == 1 ? "" : "s");
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif /* MLKEM_TEST_KEM_TEST_H */
