/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_rand.c: the provider's randomness (provider/rand.c, a
 * per-thread cache over the private DRBG) never hands out the same bytes
 * twice: not in one thread, not in two threads, and not in a parent and
 * its forked child (where a cache copied by fork would give both
 * processes the same m, hence the same shared secret, or the same d and z,
 * hence the same key).
 *
 * Each check compares what two draws produced: ML-KEM shared secrets of
 * encapsulations with random m (K is a function of m and ek), and the
 * encapsulation keys of random keygens (ek is a function of d). For
 * X25519MLKEM768 the ML-KEM half of the secret is compared (its X25519 half
 * comes from the default provider).
 */
#include "test/provider/evp_util.h"

#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DRAWS 48      /* three refills of a 512-byte cache with 32-byte m */
#define THREADS 4
#define THREAD_DRAWS 20

/* ML-KEM part of the shared secret: the first 32 bytes for ML-KEM and for
 * X25519MLKEM768 (ML-KEM first). */
static int encaps_k(test_env *e, EVP_PKEY *k, uint8_t K[32])
{
    uint8_t ct[1600], ss[64];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss);

    if (!evp_encaps(e, k, NULL, 0, ct, &ctlen, ss, &sslen) || sslen < 32)
        return 0;
    memcpy(K, ss, 32);
    return 1;
}

static int keygen_ek(test_env *e, const char *alg, uint8_t ek[32])
{
    uint8_t buf[1600];
    size_t len = 0;
    EVP_PKEY *k = evp_keygen(e, alg, NULL, 0);
    int ok = k != NULL && evp_get_octets(k, "encoded-pub-key", buf,
                                         sizeof(buf), &len) && len >= 32;

    if (ok)
        memcpy(ek, buf, 32);
    EVP_PKEY_free(k);
    return ok;
}

/* 1 if no two of the n 32-byte values are equal. */
static int all_distinct(const uint8_t (*v)[32], size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (memcmp(v[i], v[j], 32) == 0)
                return 0;
    return 1;
}

static void one_thread(test_env *e)
{
    static uint8_t K[DRAWS][32], ek[DRAWS][32];
    EVP_PKEY *k = evp_keygen(e, "ML-KEM-768", NULL, 0);
    size_t n = 0, m = 0;

    if (!TEST_CHECK(k != NULL, "ML-KEM-768 keygen"))
        return;
    while (n < DRAWS && encaps_k(e, k, K[n]))
        n++;
    /* Keygens draw 64 bytes; interleave a few with the encapsulations. */
    while (m < DRAWS / 4 && keygen_ek(e, "ML-KEM-768", ek[m]))
        m++;
    TEST_CHECK(n == DRAWS && m == DRAWS / 4, "draws (%zu, %zu)", n, m);
    TEST_CHECK(all_distinct((const uint8_t (*)[32])K, n),
               "%zu encapsulations: a shared secret repeats", n);
    TEST_CHECK(all_distinct((const uint8_t (*)[32])ek, m),
               "%zu keygens: an encapsulation key repeats", m);
    EVP_PKEY_free(k);
}

typedef struct {
    test_env *e;
    EVP_PKEY *k;
    uint8_t K[THREAD_DRAWS][32];
    int n;
} thread_arg;

static void *thread_draws(void *varg)
{
    thread_arg *a = varg;

    for (a->n = 0; a->n < THREAD_DRAWS && encaps_k(a->e, a->k, a->K[a->n]);)
        a->n++;
    return NULL;
}

static void threads(test_env *e)
{
    static thread_arg arg[THREADS];
    static uint8_t all[THREADS * THREAD_DRAWS][32];
    pthread_t tid[THREADS];
    EVP_PKEY *k = evp_keygen(e, "ML-KEM-512", NULL, 0);
    size_t n = 0;
    int started = 0;

    if (!TEST_CHECK(k != NULL, "ML-KEM-512 keygen"))
        return;
    for (int t = 0; t < THREADS; t++) {
        arg[t].e = e;
        arg[t].k = k;
        if (pthread_create(&tid[t], NULL, thread_draws, &arg[t]) == 0)
            started++;
        else
            break;
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    TEST_CHECK(started == THREADS, "%d of %d threads started", started,
               THREADS);
    for (int t = 0; t < started; t++) {
        TEST_CHECK(arg[t].n == THREAD_DRAWS, "thread %d: %d draws", t,
                   arg[t].n);
        for (int i = 0; i < arg[t].n; i++)
            memcpy(all[n++], arg[t].K[i], 32);
    }
    TEST_CHECK(all_distinct((const uint8_t (*)[32])all, n),
               "%zu encapsulations in %d threads: a shared secret repeats", n,
               started);
    EVP_PKEY_free(k);
}

/* Parent and child each encapsulate to k and make a key after the fork,
 * with the parent's cache (filled by the warm-up before) copied into the
 * child: the child's K and ek must differ from the parent's. */
static void fork_case(test_env *e, const char *alg, int round)
{
    uint8_t K[32], ek[32], child[64];
    EVP_PKEY *k = evp_keygen(e, alg, NULL, 0);
    int fd[2], status = 0;
    ssize_t got = 0;
    pid_t pid;

    if (!TEST_CHECK(k != NULL && encaps_k(e, k, K) && pipe(fd) == 0,
                    "%s: set-up", alg)) {
        EVP_PKEY_free(k);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) == 0) {
        uint8_t out[64];
        int ok = encaps_k(e, k, out) && keygen_ek(e, alg, out + 32);

        close(fd[0]);
        if (ok && write(fd[1], out, sizeof(out)) != (ssize_t)sizeof(out))
            ok = 0;
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    if (!TEST_CHECK(pid > 0, "%s: fork", alg)) {
        close(fd[0]);
        EVP_PKEY_free(k);
        return;
    }
    TEST_CHECK(encaps_k(e, k, K) && keygen_ek(e, alg, ek),
               "%s: parent draws after the fork", alg);
    while (got < (ssize_t)sizeof(child)) {
        ssize_t r = read(fd[0], child + got, sizeof(child) - (size_t)got);
        if (r <= 0)
            break;
        got += r;
    }
    close(fd[0]);
    waitpid(pid, &status, 0);
    if (TEST_CHECK(got == (ssize_t)sizeof(child) && WIFEXITED(status)
                       && WEXITSTATUS(status) == 0,
                   "%s: the child's draws (%zd bytes, status %d)", alg, got,
                   status)) {
        TEST_CHECK(memcmp(K, child, 32) != 0,
                   "%s round %d: parent and forked child got the same "
                   "shared secret", alg, round);
        TEST_CHECK(memcmp(ek, child + 32, 32) != 0,
                   "%s round %d: parent and forked child made the same key",
                   alg, round);
    }
    EVP_PKEY_free(k);
}

void evp_suite_rand(test_env *e)
{
    one_thread(e);
    threads(e);
    for (int round = 0; round < 3; round++) {
        fork_case(e, "ML-KEM-768", round);
        fork_case(e, "X25519MLKEM768", round);
    }
}
