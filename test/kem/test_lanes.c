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
 * eta = 2, 3, and a SHA3-256 stream whose input is fed in two or three
 * instalments of any length (as keygen feeds ek row by row), one more
 * after each job the round waits for; the round waits for some jobs
 * (mlkem_lanes_wait), checks they are complete, and then queues further
 * jobs (as G releases the PRF streams), which start in whatever lanes are
 * free. Schedules run
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
                          4 SampleNTT, 5 CBD, 6 SHA3-256 fed */
    mlkem_keccak_ctx state; /* kind 6 */
    size_t cut[3];     /* kind 6: bytes ready after each instalment */
    unsigned parts, fed_parts;
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
    tjob *fed;     /* the one fed job of the round, or NULL */
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

/* Build job number sc->n and return it. */
static tjob *build(scenario *sc)
{
    static const unsigned rates[4] = {136, 72, 168, 136};
    tjob *t = &sc->jobs[sc->n++];
    test_rng *rng = sc->rng;

    t->kind = (int)test_rng_below(rng, 7);
    if (t->kind == 6 && sc->fed != NULL)
        t->kind = 0; /* one fed job per schedule */
    t->children = 0;
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
        /* instalments end at random places (the schedule takes the whole
         * blocks that are ready), the last one at the end */
        t->len = pick_len(rng, 136, sizeof(t->in));
        test_rng_bytes(rng, t->in, t->len);
        t->parts = 2 + (unsigned)test_rng_below(rng, 2);
        t->cut[0] = test_rng_below(rng, t->len + 1);
        t->cut[1] = t->cut[0] + test_rng_below(rng, t->len - t->cut[0] + 1);
        t->cut[t->parts - 1] = t->len;
        t->fed_parts = 0;
        mlkem_job_sha3_256_fed(&t->job, t->out, t->in, t->len, &t->state);
        t->outlen = 32;
        sc->fed = t;
    }
    if (t->kind != 6 && sc->n < MAXJ - 3 && test_rng_below(rng, 5) == 0)
        t->children = 1 + (unsigned)test_rng_below(rng, 3);
    return t;
}

/* The fed job's next instalment, if it has one left. */
static void feed_next(mlkem_lanes *e, scenario *sc)
{
    tjob *t = sc->fed;
    if (t != NULL && t->fed_parts < t->parts)
        mlkem_lanes_feed(e, &t->job, t->cut[t->fed_parts++]);
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
        sc.fed = NULL;
        mlkem_lanes_init(&e, (int)(round % 2));
        for (unsigned i = 0; i < first; i++)
            mlkem_lanes_push(&e, &build(&sc)->job);
        /* Wait for each job with children (in the order built, children
         * included), then queue them; one more instalment of the fed job
         * after each. */
        for (unsigned i = 0; i < sc.n; i++) {
            tjob *t = &sc.jobs[i];
            if (t->children == 0)
                continue;
            mlkem_lanes_wait(&e, &t->job);
            TEST_CHECK(t->job.complete, "[%s] round %u: wait returned before "
                       "job %u was complete", backend, round, i);
            for (unsigned c = 0; c < t->children && sc.n < MAXJ; c++)
                mlkem_lanes_push(&e, &build(&sc)->job);
            feed_next(&e, &sc);
        }
        while (sc.fed != NULL && sc.fed->fed_parts < sc.fed->parts)
            feed_next(&e, &sc);
        mlkem_lanes_run(&e);
        for (unsigned i = 0; i < sc.n; i++) {
            TEST_CHECK(sc.jobs[i].job.complete, "[%s] round %u: job %u not "
                       "complete after the run", backend, round, i);
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
