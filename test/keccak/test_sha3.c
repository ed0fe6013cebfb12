/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sha3.c: SHA3-256, SHA3-512, SHAKE128, SHAKE256 (keccak/sha3.c)
 * against the system libcrypto, under every backend.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §4 (Algorithm 8, SPONGE), §5.1 (pad10*1), §6.
 *
 * Covered:
 *   - every input length 0 .. 3 * rate + 2 (each block boundary and the
 *     padding cases pos = rate - 1, where the suffix and the final 0x80 share
 *     a byte) plus long inputs, one-shot and incremental;
 *   - SHAKE output lengths 0 .. 3 * rate + 2 (exact multiples of the rate
 *     included), with nothing written past the requested length;
 *   - incremental absorb and squeeze in random chunk sizes;
 *   - mlkem_keccak_squeezeblocks against mlkem_keccak_squeeze, and squeeze after blocks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak/keccak.h"
#include "test/common/test_backends.h"
#include "test/keccak/keccak_test.h"

#define MAXRATE MLKEM_SHAKE128_RATE
#define MAXIN (3 * MAXRATE + 3)
#define MAXOUT (3 * MAXRATE + 3)
#define CANARY 0xA5

typedef struct {
    const char *name;
    unsigned rate;
    size_t dlen; /* digest length; 0 for a XOF */
    const EVP_MD *(*md)(void);
} algo;

static const algo algos[] = {
    {"SHA3-256", MLKEM_SHA3_256_RATE, 32, EVP_sha3_256},
    {"SHA3-512", MLKEM_SHA3_512_RATE, 64, EVP_sha3_512},
    {"SHAKE128", MLKEM_SHAKE128_RATE, 0, EVP_shake128},
    {"SHAKE256", MLKEM_SHAKE256_RATE, 0, EVP_shake256},
};

/* Our one-shot function for algorithm a. */
static void oneshot(const algo *a, uint8_t *out, size_t outlen,
                    const uint8_t *in, size_t len)
{
    if (a->md == EVP_sha3_256)
        mlkem_sha3_256(out, in, len);
    else if (a->md == EVP_sha3_512)
        mlkem_sha3_512(out, in, len);
    else if (a->md == EVP_shake128)
        mlkem_shake128(out, outlen, in, len);
    else
        mlkem_shake256(out, outlen, in, len);
}

static void init(const algo *a, mlkem_keccak_ctx *ctx)
{
    if (a->md == EVP_sha3_256)
        mlkem_sha3_256_init(ctx);
    else if (a->md == EVP_sha3_512)
        mlkem_sha3_512_init(ctx);
    else if (a->md == EVP_shake128)
        mlkem_shake128_init(ctx);
    else
        mlkem_shake256_init(ctx);
}

/* Incremental: absorb in random chunks, then finalize / squeeze in random
 * chunks (SHAKE) or the final call (SHA3). */
static void incremental(const algo *a, test_rng *rng, uint8_t *out,
                        size_t outlen, const uint8_t *in, size_t len)
{
    mlkem_keccak_ctx ctx;
    size_t off = 0;

    init(a, &ctx);
    while (off < len) {
        /* Mostly short chunks, sometimes more than a block, sometimes 0. */
        size_t n = test_rng_below(rng, 4) == 0 ? test_rng_below(rng, 2 * a->rate + 2)
                                         : test_rng_below(rng, 20);
        if (n > len - off)
            n = len - off;
        mlkem_keccak_absorb(&ctx, in + off, n);
        off += n;
    }
    if (a->dlen == 32) {
        mlkem_sha3_256_final(&ctx, out);
    } else if (a->dlen == 64) {
        mlkem_sha3_512_final(&ctx, out);
    } else {
        mlkem_shake_finalize(&ctx);
        off = 0;
        while (off < outlen) {
            size_t n = test_rng_below(rng, 3) == 0 ? test_rng_below(rng, 2 * a->rate + 2)
                                             : test_rng_below(rng, 20);
            if (n > outlen - off)
                n = outlen - off;
            mlkem_keccak_squeeze(&ctx, out + off, n);
            off += n;
        }
        mlkem_keccak_ctx_cleanse(&ctx);
    }
}

/* Compare ours (one-shot and incremental) with libcrypto for one
 * (input length, output length); check nothing is written past outlen. */
static int check_one(const algo *a, test_rng *rng, const uint8_t *in,
                     size_t len, size_t outlen, const char *backend)
{
    const int before = test_failure_count();
    uint8_t exp[MAXOUT], got[MAXOUT + 8];
    char what[128];

    if (outlen > 0 && !kt_evp(a->md(), in, len, exp, outlen))
        return 1;
    snprintf(what, sizeof(what), "%s [%s] one-shot len %zu outlen %zu",
             a->name, backend, len, outlen);
    memset(got, CANARY, sizeof(got));
    oneshot(a, got, outlen, in, len);
    TEST_CHECK(test_bytes_eq(what, got, exp, outlen), "%s", what);
    for (size_t i = outlen; i < outlen + 8; i++)
        TEST_CHECK(got[i] == CANARY, "%s: byte %zu written past the end", what,
                 i);

    snprintf(what, sizeof(what), "%s [%s] incremental len %zu outlen %zu",
             a->name, backend, len, outlen);
    memset(got, CANARY, sizeof(got));
    incremental(a, rng, got, outlen, in, len);
    TEST_CHECK(test_bytes_eq(what, got, exp, outlen), "%s", what);
    for (size_t i = outlen; i < outlen + 8; i++)
        TEST_CHECK(got[i] == CANARY, "%s: byte %zu written past the end", what,
                 i);
    return test_failure_count() - before;
}

static int test_lengths(const algo *a, test_rng *rng, const char *backend)
{
    const int before = test_failure_count();
    uint8_t in[MAXIN];
    const size_t maxlen = 3 * (size_t)a->rate + 2;
    /* For SHAKE: a default output length of two blocks and a bit. */
    const size_t outdef = a->dlen ? a->dlen : 2 * (size_t)a->rate + 5;

    test_rng_bytes(rng, in, sizeof(in));
    /* Every input length up to three blocks plus two bytes. */
    for (size_t len = 0; len <= maxlen; len++)
        (void)check_one(a, rng, in, len, outdef, backend);
    /* Every output length for a few inputs around a block boundary. */
    if (a->dlen == 0) {
        const size_t lens[] = {0, 1, a->rate - 1, a->rate, a->rate + 1};
        for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
            for (size_t outlen = 0; outlen <= maxlen; outlen++)
                (void)check_one(a, rng, in, lens[k], outlen, backend);
    }
    return test_failure_count() - before;
}

static int test_long(const algo *a, test_rng *rng, const char *backend)
{
    const int before = test_failure_count();
    const size_t lens[] = {1000, 4096, 100003, 1 << 20};
    uint8_t *in = malloc(1 << 20);

    if (in == NULL) {
        TEST_FAIL("out of memory");
        return 1;
    }
    test_rng_bytes(rng, in, 1 << 20);
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
        (void)check_one(a, rng, in, lens[k],
                           a->dlen ? a->dlen : 3 * (size_t)a->rate, backend);
    free(in);
    return test_failure_count() - before;
}

/* mlkem_keccak_squeezeblocks right after finalize and after earlier blocks equals
 * mlkem_keccak_squeeze of the same total length; a squeeze after blocks goes on
 * with the next block. */
static int test_squeezeblocks(const algo *a, test_rng *rng, const char *backend)
{
    const int before = test_failure_count();
    uint8_t in[300], exp[6 * MAXRATE], got[6 * MAXRATE];
    const size_t r = a->rate;
    mlkem_keccak_ctx ctx;

    if (a->dlen != 0)
        return 0;
    for (size_t len = 0; len < sizeof(in); len += 37) {
        test_rng_bytes(rng, in, len);
        if (!kt_evp(a->md(), in, len, exp, 6 * r))
            return 1;
        init(a, &ctx);
        mlkem_keccak_absorb(&ctx, in, len);
        mlkem_shake_finalize(&ctx);
        mlkem_keccak_squeezeblocks(&ctx, got, 1);
        mlkem_keccak_squeezeblocks(&ctx, got + r, 2);
        mlkem_keccak_squeezeblocks(&ctx, got + 3 * r, 0);
        mlkem_keccak_squeeze(&ctx, got + 3 * r, r + 7);
        mlkem_keccak_squeeze(&ctx, got + 4 * r + 7, 2 * r - 7);
        TEST_CHECK(test_bytes_eq("squeezeblocks then squeeze", got, exp, 6 * r),
                 "%s [%s] len %zu", a->name, backend, len);
        mlkem_keccak_ctx_cleanse(&ctx);
    }
    /* cleanse really zeroes the context. */
    {
        static const mlkem_keccak_ctx zero;
        TEST_CHECK(memcmp(&ctx, &zero, sizeof(ctx)) == 0, "%s: cleanse",
                 a->name);
    }
    return test_failure_count() - before;
}

static int run(const char *backend, void *arg)
{
    const int before = test_failure_count();
    test_rng rng;

    (void)arg;
    test_rng_init(&rng, "test_sha3");
    for (size_t i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
        const int f0 = test_failure_count();
        test_lengths(&algos[i], &rng, backend);
        test_long(&algos[i], &rng, backend);
        test_squeezeblocks(&algos[i], &rng, backend);
        printf("  %-9s %s\n", algos[i].name, test_failure_count() == f0 ? "ok" : "FAIL");
    }
    return test_failure_count() - before;
}

int main(void)
{
    TEST_CHECK(test_for_each_backend(run, NULL) == 0, "backend runs failed");
    return test_finish("keccak_sha3");
}
