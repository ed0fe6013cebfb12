/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stress_threads.c: many threads share one library context (one instance
 * of mlkem.so, its child library context, its DRBGs) and one key per
 * parameter set, while other threads load and unload the provider in
 * library contexts of their own. Every result is checked. Run under the
 * tsan preset it is the data-race test of issue 11; in the other presets a
 * functional concurrency test (asan: with leak checking).
 *
 * References
 *   OpenSSL 3.0 crypto(7), "Threads": EVP_PKEY and SSL_CTX objects may be
 *   shared between threads for operations that do not modify them; library
 *   contexts and providers may be loaded and unloaded concurrently.
 *   [FIPS203] NIST FIPS 203, Algorithms 19-21 (what each worker checks).
 *
 * Workers (WORKERS threads, ROUNDS rounds each; each round does every task
 * below once, rotating the parameter set / group by thread and round):
 *   keygen    a fresh key pair (served by mlkem), encaps to it, decaps;
 *   shared    encaps to the shared key and decaps with it: the secrets
 *             agree; decaps of the shared rejected ciphertext gives the
 *             shared implicit-rejection secret (computed once up front);
 *   codec     the shared key encoded as PKCS#8 DER equals the reference
 *             bytes; decoded again (OSSL_DECODER), it has the same ek;
 *   hybrid    libssl's three calls for a hybrid group: client keygen,
 *             server share import + encaps, client decaps; secrets agree;
 *   tls       a full TLS 1.3 handshake over memory BIOs with the shared
 *             client and server SSL_CTXs, one of the six groups offered and
 *             accepted alone, and the negotiated group checked at both ends.
 * Loaders (LOADERS threads, CYCLES cycles each, meeting at a barrier before
 * each cycle so that loads overlap): a new OSSL_LIB_CTX, load mlkem and
 * default, keygen + encaps + decaps there (checked), unload both
 * providers, free the context.
 *
 * MLKEM_STRESS_SCALE (default 1) multiplies ROUNDS and CYCLES, for a
 * longer run by hand.
 *
 * Usage: hardening_stress_threads <directory holding mlkem.so>
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "test/common/test_util.h"
#include "test/hardening/hard_util.h"
#include "test/tls/tls_common.h"

#define WORKERS 8
#define ROUNDS 25
#define LOADERS 4
#define CYCLES 50

/* What every worker shares (read-only after set-up). */
typedef struct {
    test_env e;                 /* the shared library context */
    tls_env tls;                /* the same context, with the certificate */
    const char *moddir;
    EVP_PKEY *key[3];           /* one key per ML-KEM parameter set */
    uint8_t ct_bad[3][1568];    /* a ciphertext each key rejects */
    uint8_t ss_bad[3][32];      /* and its implicit-rejection secret */
    uint8_t *der[3];            /* each key as PKCS#8 DER */
    size_t derlen[3];
    uint8_t pub[3][1568];
    size_t publen[3];
    SSL_CTX *cctx[TLS_NGROUPS], *sctx[TLS_NGROUPS];
    int scale;
} shared_state;

static shared_state S;

/* The loaders meet here before every load, so that loads and unloads of
 * different library contexts really overlap (OSSL_provider_init of one
 * instance while another initialises or tears down). */
static pthread_barrier_t load_barrier;

typedef struct {
    int id;
} thread_arg;

static int roundtrip(test_env *e, EVP_PKEY *k, const hard_alg *a,
                     const char *who)
{
    uint8_t ct[1700], ss1[80], ss2[80];
    size_t ctlen = sizeof(ct), s1 = sizeof(ss1), s2 = sizeof(ss2);
    return TEST_CHECK(hard_encaps(e, k, NULL, ct, &ctlen, ss1, &s1)
                          && hard_decaps(e, k, ct, ctlen, ss2, &s2)
                          && ctlen == a->ct && s1 == a->ss && s2 == s1
                          && memcmp(ss1, ss2, s1) == 0,
                      "%s: %s encaps/decaps", who, a->name);
}

static void task_keygen(int id, int r)
{
    const hard_alg *a = &hard_algs[(id + r) % 3];
    EVP_PKEY *k = hard_keygen(&S.e, a, NULL);
    char who[32];
    snprintf(who, sizeof(who), "worker %d", id);
    if (TEST_CHECK(k != NULL && hard_served_by_mlkem(k), "%s: %s keygen", who,
                   a->name))
        roundtrip(&S.e, k, a, who);
    EVP_PKEY_free(k);
}

static void task_shared(int id, int r)
{
    int v = (id + r + 1) % 3;
    const hard_alg *a = &hard_algs[v];
    uint8_t ss[32];
    size_t sslen = sizeof(ss);
    char who[32];
    snprintf(who, sizeof(who), "worker %d (shared key)", id);
    roundtrip(&S.e, S.key[v], a, who);
    TEST_CHECK(hard_decaps(&S.e, S.key[v], S.ct_bad[v], a->ct, ss, &sslen)
                   && sslen == 32 && memcmp(ss, S.ss_bad[v], 32) == 0,
               "worker %d: %s shared key, rejected ciphertext", id, a->name);
}

static void task_codec(int id, int r)
{
    int v = (id + r + 2) % 3;
    uint8_t *der = NULL, pub[1568];
    size_t len = 0, publen = 0;
    EVP_PKEY *k;

    TEST_CHECK(hard_encode(S.key[v], EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo",
                           NULL, &der, &len)
                   && len == S.derlen[v] && memcmp(der, S.der[v], len) == 0,
               "worker %d: %s encode", id, hard_algs[v].name);
    OPENSSL_clear_free(der, len);
    k = hard_decode(&S.e, "DER", S.der[v], S.derlen[v], NULL);
    TEST_CHECK(k != NULL && hard_served_by_mlkem(k)
                   && hard_get_pub(k, pub, sizeof(pub), &publen)
                   && publen == S.publen[v] && memcmp(pub, S.pub[v], publen) == 0,
               "worker %d: %s decode", id, hard_algs[v].name);
    EVP_PKEY_free(k);
}

static void task_hybrid(int id, int r)
{
    const hard_alg *a = &hard_algs[3 + (id + r) % 3];
    EVP_PKEY *client = hard_keygen(&S.e, a, NULL), *server = NULL;
    uint8_t pub[1700], ct[1700], ss1[80], ss2[80];
    size_t publen = 0, ctlen = sizeof(ct), s1 = sizeof(ss1), s2 = sizeof(ss2);

    TEST_CHECK(client != NULL && hard_served_by_mlkem(client)
                   && hard_get_pub(client, pub, sizeof(pub), &publen)
                   && publen == a->pub
                   && (server = hard_pub_from(&S.e, a, pub, publen)) != NULL
                   && hard_encaps(&S.e, server, NULL, ct, &ctlen, ss1, &s1)
                   && hard_decaps(&S.e, client, ct, ctlen, ss2, &s2)
                   && s1 == a->ss && s2 == s1 && memcmp(ss1, ss2, s1) == 0,
               "worker %d: %s client keygen / server encaps / client decaps", id,
               a->name);
    EVP_PKEY_free(client);
    EVP_PKEY_free(server);
}

static void task_tls(int id, int r)
{
    int g = (id * 5 + r) % TLS_NGROUPS;
    tls_pair p;
    int ok = 0;

    if (TEST_CHECK(tls_pair_new(&p, S.cctx[g], S.sctx[g]) == 0,
                   "worker %d: SSL objects", id)) {
        ok = TEST_CHECK(tls_pair_handshake(&p), "worker %d: %s handshake", id,
                        tls_group_names[g]);
        if (ok) {
            const char *cg = tls_negotiated_group(p.client);
            const char *sg = tls_negotiated_group(p.server);
            TEST_CHECK(strcmp(cg, tls_group_names[g]) == 0
                           && strcmp(sg, tls_group_names[g]) == 0,
                       "worker %d: negotiated %s / %s, want %s", id, cg, sg,
                       tls_group_names[g]);
        }
        tls_pair_free(&p);
    }
}

static void *worker(void *varg)
{
    int id = ((thread_arg *)varg)->id;
    for (int r = 0; r < ROUNDS * S.scale; r++) {
        task_keygen(id, r);
        task_shared(id, r);
        task_codec(id, r);
        task_hybrid(id, r);
        task_tls(id, r);
    }
    ERR_clear_error();
    OPENSSL_thread_stop();
    return NULL;
}

static void *loader(void *varg)
{
    int id = ((thread_arg *)varg)->id;
    for (int c = 0; c < CYCLES * S.scale; c++) {
        test_env e;
        char who[48];
        const hard_alg *a = &hard_algs[(id + c) % 3];
        EVP_PKEY *k;

        snprintf(who, sizeof(who), "loader %d cycle %d", id - WORKERS, c);
        pthread_barrier_wait(&load_barrier);
        if (!TEST_CHECK(test_env_open(&e, S.moddir, NULL), "%s: load", who))
            continue;
        k = hard_keygen(&e, a, NULL);
        if (TEST_CHECK(k != NULL && hard_served_by_mlkem(k), "%s: %s keygen", who,
                       a->name))
            roundtrip(&e, k, a, who);
        EVP_PKEY_free(k);
        test_env_close(&e);
    }
    ERR_clear_error();
    OPENSSL_thread_stop();
    return NULL;
}

static int setup(void)
{
    static const uint8_t seed[64] = { 0x11, 0x22, 0x33 }; /* rest zero */

    if (tls_env_init(&S.tls, S.moddir) != 0)
        return 0;
    S.e = S.tls.base;
    for (int v = 0; v < 3; v++) {
        const hard_alg *a = &hard_algs[v];
        uint8_t ct[1568], ss[32];
        size_t ctlen = sizeof(ct), sslen = sizeof(ss), l2 = 32;
        S.key[v] = hard_keygen(&S.e, a, seed);
        if (!TEST_CHECK(S.key[v] != NULL
                            && hard_get_pub(S.key[v], S.pub[v], sizeof(S.pub[v]),
                                            &S.publen[v])
                            && hard_encode(S.key[v], EVP_PKEY_KEYPAIR, "DER",
                                           "PrivateKeyInfo", NULL, &S.der[v],
                                           &S.derlen[v])
                            && hard_encaps(&S.e, S.key[v], NULL, ct, &ctlen, ss,
                                           &sslen),
                        "set-up: %s", a->name))
            return 0;
        memcpy(S.ct_bad[v], ct, ctlen);
        S.ct_bad[v][0] ^= 0x01;
        if (!TEST_CHECK(hard_decaps(&S.e, S.key[v], S.ct_bad[v], ctlen,
                                    S.ss_bad[v], &l2)
                            && memcmp(S.ss_bad[v], ss, 32) != 0,
                        "set-up: %s rejected ciphertext", a->name))
            return 0;
    }
    for (int g = 0; g < TLS_NGROUPS; g++) {
        S.cctx[g] = tls_client_ctx(&S.tls, NULL, tls_group_names[g]);
        S.sctx[g] = tls_server_ctx(&S.tls, NULL, tls_group_names[g]);
        if (!TEST_CHECK(S.cctx[g] != NULL && S.sctx[g] != NULL,
                        "set-up: SSL_CTX for %s", tls_group_names[g]))
            return 0;
    }
    return 1;
}

static void teardown(void)
{
    for (int g = 0; g < TLS_NGROUPS; g++) {
        SSL_CTX_free(S.cctx[g]);
        SSL_CTX_free(S.sctx[g]);
    }
    for (int v = 0; v < 3; v++) {
        EVP_PKEY_free(S.key[v]);
        OPENSSL_clear_free(S.der[v], S.derlen[v]);
    }
    tls_env_free(&S.tls);
}

int main(int argc, char **argv)
{
    pthread_t t[WORKERS + LOADERS];
    thread_arg args[WORKERS + LOADERS];
    int started[WORKERS + LOADERS] = { 0 };
    const char *sc = getenv("MLKEM_STRESS_SCALE");
    double t0;

    S.moddir = hard_moddir(argc, argv);
    S.scale = sc != NULL && atoi(sc) > 0 ? atoi(sc) : 1;
    if (!setup()) {
        teardown();
        return test_finish("stress_threads");
    }
    pthread_barrier_init(&load_barrier, NULL, LOADERS);
    t0 = test_now();
    for (int i = 0; i < WORKERS + LOADERS; i++) {
        args[i].id = i;
        started[i] = pthread_create(&t[i], NULL, i < WORKERS ? worker : loader,
                                    &args[i]) == 0;
        if (!TEST_CHECK(started[i], "pthread_create %d", i) && i >= WORKERS)
            return test_finish("stress_threads"); /* the barrier would hang */
    }
    for (int i = 0; i < WORKERS + LOADERS; i++)
        if (started[i])
            pthread_join(t[i], NULL);
    pthread_barrier_destroy(&load_barrier);
    printf("%d workers x %d rounds x 5 tasks, %d loaders x %d load/unload "
           "cycles: %.1f s\n", WORKERS, ROUNDS * S.scale, LOADERS,
           CYCLES * S.scale, test_now() - t0);
    teardown();
    return test_finish("stress_threads");
}
