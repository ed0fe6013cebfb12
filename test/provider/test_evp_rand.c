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
#define _GNU_SOURCE /* memmem, dlinfo, dl_iterate_phdr */

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

/* ==== Where the bytes come from (rand.c "Where the bytes come from") ========
 *
 * Each case gets a library context of its own, configured before its first
 * random draw, with mlkem and default loaded, and a test DRBG provider
 * registered in the test program: "MLKEM-TEST-RAND" hands out a counter
 * stream (byte i of each instance's output is stream_byte(i)), fails on
 * demand (test_rand_fail), and counts its calls. As the application's DRBG
 * (RAND_set_DRBG_type), each thread's private DRBG is an instance of it, so
 * a thread's first 512 bytes are stream_byte(0..511): the first key's
 * d || z are bytes 0-63, the next m bytes 64-95, and 416 bytes stay in the
 * provider's cache.
 *
 * Expectations by release (SECURITY.md, "Randomness"): with this module's
 * own libcrypto being the application's (3.0, 3.5), everything comes from
 * the application's DRBG. On 4.0 the module runs in its own libcrypto.so.3:
 * d, z and m come from a DRBG seeded by the application's seed source, the
 * classical halves still from the application's DRBG.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "provider/rand.h" /* MLKEM_PROV_RAND_MAX_AGE_NS */
#include "test/provider/testrand.h"

/* ---- The cases' library contexts ---- */

typedef enum {
    SRC_PLAIN,        /* nothing configured */
    SRC_MISSING_DRBG, /* RAND_set_DRBG_type: a name no provider has */
    SRC_TEST_DRBG,    /* RAND_set_DRBG_type: MLKEM-TEST-RAND */
    SRC_TEST_SEED     /* RAND_set_seed_source_type: MLKEM-TEST-RAND */
} src_kind;

static int src_open(test_env *e, const char *moddir, src_kind kind)
{
    memset(e, 0, sizeof(*e));
    if ((e->libctx = OSSL_LIB_CTX_new()) == NULL
        || !OSSL_PROVIDER_add_builtin(e->libctx, TEST_RAND_PROV,
                                      test_rand_prov_init)
        || (e->extra = OSSL_PROVIDER_load(e->libctx, TEST_RAND_PROV)) == NULL)
        goto err;
    if (kind == SRC_MISSING_DRBG
        && !RAND_set_DRBG_type(e->libctx, "NO-SUCH-DRBG", NULL, NULL, NULL))
        goto err;
    if (kind == SRC_TEST_DRBG
        && !RAND_set_DRBG_type(e->libctx, TEST_RAND_NAME, TEST_RAND_PROPQ,
                               NULL, NULL))
        goto err;
    if (kind == SRC_TEST_SEED
        && !RAND_set_seed_source_type(e->libctx, TEST_RAND_NAME,
                                      TEST_RAND_PROPQ))
        goto err;
    if (!OSSL_PROVIDER_set_default_search_path(e->libctx, moddir)
        || (e->mlkem = OSSL_PROVIDER_load(e->libctx, "mlkem")) == NULL
        || (e->deflt = OSSL_PROVIDER_load(e->libctx, "default")) == NULL)
        goto err;
    return 1;
err:
    ERR_print_errors_fp(stderr);
    TEST_CHECK(0, "random source case %d: set-up", (int)kind);
    test_env_close(e);
    return 0;
}

/* An operation that failed for lack of randomness: OpenSSL's error (the
 * cause) first, mlkem's "random generation failed" last. */
static void expect_rand_reason(int ok, const char *what)
{
    unsigned long e;
    const char *lib, *reason;

    if (!TEST_CHECK(!ok, "%s: succeeded with a failing application RNG",
                    what)) {
        ERR_clear_error();
        return;
    }
    e = ERR_peek_last_error();
    lib = ERR_lib_error_string(e);
    reason = ERR_reason_error_string(e);
    TEST_CHECK(e != 0 && lib != NULL && strcmp(lib, "mlkem") == 0
                   && reason != NULL
                   && strcmp(reason, "random generation failed") == 0,
               "%s: last error lib \"%s\" reason \"%s\", expected mlkem "
               "\"random generation failed\"", what, lib ? lib : "(null)",
               reason ? reason : "(null)");
    ERR_clear_error();
}

/* An operation that must fail for lack of randomness, for a classical
 * half (the application's provider raises its own errors). */
static void expect_rand_fail(int ok, const char *what)
{
    if (!TEST_CHECK(!ok, "%s: succeeded with a failing application RNG",
                    what))
        return;
    TEST_CHECK(ERR_peek_error() != 0, "%s: failed without an error", what);
    ERR_clear_error();
}

static int seed_of(EVP_PKEY *k, uint8_t seed[64])
{
    size_t len = 0;

    return k != NULL && evp_get_octets(k, "seed", seed, 64, &len)
           && len == 64;
}

/* The application's DRBG fails (no such DRBG): key generation and
 * encapsulation fail (3.x); the classical halves fail on every release. */
static void case_missing_drbg(const char *moddir, int same_lib)
{
    static const uint8_t fixed[64] = { 1, 2, 3 };
    uint8_t b[32], ct[1600], ss[64];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss);
    test_env e;
    EVP_PKEY *k;

    if (!src_open(&e, moddir, SRC_MISSING_DRBG))
        return;
    TEST_CHECK(RAND_bytes_ex(e.libctx, b, sizeof(b), 0) != 1,
               "control: RAND_bytes with a missing DRBG succeeded");
    ERR_clear_error();
    /* A key from a given seed needs no randomness: the encapsulation is
     * what must fail. */
    k = evp_keygen(&e, "ML-KEM-768", fixed, sizeof(fixed));
    TEST_CHECK(k != NULL, "ML-KEM-768 keygen from a seed");
    if (same_lib) {
        EVP_PKEY *r = evp_keygen(&e, "ML-KEM-768", NULL, 0);

        expect_rand_reason(r != NULL, "ML-KEM-768 keygen, missing DRBG");
        EVP_PKEY_free(r);
        expect_rand_reason(k != NULL && evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss,
                                              &sslen), "ML-KEM-768 encaps, missing DRBG");
        r = evp_keygen(&e, "X25519MLKEM768", NULL, 0);
        expect_rand_fail(r != NULL, "X25519MLKEM768 keygen, missing DRBG");
        EVP_PKEY_free(r);
    } else {
        /* 4.0 with this 3.x-built module: d, z, m are seeded from the
         * application's seed source, which works; its DRBG is out of
         * reach (SECURITY.md). */
        EVP_PKEY *r = evp_keygen(&e, "ML-KEM-768", NULL, 0);

        TEST_CHECK(r != NULL, "4.0: ML-KEM-768 keygen, missing DRBG, "
                   "expected to succeed from the seed source");
        EVP_PKEY_free(r);
        ERR_clear_error();
    }
    /* The classical halves come from the application's provider, hence its
     * DRBG, on every release. */
    EVP_PKEY *h = evp_keygen(&e, "SecP256r1MLKEM768", NULL, 0);
    expect_rand_fail(h != NULL, "SecP256r1MLKEM768 keygen, missing DRBG");
    EVP_PKEY_free(h);
    h = evp_keygen(&e, "X448MLKEM1024", NULL, 0);
    expect_rand_fail(h != NULL, "X448MLKEM1024 keygen, missing DRBG");
    EVP_PKEY_free(h);
    EVP_PKEY_free(k);
    test_env_close(&e);
}

/* openssl.cnf's [random] section names the DRBG (here one that does not
 * exist): as RAND_set_DRBG_type, it reaches our draws on 3.x. */
static void case_config_random(const char *moddir, int same_lib)
{
    char path[] = "/tmp/mlkem_randsrc_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    test_env e;
    EVP_PKEY *k;
    uint8_t b[32];
    int loaded;

    if (!TEST_CHECK(f != NULL, "[random]: temporary file"))
        return;
    fputs("openssl_conf = init\n[init]\nrandom = random_sect\n"
          "[random_sect]\nrandom = NO-SUCH-DRBG\n", f);
    fclose(f);
    memset(&e, 0, sizeof(e));
    loaded = (e.libctx = OSSL_LIB_CTX_new()) != NULL
             && OSSL_LIB_CTX_load_config(e.libctx, path)
             && OSSL_PROVIDER_set_default_search_path(e.libctx, moddir)
             && (e.mlkem = OSSL_PROVIDER_load(e.libctx, "mlkem")) != NULL
             && (e.deflt = OSSL_PROVIDER_load(e.libctx, "default")) != NULL;
    unlink(path);
    if (!TEST_CHECK(loaded, "[random]: set-up")) {
        ERR_print_errors_fp(stderr);
        test_env_close(&e);
        return;
    }
    TEST_CHECK(RAND_bytes_ex(e.libctx, b, sizeof(b), 0) != 1,
               "control: RAND_bytes with [random] random = NO-SUCH-DRBG "
               "succeeded");
    ERR_clear_error();
    k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    if (same_lib)
        expect_rand_reason(k != NULL, "ML-KEM-768 keygen, [random] names a "
                           "missing DRBG");
    else
        TEST_CHECK(k != NULL, "4.0: ML-KEM-768 keygen, [random] names a "
                   "missing DRBG, expected to succeed from the seed source");
    ERR_clear_error();
    EVP_PKEY_free(k);
    test_env_close(&e);
}

/* The encapsulation of k with m = stream bytes [from, from + 32) gives the
 * ciphertext ct (ctlen bytes). */
static int ct_uses_stream(test_env *e, EVP_PKEY *k, const uint8_t *ct,
                          size_t ctlen, uint64_t from)
{
    uint8_t m[32], ct2[1600], ss2[64];
    size_t ct2len = sizeof(ct2), ss2len = sizeof(ss2);

    for (int i = 0; i < 32; i++)
        m[i] = stream_byte(from + (uint64_t)i);
    return evp_encaps(e, k, m, sizeof(m), ct2, &ct2len, ss2, &ss2len)
           && ct2len == ctlen && memcmp(ct, ct2, ctlen) == 0;
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000u),
                           (long)(ns % 1000000000u) };

    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The application's DRBG is the test DRBG: d || z and m are its bytes, in
 * order (3.x); bytes older than the cache's age bound (1 s) are not used;
 * a failure of the DRBG reaches us at the next refill. */
static void case_test_drbg(const char *moddir, int same_lib)
{
    uint8_t seed[64], exp[64], ct[1600], ss[64];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss);
    test_env e;
    EVP_PKEY *k;
    long calls;
    int i, n;

    if (!src_open(&e, moddir, SRC_TEST_DRBG))
        return;
    calls = atomic_load(&test_rand_generates);
    k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    if (!TEST_CHECK(seed_of(k, seed), "ML-KEM-768 keygen, test DRBG")) {
        EVP_PKEY_free(k);
        test_env_close(&e);
        return;
    }
    for (i = 0; i < 64; i++)
        exp[i] = stream_byte((uint64_t)i);
    if (!same_lib) {
        TEST_CHECK(memcmp(seed, exp, 64) != 0,
                   "4.0: d || z came from the application's DRBG, expected "
                   "the provider's own");
        EVP_PKEY_free(k);
        test_env_close(&e);
        return;
    }
    evp_bytes_eq("d || z = the application DRBG's first 64 bytes", seed, 64,
                 exp, 64);
    TEST_CHECK(atomic_load(&test_rand_generates) == calls + 1,
               "keygen: %ld DRBG calls, expected 1 (a 512-byte refill)",
               atomic_load(&test_rand_generates) - calls);
    /* From the cache: no DRBG call, m = bytes 64..95. */
    TEST_CHECK(evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss, &sslen)
                   && ct_uses_stream(&e, k, ct, ctlen, 64),
               "encaps: m is not the DRBG's bytes 64..95");
    TEST_CHECK(atomic_load(&test_rand_generates) == calls + 1,
               "encaps from the cache called the DRBG");
    /* Past the age bound: a refill, and m = bytes 512..543 (the same
     * thread's private DRBG continues its stream), not 96..127. */
    sleep_ns(MLKEM_PROV_RAND_MAX_AGE_NS + MLKEM_PROV_RAND_MAX_AGE_NS / 5);
    ctlen = sizeof(ct);
    sslen = sizeof(ss);
    TEST_CHECK(evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss, &sslen),
               "encaps after the age bound");
    TEST_CHECK(atomic_load(&test_rand_generates) == calls + 2,
               "encaps after %.1f s: %ld DRBG calls in all, expected 2 "
               "(stale bytes used)", MLKEM_PROV_RAND_MAX_AGE_NS * 1.2e-9,
               atomic_load(&test_rand_generates) - calls);
    TEST_CHECK(ct_uses_stream(&e, k, ct, ctlen, 512)
                   && !ct_uses_stream(&e, k, ct, ctlen, 96),
               "encaps after the age bound: m is not the refill's first "
               "32 bytes");
    /* The DRBG starts failing: within the cache's 15 remaining draws an
     * encapsulation fails, with our reason, and the next one too. */
    atomic_store(&test_rand_fail, 1);
    for (n = 0; n < 20; n++) {
        ctlen = sizeof(ct);
        sslen = sizeof(ss);
        if (!evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss, &sslen))
            break;
    }
    /* 15 unless a second passed (a slow emulator): then fewer. */
    TEST_CHECK(n <= 15, "failing DRBG: %d encapsulations, expected at most "
               "the cache's 15", n);
    if (n < 20)
        expect_rand_reason(0, "encaps, failing DRBG");
    ctlen = sizeof(ct);
    expect_rand_reason(evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss, &sslen), "encaps, DRBG still failing");
    atomic_store(&test_rand_fail, 0);
    ctlen = sizeof(ct);
    sslen = sizeof(ss);
    TEST_CHECK(evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss, &sslen),
               "encaps once the DRBG works again");
    EVP_PKEY_free(k);
    test_env_close(&e);
}

/* The application's seed source is the test DRBG, failing: on 3.x the
 * application's DRBG cannot instantiate, on 4.0 the provider's own DRBG
 * cannot seed: key generation fails either way. Working, it is what seeds
 * the provider's DRBG on 4.0 (it is called). */
static void case_test_seed(const char *moddir, int same_lib)
{
    uint8_t b[32];
    test_env e;
    EVP_PKEY *k;
    long seeds;

    if (!src_open(&e, moddir, SRC_TEST_SEED))
        return;
    atomic_store(&test_rand_fail, 1);
    TEST_CHECK(RAND_bytes_ex(e.libctx, b, sizeof(b), 0) != 1,
               "control: RAND_bytes with a failing seed source succeeded");
    ERR_clear_error();
    k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    expect_rand_reason(k != NULL, "ML-KEM-768 keygen, failing seed source");
    EVP_PKEY_free(k);
    atomic_store(&test_rand_fail, 0);
    seeds = atomic_load(&test_rand_attempts);
    k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    TEST_CHECK(k != NULL, "ML-KEM-768 keygen, working seed source");
    if (!same_lib)
        TEST_CHECK(atomic_load(&test_rand_attempts) > seeds,
                   "4.0: the provider's DRBG did not seed from the "
                   "application's seed source");
    ERR_clear_error();
    EVP_PKEY_free(k);
    test_env_close(&e);
}

/* ---- Wipes: the cache at thread exit and at unload ----
 * The calling thread's TLS block of mlkem.so (dlinfo RTLD_DI_TLS_DATA,
 * glibc) holds the cache. After one keygen and one encapsulation with the
 * test DRBG it holds stream_byte(96..511); each 16-byte piece of those 416
 * bytes is looked for in the block: all 26 before (the control: this is
 * the block and those are its bytes), none after. */
#define PIECES (416 / 16)

static void *mod_handle;
static size_t mod_tls_size;

static int find_tls(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name == NULL || strstr(info->dlpi_name, "/mlkem.so") == NULL)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS)
            mod_tls_size = info->dlpi_phdr[i].p_memsz;
    return 1;
}

static int mod_open(const char *moddir)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/mlkem.so", moddir);
    if (mod_handle == NULL)
        mod_handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (mod_tls_size == 0)
        dl_iterate_phdr(find_tls, NULL);
    return TEST_CHECK(mod_handle != NULL && mod_tls_size > 0,
                      "%s: no handle or no TLS segment", path);
}

/* Pieces of stream bytes 96..511 in this thread's block; -1 without one. */
static int pieces_in_block(void)
{
    uint8_t pat[416];
    void *blk = NULL;
    int n = 0;

    if (dlinfo(mod_handle, RTLD_DI_TLS_DATA, &blk) != 0 || blk == NULL)
        return -1;
    for (int i = 0; i < 416; i++)
        pat[i] = stream_byte(96 + (uint64_t)i);
    for (int i = 0; i < PIECES; i++)
        n += memmem(blk, mod_tls_size, pat + 16 * i, 16) != NULL;
    return n;
}

/* One keygen and one encapsulation: 96 of the first 512 bytes. */
static int draw_96(test_env *e)
{
    uint8_t K[32];
    EVP_PKEY *k = evp_keygen(e, "ML-KEM-768", NULL, 0);
    int ok = k != NULL && encaps_k(e, k, K);

    EVP_PKEY_free(k);
    return ok;
}

typedef struct {
    test_env *e;
    int drew, before, after;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int ready, go;
} wipe_arg;

static pthread_key_t probe_key;

/* Runs after rand.c's destructor (glibc runs them in key order, and this
 * key was made after rand.c's), before the block is freed. */
static void probe_at_exit(void *p)
{
    wipe_arg *a = p;

    a->after = pieces_in_block();
}

static void *exit_thread(void *v)
{
    wipe_arg *a = v;

    a->drew = draw_96(a->e);
    a->before = pieces_in_block();
    pthread_setspecific(probe_key, a);
    return NULL;
}

static void case_thread_exit(const char *moddir)
{
    wipe_arg a;
    test_env e;
    pthread_t t;

    if (!mod_open(moddir) || !src_open(&e, moddir, SRC_TEST_DRBG))
        return;
    memset(&a, 0, sizeof(a));
    a.e = &e;
    a.after = -2;
    /* rand.c's key exists once this thread has drawn. */
    TEST_CHECK(draw_96(&e), "thread exit: the main thread's draws");
    if (TEST_CHECK(pthread_key_create(&probe_key, probe_at_exit) == 0,
                   "pthread_key_create")
        && TEST_CHECK(pthread_create(&t, NULL, exit_thread, &a) == 0,
                      "pthread_create")) {
        pthread_join(t, NULL);
        TEST_CHECK(a.drew && a.before == PIECES,
                   "thread exit control: %d of %d pieces of the unused "
                   "bytes in the thread's block", a.before, PIECES);
        TEST_CHECK(a.after == 0,
                   "thread exit: %d of %d pieces of the unused bytes left "
                   "in the exiting thread's block", a.after, PIECES);
        pthread_key_delete(probe_key);
    }
    test_env_close(&e);
}

static void *unload_thread(void *v)
{
    wipe_arg *a = v;

    a->drew = draw_96(a->e);
    a->before = pieces_in_block();
    /* This thread outlives the library context: its per-thread DRBGs there
     * must go now (OpenSSL frees them at thread exit otherwise, after the
     * context; 3.0's OPENSSL_thread_stop_ex(3)). rand.c's cache is not
     * OpenSSL's: this leaves it as it is. */
    OPENSSL_thread_stop_ex(a->e->libctx);
    pthread_mutex_lock(&a->mu);
    a->ready = 1;
    pthread_cond_broadcast(&a->cv);
    while (!a->go)
        pthread_cond_wait(&a->cv, &a->mu);
    pthread_mutex_unlock(&a->mu);
    a->after = pieces_in_block();
    return NULL;
}

/* Both the unloading thread's cache and a live other thread's. */
static void case_unload(const char *moddir)
{
    wipe_arg a;
    test_env e;
    pthread_t t;
    int before, after;

    if (!mod_open(moddir) || !src_open(&e, moddir, SRC_TEST_DRBG))
        return;
    memset(&a, 0, sizeof(a));
    a.e = &e;
    pthread_mutex_init(&a.mu, NULL);
    pthread_cond_init(&a.cv, NULL);
    if (!TEST_CHECK(pthread_create(&t, NULL, unload_thread, &a) == 0,
                    "pthread_create")) {
        test_env_close(&e);
        return;
    }
    pthread_mutex_lock(&a.mu);
    while (!a.ready)
        pthread_cond_wait(&a.cv, &a.mu);
    pthread_mutex_unlock(&a.mu);
    TEST_CHECK(draw_96(&e), "unload: the main thread's draws");
    before = pieces_in_block();
    test_env_close(&e); /* the instance's teardown */
    after = pieces_in_block();
    pthread_mutex_lock(&a.mu);
    a.go = 1;
    pthread_cond_broadcast(&a.cv);
    pthread_mutex_unlock(&a.mu);
    pthread_join(t, NULL);
    TEST_CHECK(before == PIECES && a.drew && a.before == PIECES,
               "unload control: %d and %d of %d pieces in the blocks",
               before, a.before, PIECES);
    TEST_CHECK(after == 0, "unload: %d of %d pieces left in the unloading "
               "thread's block", after, PIECES);
    TEST_CHECK(a.after == 0, "unload: %d of %d pieces left in another live "
               "thread's block", a.after, PIECES);
    pthread_mutex_destroy(&a.mu);
    pthread_cond_destroy(&a.cv);
}

void evp_suite_rand_source(const char *moddir, const char *version)
{
    void *crypto_malloc;
    int same_lib;

    /* rand.c's test: is the module's CRYPTO_malloc ours? A 3.x-built module
     * shares the application's libcrypto on 3.x; on 4.0 it runs in a
     * libcrypto.so.3 of its own, a 4.0-built one (checked by hand) in
     * 4.0's. */
    if (!mod_open(moddir))
        return;
    crypto_malloc = dlsym(mod_handle, "CRYPTO_malloc");
    same_lib = crypto_malloc == (void *)CRYPTO_malloc;
    printf("   the module's libcrypto is %s\n",
           same_lib ? "the application's" : "another");
    if (strncmp(version, "3.", 2) == 0)
        TEST_CHECK(same_lib, "OpenSSL %s: the module's CRYPTO_malloc is "
                   "not the application's", version);

    case_missing_drbg(moddir, same_lib);
    case_config_random(moddir, same_lib);
    case_test_seed(moddir, same_lib);
    case_test_drbg(moddir, same_lib);
    if (same_lib) {
        case_thread_exit(moddir);
        case_unload(moddir);
    }
}
