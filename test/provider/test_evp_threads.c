/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_threads.c: 8 threads share one library context (and so one
 * provider instance, its child library context and its DRBG) doing keygen,
 * encapsulation and decapsulation for all three parameter sets. Each thread
 * checks its own results; a deterministic keygen from a fixed seed must give
 * the same ek in every thread.
 */
#include "test/provider/evp_util.h"

#include <pthread.h>
#include <string.h>

#include <openssl/err.h>

#define THREADS 8
#define ROUNDS 12

typedef struct {
    test_env *e;
    int id;
    const uint8_t (*ref_ek)[1568]; /* per variant, from the main thread */
} thread_arg;

static void *worker(void *varg)
{
    thread_arg *a = varg;
    uint8_t seed[64], ct[1568], ss1[32], ss2[32], ek[1568];

    for (int r = 0; r < ROUNDS; r++) {
        for (size_t i = 0; i < 3; i++) {
            const evp_variant *v = &evp_variants[i];
            size_t ctlen = sizeof(ct), s1 = 32, s2 = 32, eklen;
            EVP_PKEY *k;

            if (r % 4 == 0) {
                /* Deterministic key: same ek everywhere. */
                for (int j = 0; j < 64; j++)
                    seed[j] = (uint8_t)(0xA0 + j);
                k = evp_keygen(a->e, v->name, seed, 64);
                TEST_CHECK(k != NULL
                          && evp_get_octets(k, "pub", ek, sizeof(ek), &eklen)
                          && memcmp(ek, a->ref_ek[i], v->ek) == 0,
                      "thread %d: %s seeded keygen differs", a->id, v->name);
            } else {
                k = evp_keygen(a->e, v->name, NULL, 0);
                TEST_CHECK(k != NULL, "thread %d: %s keygen", a->id, v->name);
            }
            if (k == NULL)
                continue;
            TEST_CHECK(evp_encaps(a->e, k, NULL, 0, ct, &ctlen, ss1, &s1)
                      && evp_decaps(a->e, k, ct, ctlen, ss2, &s2)
                      && s1 == 32 && s2 == 32 && memcmp(ss1, ss2, 32) == 0,
                  "thread %d round %d: %s encaps/decaps", a->id, r, v->name);
            /* Implicit rejection under load as well. */
            ct[r % ctlen] ^= 0x80;
            s2 = 32;
            TEST_CHECK(evp_decaps(a->e, k, ct, ctlen, ss2, &s2)
                      && memcmp(ss1, ss2, 32) != 0,
                  "thread %d: %s tampered ciphertext", a->id, v->name);
            EVP_PKEY_free(k);
        }
    }
    /* Each thread's error queue is its own; leave it empty. */
    OPENSSL_thread_stop();
    return NULL;
}

void evp_suite_threads(test_env *e)
{
    static uint8_t ref_ek[3][1568];
    uint8_t seed[64];
    pthread_t t[THREADS];
    thread_arg args[THREADS];
    int started[THREADS] = { 0 };

    for (int j = 0; j < 64; j++)
        seed[j] = (uint8_t)(0xA0 + j);
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        EVP_PKEY *k = evp_keygen(e, evp_variants[i].name, seed, 64);
        TEST_CHECK(k != NULL && evp_get_octets(k, "pub", ref_ek[i], 1568, &len),
              "reference key %s", evp_variants[i].name);
        EVP_PKEY_free(k);
    }
    for (int i = 0; i < THREADS; i++) {
        args[i].e = e;
        args[i].id = i;
        args[i].ref_ek = (const uint8_t(*)[1568])ref_ek;
        started[i] = pthread_create(&t[i], NULL, worker, &args[i]) == 0;
        TEST_CHECK(started[i], "pthread_create %d", i);
    }
    for (int i = 0; i < THREADS; i++)
        if (started[i])
            pthread_join(t[i], NULL);
    printf("   %d threads x %d rounds x 3 sets done\n", THREADS, ROUNDS);
}
