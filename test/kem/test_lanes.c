/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lanes.c: the stream scheduler (kem/lanes.c) against independent
 * hashes, under every backend.
 *
 * Each round queues a random mix of jobs on one schedule: SHA3-256,
 * SHA3-512, SHAKE128 and SHAKE256 byte streams whose input is split
 * anywhere between the two pieces (including empty pieces and lengths at
 * and around block boundaries) with outputs up to several blocks,
 * SampleNTT streams (some seeds need a fourth block), CBD streams for
 * eta = 2, 3, and SHA3-256 streams hashed in two or three instalments
 * (save / resume jobs, as keygen hashes ek row by row); some jobs, when
 * done, queue further jobs (as G releases the PRF streams), which then
 * start in whatever lanes are free. Schedules run
 * with and without permission for x8 states, and with job counts from 1
 * (a lone stream) to past the lanes of an x8 state, so every path runs:
 * single sponges, lanes moved out to single sponges, x4 and x8 calls, x8
 * narrowed to x4 (on a set with x8_min). Every output is compared with
 * libcrypto (SHA-3, SHAKE) or with the literal SampleNTT / SamplePolyCBD on
 * test/common's SHAKE.
 */
#include <openssl/evp.h>

#include "kem/lanes.h"
#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/kem/kem_test.h"

#define MAXJ 40

typedef struct scenario scenario;

typedef struct {
    mlkem_job job;
    int kind;          /* 0 sha3-256, 1 sha3-512, 2 shake128, 3 shake256,
                          4 SampleNTT, 5 CBD, 6 SHA3-256 in instalments */
    scenario *sc;
    mlkem_job part[2]; /* kind 6: the later instalments */
    mlkem_keccak_ctx saved[2];
    size_t cut[2];     /* kind 6: instalment boundaries (whole blocks) */
    unsigned parts;
    uint8_t in[700];
    size_t len, split;
    uint8_t out[700];
    size_t outlen;
    int16_t poly[256];
    uint8_t rho[32], b0, b1;
    unsigned eta;
    unsigned children; /* jobs to queue when done */
} tjob;

struct scenario {
    tjob jobs[MAXJ];
    unsigned n;    /* jobs built so far */
    test_rng *rng;
};

static void cbd_ref(int16_t f[256], const uint8_t *B, unsigned eta)
{
    for (unsigned i = 0; i < 256; i++) {
        int x = 0, y = 0;
        for (unsigned j = 0; j < eta; j++) {
            unsigned bx = 2 * i * eta + j, by = 2 * i * eta + eta + j;
            x += (B[bx / 8] >> (bx % 8)) & 1;
            y += (B[by / 8] >> (by % 8)) & 1;
        }
        f[i] = (int16_t)(x - y);
    }
}

/* A length near a block boundary of rate r, or anything up to max. */
static size_t pick_len(test_rng *rng, unsigned r, size_t max)
{
    size_t v;
    switch (test_rng_below(rng, 3)) {
    case 0: v = r * test_rng_below(rng, 4) + test_rng_below(rng, 3); break;
    case 1: v = r * (1 + test_rng_below(rng, 3)) - 1 - test_rng_below(rng, 2); break;
    default: v = test_rng_below(rng, max + 1);
    }
    return v > max ? max : v;
}

static void child_done(mlkem_lanes *e, mlkem_job *j);

/* Kind 6: instalment i done -> queue instalment i + 1 (the last one pads
 * and outputs). */
static void part_done(mlkem_lanes *e, mlkem_job *j)
{
    tjob *t = (tjob *)j->arg;
    const unsigned i = j == &t->job ? 0 : 1;
    mlkem_job *next = &t->part[i];
    const size_t from = t->cut[i];
    if (i + 1 < t->parts - 1) {
        mlkem_job_absorb(next, &t->saved[i + 1], &t->saved[i], 136,
                         t->in + from, t->cut[i + 1] - from);
        next->done = part_done;
    } else {
        mlkem_job_sha3_256(next, t->out, t->in + from, t->len - from, NULL, 0);
        if (t->children)
            next->done = child_done;
    }
    next->resume = &t->saved[i];
    next->arg = t;
    mlkem_lanes_push(e, next);
}

/* Build job number sc->n and return it. */
static tjob *build(scenario *sc)
{
    static const unsigned rates[4] = {136, 72, 168, 136};
    tjob *t = &sc->jobs[sc->n++];
    test_rng *rng = sc->rng;

    t->kind = (int)test_rng_below(rng, 7);
    t->children = 0;
    t->sc = sc;
    if (t->kind < 4) {
        t->len = pick_len(rng, rates[t->kind], sizeof(t->in));
        t->split = test_rng_below(rng, t->len + 1);
        if (test_rng_below(rng, 4) == 0)
            t->split = test_rng_below(rng, 2) ? 0 : t->len;
        test_rng_bytes(rng, t->in, t->len);
        const uint8_t *in1 = t->in + t->split;
        const size_t len1 = t->len - t->split;
        switch (t->kind) {
        case 0: mlkem_job_sha3_256(&t->job, t->out, t->in, t->split, in1, len1); t->outlen = 32; break;
        case 1: mlkem_job_sha3_512(&t->job, t->out, t->in, t->split, in1, len1); t->outlen = 64; break;
        default:
            t->outlen = 1 + pick_len(rng, rates[t->kind], sizeof(t->out) - 1);
            mlkem_job_shake256(&t->job, t->out, t->outlen, t->in, t->split, in1, len1);
            if (t->kind == 2)
                t->job.rate = MLKEM_SHAKE128_RATE; /* SHAKE128 */
        }
    } else if (t->kind == 4) {
        test_rng_bytes(rng, t->rho, 32);
        t->b0 = (uint8_t)test_rng_below(rng, 4);
        t->b1 = (uint8_t)test_rng_below(rng, 4);
        mlkem_job_sample_ntt(&t->job, t->poly, t->rho, t->b0, t->b1);
    } else if (t->kind == 5) {
        test_rng_bytes(rng, t->rho, 32);
        t->b0 = (uint8_t)test_rng_below(rng, 256);
        t->eta = 2 + (unsigned)test_rng_below(rng, 2);
        mlkem_job_cbd(&t->job, t->poly, t->rho, t->b0, t->eta);
    } else {
        /* instalments end at random places; each absorbs its whole blocks
         * only, so a cut is the whole-block part of a random prefix */
        t->len = pick_len(rng, 136, sizeof(t->in));
        test_rng_bytes(rng, t->in, t->len);
        t->parts = 2 + (unsigned)test_rng_below(rng, 2);
        size_t a = test_rng_below(rng, t->len + 1), b;
        t->cut[0] = a - a % 136;
        if (t->parts == 3) {
            b = t->cut[0] + test_rng_below(rng, t->len - t->cut[0] + 1);
            t->cut[1] = b - (b - t->cut[0]) % 136;
        }
        mlkem_job_absorb(&t->job, &t->saved[0],
                         NULL, 136, t->in, a);
        t->job.done = part_done;
        t->outlen = 32;
    }
    t->job.arg = t;
    if (sc->n < MAXJ - 3 && test_rng_below(rng, 5) == 0) {
        t->children = 1 + (unsigned)test_rng_below(rng, 3);
        if (t->kind != 6)
            t->job.done = child_done;
    }
    return t;
}

static void child_done(mlkem_lanes *e, mlkem_job *j)
{
    const tjob *parent = (const tjob *)j->arg;
    scenario *sc = parent->sc;
    for (unsigned c = 0; c < parent->children && sc->n < MAXJ; c++)
        mlkem_lanes_push(e, &build(sc)->job);
}

static int check(const char *backend, const tjob *t, unsigned round)
{
    const int before = test_failure_count();
    if (t->kind < 2 || t->kind == 6) {
        uint8_t want[64];
        unsigned wl = 0;
        EVP_Digest(t->in, t->len, want, &wl,
                   t->kind == 1 ? EVP_sha3_512() : EVP_sha3_256(), NULL);
        TEST_CHECK(wl == t->outlen && memcmp(want, t->out, wl) == 0,
                   "[%s] round %u: SHA3-%u of %zu bytes (split %zu, kind %d)",
                   backend, round, t->kind == 1 ? 512 : 256, t->len, t->split,
                   t->kind);
    } else if (t->kind < 4) {
        uint8_t want[700];
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        TEST_CHECK(c != NULL &&
                       EVP_DigestInit_ex(c, t->kind == 2 ? EVP_shake128()
                                                         : EVP_shake256(),
                                         NULL) == 1 &&
                       EVP_DigestUpdate(c, t->in, t->len) == 1 &&
                       EVP_DigestFinalXOF(c, want, t->outlen) == 1,
                   "libcrypto SHAKE");
        EVP_MD_CTX_free(c);
        TEST_CHECK(memcmp(want, t->out, t->outlen) == 0,
                   "[%s] round %u: SHAKE%u of %zu bytes (split %zu) to %zu",
                   backend, round, t->kind == 2 ? 128 : 256, t->len, t->split,
                   t->outlen);
    } else if (t->kind == 4) {
        int16_t want[256], got[256];
        kt_sample_ntt_ref(want, t->rho, t->b0, t->b1);
        kt_to_spec_order(mlkem_poly_kernels(), t->poly, got);
        TEST_CHECK(memcmp(want, got, sizeof(want)) == 0,
                   "[%s] round %u: SampleNTT", backend, round);
    } else {
        test_shake x;
        uint8_t in[33], B[192];
        int16_t want[256];
        memcpy(in, t->rho, 32);
        in[32] = t->b0;
        test_shake256_init(&x);
        test_shake_absorb(&x, in, 33);
        test_shake_squeeze(&x, B, 64 * t->eta);
        cbd_ref(want, B, t->eta);
        TEST_CHECK(memcmp(want, t->poly, sizeof(want)) == 0,
                   "[%s] round %u: CBD eta %u", backend, round, t->eta);
    }
    return test_failure_count() == before;
}

static int body(const char *backend, void *arg)
{
    static scenario sc;
    const int before = test_failure_count();
    test_rng rng;
    unsigned fourth = 0;
    (void)arg;
    test_rng_init(&rng, "test_lanes");
    sc.rng = &rng;

    for (unsigned round = 0; round < 300; round++) {
        mlkem_lanes e;
        const unsigned first =
            round < 12 ? 1 + round : 1 + (unsigned)test_rng_below(&rng, 20);
        sc.n = 0;
        mlkem_lanes_init(&e, (int)(round % 2));
        for (unsigned i = 0; i < first; i++)
            mlkem_lanes_push(&e, &build(&sc)->job);
        mlkem_lanes_run(&e);
        for (unsigned i = 0; i < sc.n; i++) {
            check(backend, &sc.jobs[i], round);
            if (sc.jobs[i].kind == 4 && sc.jobs[i].job.blocks > 3)
                fourth++;
        }
    }
    printf("  SampleNTT jobs that needed a 4th block: %u\n", fourth);
    TEST_CHECK(fourth > 0, "no SampleNTT job needed a 4th block");
    return test_failure_count() - before;
}

int main(void)
{
    TEST_CHECK(test_for_each_backend(body, NULL) == 0, "backend runs failed");
    return test_finish("test_lanes");
}
