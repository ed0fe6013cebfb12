/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_keccak_xn.c: the parallel states mlkem_keccak_x4 / mlkem_keccak_x8 (PlSnP)
 * against the single-state functions, under every backend.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.1.2 and Appendix B.1 (byte i of the state
 *             is byte i mod 8 of lane i / 8, little-endian), §4 (SPONGE).
 *
 * The model for instance i is a plain 200-byte array: xor_bytes XORs bytes
 * into it, extract_bytes reads them, permute converts it to 25 lanes
 * (little-endian), applies mlkem_keccak_f1600 (tested by test_keccakf) and
 * converts back. Because the backend owns the state layout, the states are
 * only ever looked at through extract_bytes. The sponges absorb_once /
 * squeezeblocks are compared with mlkem_keccak_init / mlkem_keccak_absorb /
 * mlkem_keccak_finalize / mlkem_keccak_squeeze run once per instance.
 */
#include <stdio.h>
#include <string.h>

#include "keccak/keccak.h"
#include "test/common/test_backends.h"
#include "test/keccak/keccak_test.h"

/* One width (4 or 8) behind untyped wrappers, so each test is written once. */
typedef struct {
    unsigned n;
    size_t size; /* sizeof(keccak_xN) */
    void (*init)(void *st);
    void (*xor_bytes)(void *st, unsigned lane, unsigned off, const uint8_t *in,
                      size_t len);
    void (*extract_bytes)(const void *st, unsigned lane, unsigned off,
                          uint8_t *out, size_t len);
    void (*permute)(void *st);
    void (*absorb_once)(void *st, unsigned rate, uint8_t ds,
                        const uint8_t *const *in, size_t inlen);
    void (*squeezeblocks)(void *st, unsigned rate, uint8_t *const *out,
                          size_t nblocks);
    void (*cleanse)(void *st);
} xn_api;

#define XN_WRAPPERS(N)                                                        \
    static void x##N##_init(void *st) { mlkem_keccak_x##N##_init(st); }             \
    static void x##N##_xor(void *st, unsigned l, unsigned o,                  \
                           const uint8_t *in, size_t len)                     \
    {                                                                         \
        mlkem_keccak_x##N##_xor_bytes(st, l, o, in, len);                           \
    }                                                                         \
    static void x##N##_extract(const void *st, unsigned l, unsigned o,        \
                               uint8_t *out, size_t len)                      \
    {                                                                         \
        mlkem_keccak_x##N##_extract_bytes(st, l, o, out, len);                      \
    }                                                                         \
    static void x##N##_permute(void *st) { mlkem_keccak_x##N##_permute(st); }       \
    static void x##N##_absorb(void *st, unsigned rate, uint8_t ds,            \
                              const uint8_t *const *in, size_t inlen)         \
    {                                                                         \
        mlkem_keccak_x##N##_absorb_once(st, rate, ds, in, inlen);                   \
    }                                                                         \
    static void x##N##_squeeze(void *st, unsigned rate, uint8_t *const *out,  \
                               size_t nblocks)                                \
    {                                                                         \
        mlkem_keccak_x##N##_squeezeblocks(st, rate, out, nblocks);                  \
    }                                                                         \
    static void x##N##_cleanse(void *st) { mlkem_keccak_x##N##_cleanse(st); }       \
    static const xn_api api_x##N = {                                          \
        N,              sizeof(mlkem_keccak_x##N), x##N##_init,  x##N##_xor,        \
        x##N##_extract, x##N##_permute,      x##N##_absorb, x##N##_squeeze,   \
        x##N##_cleanse};

XN_WRAPPERS(4)
XN_WRAPPERS(8)

typedef union {
    mlkem_keccak_x4 x4;
    mlkem_keccak_x8 x8;
} xn_state;

/* ---- The byte-array model ------------------------------------------------- */

static void model_permute(uint8_t m[200])
{
    uint64_t s[25];
    for (unsigned i = 0; i < 25; i++) {
        s[i] = 0;
        for (unsigned j = 0; j < 8; j++)
            s[i] |= (uint64_t)m[8 * i + j] << (8 * j);
    }
    mlkem_keccak_f1600(s);
    for (unsigned i = 0; i < 25; i++)
        for (unsigned j = 0; j < 8; j++)
            m[8 * i + j] = (uint8_t)(s[i] >> (8 * j));
}

/* Every instance of st equals the model, read back whole. */
static int state_eq(const xn_api *api, const xn_state *st,
                    uint8_t model[][200], const char *what)
{
    const int before = test_failure_count();
    uint8_t got[200];
    for (unsigned i = 0; i < api->n; i++) {
        memset(got, 0x5A, sizeof(got));
        api->extract_bytes(st, i, 0, got, 200);
        TEST_CHECK(test_bytes_eq(what, got, model[i], 200), "x%u instance %u",
                 api->n, i);
    }
    return test_failure_count() - before;
}

/* init, then a random walk of xor_bytes / extract_bytes / permute at odd
 * offsets and lengths, compared with the model after every step. */
static int test_bytes_walk(const xn_api *api, test_rng *rng, const char *be)
{
    const int before = test_failure_count();
    xn_state st;
    uint8_t model[8][200], buf[200], got[200 + 8];

    memset(&st, 0x33, sizeof(st)); /* init must clear whatever was there */
    api->init(&st);
    memset(model, 0, sizeof(model));
    (void)state_eq(api, &st, model, "after init");

    for (int step = 0; step < 3000; step++) {
        unsigned op = (unsigned)test_rng_below(rng, 8);
        unsigned lane = (unsigned)test_rng_below(rng, api->n);
        unsigned off = (unsigned)test_rng_below(rng, 201);
        size_t len = test_rng_below(rng, 201 - off);

        /* Some whole-lane-aligned operations too (the fast path). */
        if (step % 5 == 0) {
            off &= ~7u;
            len = (len & ~(size_t)7) > 200 - off ? 200 - off : len & ~(size_t)7;
        }
        if (op < 4) {
            test_rng_bytes(rng, buf, len);
            api->xor_bytes(&st, lane, off, buf, len);
            for (size_t j = 0; j < len; j++)
                model[lane][off + j] ^= buf[j];
        } else if (op < 7) {
            memset(got, 0xC3, sizeof(got));
            api->extract_bytes(&st, lane, off, got, len);
            TEST_CHECK(test_bytes_eq("extract_bytes", got, &model[lane][off],
                                   len),
                     "[%s] x%u step %d lane %u off %u len %zu", be, api->n,
                     step, lane, off, len);
            for (size_t j = len; j < len + 8; j++)
                TEST_CHECK(got[j] == 0xC3,
                         "[%s] x%u extract wrote past len (step %d)", be,
                         api->n, step);
        } else {
            api->permute(&st);
            for (unsigned i = 0; i < api->n; i++)
                model_permute(model[i]);
        }
        if (test_failure_count() - before > 10)
            break;
    }
    (void)state_eq(api, &st, model, "after the walk");

    api->cleanse(&st);
    {
        static const xn_state zero;
        TEST_CHECK(memcmp(&st, &zero, api->size) == 0, "[%s] x%u cleanse", be,
                 api->n);
    }
    return test_failure_count() - before;
}

/* absorb_once + squeezeblocks with a different input per instance equals
 * the single-state sponge run per instance; out[i] == NULL skips instance i
 * without disturbing the others. */
static int test_sponges(const xn_api *api, test_rng *rng, const char *be)
{
    const int before = test_failure_count();
    static const unsigned rates[] = {MLKEM_SHAKE128_RATE, MLKEM_SHAKE256_RATE,
                                     MLKEM_SHA3_512_RATE};
    static const uint8_t dss[] = {0x1f, 0x06};
    uint8_t in[8][600], out[8][5 * MLKEM_SHAKE128_RATE], exp[5 * MLKEM_SHAKE128_RATE];
    const uint8_t *inp[8];
    uint8_t *outp[8];
    xn_state st;

    for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
        const unsigned rate = rates[r];
        const size_t lens[] = {0,        1,        33,           rate - 1,
                               rate,     rate + 1, 2 * rate + 5, 3 * rate,
                               600};
        for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
            for (size_t nb = 0; nb <= 4; nb++) {
                const uint8_t ds = dss[(k + nb) % 2];
                const size_t inlen = lens[k];
                /* Leave one instance out (NULL) in odd rounds. */
                const unsigned skip = nb % 2 ? (unsigned)(k % api->n) : 99;

                for (unsigned i = 0; i < api->n; i++) {
                    test_rng_bytes(rng, in[i], inlen);
                    inp[i] = in[i];
                    memset(out[i], 0xEE, sizeof(out[i]));
                    outp[i] = i == skip ? NULL : out[i];
                }
                api->absorb_once(&st, rate, ds, inp, inlen);
                /* Squeeze in two calls to test continuing. */
                api->squeezeblocks(&st, rate, outp, nb / 2);
                for (unsigned i = 0; i < api->n; i++)
                    if (outp[i] != NULL)
                        outp[i] += nb / 2 * rate;
                api->squeezeblocks(&st, rate, outp, nb - nb / 2);

                for (unsigned i = 0; i < api->n; i++) {
                    mlkem_keccak_ctx ctx;
                    mlkem_keccak_init(&ctx, rate);
                    mlkem_keccak_absorb(&ctx, in[i], inlen);
                    mlkem_keccak_finalize(&ctx, ds);
                    mlkem_keccak_squeeze(&ctx, exp, nb * rate);
                    if (i == skip) {
                        TEST_CHECK(out[i][0] == 0xEE && out[i][nb * rate] == 0xEE,
                                 "[%s] x%u wrote to a NULL lane", be, api->n);
                        continue;
                    }
                    TEST_CHECK(test_bytes_eq("absorb_once/squeezeblocks", out[i],
                                           exp, nb * rate),
                             "[%s] x%u rate %u ds %02x inlen %zu blocks %zu "
                             "instance %u",
                             be, api->n, rate, ds, inlen, nb, i);
                    TEST_CHECK(out[i][nb * rate] == 0xEE,
                             "[%s] x%u wrote past nblocks", be, api->n);
                }
            }
        }
    }
    /* A cross-check against libcrypto for the ML-KEM shape: SHAKE128 of
     * 34 bytes (rho || j || i), three blocks. */
    for (unsigned i = 0; i < api->n; i++) {
        test_rng_bytes(rng, in[i], 34);
        inp[i] = in[i];
        outp[i] = out[i];
    }
    api->absorb_once(&st, MLKEM_SHAKE128_RATE, 0x1f, inp, 34);
    api->squeezeblocks(&st, MLKEM_SHAKE128_RATE, outp, 3);
    for (unsigned i = 0; i < api->n; i++) {
        if (!kt_evp(EVP_shake128(), in[i], 34, exp,
                    3 * MLKEM_SHAKE128_RATE))
            return test_failure_count() - before;
        TEST_CHECK(test_bytes_eq("x SHAKE128 vs libcrypto", out[i], exp,
                               3 * MLKEM_SHAKE128_RATE),
                 "[%s] x%u instance %u", be, api->n, i);
    }
    api->cleanse(&st);
    return test_failure_count() - before;
}

static int run(const char *backend, void *arg)
{
    const int before = test_failure_count();
    test_rng rng;
    const xn_api *apis[] = {&api_x4, &api_x8};

    (void)arg;
    test_rng_init(&rng, "test_keccak_xn");
    for (size_t a = 0; a < 2; a++) {
        const int f0 = test_failure_count();
        test_bytes_walk(apis[a], &rng, backend);
        test_sponges(apis[a], &rng, backend);
        printf("  x%u %s\n", apis[a]->n, test_failure_count() == f0 ? "ok" : "FAIL");
    }
    return test_failure_count() - before;
}

int main(void)
{
    TEST_CHECK(test_for_each_backend(run, NULL) == 0, "backend runs failed");
    return test_finish("keccak_xn");
}
