/*
 * keccak_test.h: helpers shared by the test/keccak programs.
 *
 *   - a deterministic generator (SplitMix64) for inputs, lengths and chunk
 *     sizes, so every failure reproduces;
 *   - the reference digests: the system libcrypto's EVP SHA3-256, SHA3-512,
 *     SHAKE128 and SHAKE256 (an implementation independent of ours);
 *   - KT_CHECK(), which counts failures in a local `fails` and says where.
 */
#ifndef MLKEM_TEST_KECCAK_TEST_H
#define MLKEM_TEST_KECCAK_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>

#include "test/common/test_util.h"

/* On failure print the condition and the context, and count it in the
 * caller's `int fails`. */
#define KT_CHECK(cond, ...)                                                 \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,          \
                    __LINE__, #cond);                                       \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
            fails++;                                                        \
        }                                                                   \
    } while (0)

/* SplitMix64 (Steele, Lea, Flood 2014): a fixed seed gives fixed tests. */
typedef struct {
    uint64_t x;
} kt_rng;

static inline uint64_t kt_rand(kt_rng *r)
{
    uint64_t z = (r->x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform-enough value in [0, n) for test sizes (n > 0). */
static inline size_t kt_below(kt_rng *r, size_t n)
{
    return (size_t)(kt_rand(r) % n);
}

static inline void kt_fill(kt_rng *r, uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)kt_rand(r);
}

/* The libcrypto digest of in[0..len) into out[0..outlen): outlen must be
 * the digest size for SHA3, any value >= 1 for SHAKE (XOF). Returns 1 on
 * success; 0 (with a message) if libcrypto fails. */
static inline int kt_evp(const EVP_MD *md, const uint8_t *in, size_t len,
                         uint8_t *out, size_t outlen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestInit_ex(c, md, NULL) == 1 &&
             EVP_DigestUpdate(c, in, len) == 1;
    if (ok) {
        if (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF)
            ok = EVP_DigestFinalXOF(c, out, outlen) == 1;
        else
            ok = (size_t)EVP_MD_get_size(md) == outlen &&
                 EVP_DigestFinal_ex(c, out, NULL) == 1;
    }
    EVP_MD_CTX_free(c);
    if (!ok)
        test_fail("libcrypto %s failed (len %zu, outlen %zu)",
                  EVP_MD_get0_name(md), len, outlen);
    return ok;
}

#endif /* MLKEM_TEST_KECCAK_TEST_H */
