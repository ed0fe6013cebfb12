/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand.c: the provider's randomness (FIPS 203 d, z and m, the PCT's m, the
 * X25519 private key of X25519MLKEM768), from the application's random
 * generator through a small per-thread cache.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 19 (ML-KEM.KeyGen) lines 1-2, d and z
 *             from an approved RBG; Algorithm 20 (ML-KEM.Encaps) line 1, m;
 *             §3.3, intermediate values are destroyed after use.
 *   [SP90A]   NIST SP 800-90A Rev. 1, §9.3.1 (the generate function) and
 *             §10.2.1 Table 3 (CTR_DRBG: up to 2^19 bits per request).
 *   [OSSL]    RAND_priv_bytes_ex(3): the private DRBG, one per thread and
 *             library context; provider-base(7): core_get_libctx,
 *             core_get_user_entropy, core_thread_start; EVP_RAND(7).
 *
 * Where the bytes come from (SECURITY.md, "Randomness", has the table per
 * OpenSSL release). OpenSSL's own ML-KEM (3.5+) draws with
 * RAND_priv_bytes_ex on the application's library context; a provider
 * outside libcrypto gets that context only as the core's opaque
 * core_get_libctx, which provider-base(7) forbids casting "as the
 * OSSL_LIB_CTX of the library loading the provider might be a completely
 * different structure than the OSSL_LIB_CTX of the library the provider is
 * linked to". mlkem_prov_rand_init tells the two cases apart:
 *   - one libcrypto in the process (3.0, 3.5, 3.6 with this module; 4.0
 *     with a module built against 4.0): the core's CRYPTO_malloc upcall is
 *     the very CRYPTO_malloc our references bind to. Then the context is
 *     ours to use, and every draw is RAND_priv_bytes_ex on it: the
 *     application's private DRBG, whatever it is (a `[random]` section,
 *     RAND_set_DRBG_type, RAND_set_seed_source_type, a FIPS provider's
 *     DRBG, 3.5's random provider, a test DRBG), and its failure is ours;
 *   - two libraries (this 3.x-built module in OpenSSL 4.0, which loads
 *     libcrypto.so.3 next to 4.0's libcrypto.so.4; an application with a
 *     static libcrypto): no OpenSSL call of ours reaches the application's
 *     DRBG. What the provider interface offers is the seed: a DRBG the
 *     core's entropy upcalls seed, as the FIPS provider's are. drbg_new
 *     makes one from the application's own provider (fetched in our child
 *     context: a mirrored provider runs with its parent's provider context
 *     and handle), so it seeds from the application's seed source on 3.2+
 *     (get_user_entropy: a configured `seed`, JITTER, a test source), from
 *     the operating system on 3.0 and 3.1 cores;
 *   - the hybrids' classical keys other than X25519 (P-256, P-384, X448)
 *     are made by the application's provider through our child context,
 *     which again runs with the application's provider context: they come
 *     from the application's private DRBG in both cases.
 * Before this, every draw was RAND_priv_bytes_ex on our child library
 * context, whose DRBG chain is its own, seeded from the operating system:
 * a DRBG the application configured, or one that failed, did not matter.
 *
 * Why a cache. A RAND_priv_bytes_ex call costs about the same for 32 bytes
 * as for 512 (measured here, rdtsc ticks per call: OpenSSL 3.0 2.3k for 32
 * bytes, 2.4k for 512; OpenSSL 3.5 1.2k and 1.5k): the CTR-DRBG's per-call
 * work (key schedule, reseed and fork checks, which are a getpid system
 * call per request on 3.0, ~0.45k ticks here; locks) dwarfs its AES for
 * that much. ML-KEM draws 32 bytes per encapsulation and 64 per key
 * generation, so one call per 512 bytes (16 encapsulations) saves ~2.1k
 * ticks per draw on 3.0 (1.1k on 3.5): a TLS client keygen and a server
 * encapsulation each, and 3-4 % of an EVP keygen + encaps + decaps.
 *
 * The cache and its rules:
 *   - one per thread (C11 thread-local); it holds bytes of one provider
 *     instance's source at a time, tagged with the instance's id (unique
 *     per process, never reused: mlkem_prov_rand_new_id), so a draw never
 *     hands out another library context's bytes;
 *   - bytes are handed out once: the copy given to the caller is wiped from
 *     the cache at once, so no output of the past stays in it (the
 *     backtracking resistance of the DRBG itself). Bytes not yet handed out
 *     are future outputs, exactly what the DRBG's own state (also in
 *     ordinary memory) determines: whoever can read the process's memory
 *     learns at most the next draws of that thread (at most 16
 *     encapsulations);
 *   - they expire: bytes filled more than MLKEM_PROV_RAND_MAX_AGE_NS (1 s)
 *     ago are replaced, not handed out, so one reading of memory predicts
 *     nothing drawn a second later, and a DRBG reseed (7 minutes or 2^16
 *     requests for OpenSSL's private DRBG) reaches our draws within a
 *     second. Time rather than the DRBG's reseed counter: a coarse
 *     monotonic clock is a vDSO read, the counter a locked
 *     EVP_RAND_CTX_get_params per draw, and the reseed of the private DRBG
 *     alone would not bound the age of the bytes;
 *   - they are wiped when they can no longer be used: at the thread's exit
 *     (a pthread key destructor; OpenSSL's core_thread_start would also do,
 *     but needs one registration per thread and instance) and at the
 *     instance's teardown (mlkem_prov_rand_teardown, every thread's cache
 *     through a registry). A thread whose cache cannot be registered does
 *     not cache;
 *   - a forked child must not repeat its parent's bytes (the same m or d in
 *     two processes): the cache is tagged with the process's fork
 *     generation, bumped in the child by a pthread_atfork handler (fork(3))
 *     and, on Linux 4.14+, by a MADV_WIPEONFORK page that the kernel hands
 *     zeroed to any child, also one made with clone(2) directly. Where
 *     neither can be set up, the cache is not used;
 *   - a failed refill leaves the cache empty (nothing partial is used), and
 *     draws larger than a quarter of the cache go to the source directly.
 * ML-KEM randomness stays in ordinary memory on its way to the kernel, as
 * before (m and d || z are on the stack during an operation); the seed the
 * application passes in, ikme, and the keys, are in the secure heap.
 */
#define _GNU_SOURCE /* MADV_WIPEONFORK in <sys/mman.h> */

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "common/ct.h"
#include "provider/prov.h"
#include "provider/rand.h"

#define RAND_CACHE_BYTES 512
#define RAND_CACHE_MAX_DRAW (RAND_CACHE_BYTES / 4)

/* ---- Sources ---------------------------------------------------------------- */

struct mlkem_prov_rand {
    /* Same library: the application's library context (the core's), whose
     * private DRBG serves every draw. NULL otherwise. */
    OSSL_LIB_CTX *app;
    /* Another library: a CTR-DRBG of the application's own provider,
     * fetched in our child library context and instantiated without a
     * parent, so that it seeds through the core's entropy upcalls
     * (drbg_new). Created at the first draw, shared by the threads. */
    OSSL_LIB_CTX *child;
    pthread_mutex_t lock;
    EVP_RAND_CTX *drbg;
};

int mlkem_prov_rand_init(MLKEM_PROV_CTX *ctx, const OSSL_DISPATCH *in)
{
    OSSL_FUNC_core_get_libctx_fn *get_libctx = NULL;
    void (*core_malloc)(void) = NULL;
    struct mlkem_prov_rand *r;

    for (; in != NULL && in->function_id != 0; in++) {
        if (in->function_id == OSSL_FUNC_CORE_GET_LIBCTX)
            get_libctx = OSSL_FUNC_core_get_libctx(in);
        else if (in->function_id == OSSL_FUNC_CRYPTO_MALLOC)
            core_malloc = in->function;
    }
    if ((r = OPENSSL_zalloc(sizeof(*r))) == NULL)
        return 0;
    /* provider-base(7): the core's library context may be cast to an
     * OSSL_LIB_CTX only by a provider of the same library. The core hands
     * its own CRYPTO_malloc to every provider: the same function as the one
     * our references bind to proves one libcrypto in the process for both
     * (a 3.x-built module in OpenSSL 4.0, or an application with a static
     * libcrypto, has two and fails the test). */
    if (get_libctx != NULL && core_malloc != NULL
        && core_malloc == (void (*)(void))CRYPTO_malloc)
        r->app = (OSSL_LIB_CTX *)get_libctx(ctx->handle);
    if (r->app == NULL) {
        if (pthread_mutex_init(&r->lock, NULL) != 0) {
            OPENSSL_free(r);
            return 0;
        }
        r->child = ctx->libctx;
    }
    ctx->rand = r;
    return 1;
}

/* A CTR-DRBG (AES-256) from the application's provider, through the child
 * context (a mirrored provider runs with its parent's provider context).
 * Without a parent, OpenSSL's DRBG implementation (drbg.c get_entropy,
 * 3.0 to 4.0) takes its entropy and nonce from the core's upcalls:
 * get_user_entropy / get_user_nonce on 3.2+, the application's seed
 * source; get_entropy / get_nonce on 3.0 and 3.1, the operating system. */
static EVP_RAND_CTX *drbg_new(OSSL_LIB_CTX *child)
{
    static const unsigned char pers[] = "mlkem provider d, z, m";
    EVP_RAND *alg = EVP_RAND_fetch(child, "CTR-DRBG", NULL);
    EVP_RAND_CTX *d = alg != NULL ? EVP_RAND_CTX_new(alg, NULL) : NULL;
    OSSL_PARAM params[2];

    EVP_RAND_free(alg);
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER,
                                                 (char *)"AES-256-CTR", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (d != NULL
        && !EVP_RAND_instantiate(d, 256, 0, pers, sizeof(pers) - 1, params)) {
        EVP_RAND_CTX_free(d);
        d = NULL;
    }
    return d;
}

static int source(const MLKEM_PROV_CTX *ctx, uint8_t *buf, size_t len)
{
    struct mlkem_prov_rand *r = ctx != NULL ? ctx->rand : NULL;
    int ok = 0;

    if (r == NULL || r->app != NULL) {
        /* RAND_priv_bytes_ex takes an int length on 3.0 (size_t later).
         * Without mlkem_prov_rand_init: the child context's DRBG. */
        if (len > 0x7fffffff)
            return 0;
        return RAND_priv_bytes_ex(r != NULL ? r->app
                                  : ctx != NULL ? ctx->libctx : NULL,
                                  buf, len, 0) == 1;
    }
    if (pthread_mutex_lock(&r->lock) != 0)
        return 0;
    if (r->drbg == NULL)
        r->drbg = drbg_new(r->child);
    if (r->drbg != NULL)
        ok = EVP_RAND_generate(r->drbg, buf, len, 0, 0, NULL, 0) == 1;
    pthread_mutex_unlock(&r->lock);
    return ok;
}

/* ---- Instance ids ------------------------------------------------------- */

static atomic_uint_fast64_t next_rand_id = 1;

uint64_t mlkem_prov_rand_new_id(void)
{
    return (uint64_t)atomic_fetch_add(&next_rand_id, 1);
}

/* ---- Fork detection ------------------------------------------------------- */

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static atomic_uint_fast64_t fork_gen = 1; /* an empty cache has 0 */
static atomic_int *wipe_page;  /* 1 in this process; 0 in a forked child */
static int fork_detection;     /* 1 if atfork or the page is set up */

static void on_fork_child(void)
{
    atomic_fetch_add(&fork_gen, 1);
    if (wipe_page != NULL)
        atomic_store(wipe_page, 1);
}

static void fork_init(void)
{
    if (pthread_atfork(NULL, NULL, on_fork_child) == 0)
        fork_detection = 1;
#if defined(MADV_WIPEONFORK)
    {
        long page = sysconf(_SC_PAGESIZE);
        void *p = page > 0 ? mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                           : MAP_FAILED;

        if (p != MAP_FAILED) {
            if (madvise(p, (size_t)page, MADV_WIPEONFORK) == 0) {
                wipe_page = p; /* kept for the life of the process */
                atomic_store(wipe_page, 1);
                fork_detection = 1;
            } else {
                munmap(p, (size_t)page);
            }
        }
    }
#endif
}

/* The current fork generation, or 0 when forks cannot be detected. */
static uint64_t current_fork_gen(void)
{
    if (pthread_once(&fork_once, fork_init) != 0 || !fork_detection)
        return 0;
    /* A child the kernel made without fork(3)'s handlers (clone(2)) finds
     * the page zeroed. Two threads of such a child may both bump the
     * generation: that only costs one more refill. */
    if (wipe_page != NULL && atomic_load(wipe_page) == 0) {
        atomic_store(wipe_page, 1);
        atomic_fetch_add(&fork_gen, 1);
    }
    return (uint64_t)atomic_load(&fork_gen);
}

/* ---- The per-thread cache ------------------------------------------------------ */

typedef struct rand_cache {
    /* Held by the owning thread while it uses the cache, and by a teardown
     * while it wipes it (which only tries: it never waits, see
     * mlkem_prov_rand_teardown). */
    atomic_bool busy;
    int registered;    /* in the registry, with a thread-exit destructor */
    uint64_t owner;    /* rand_id of the instance whose source filled it;
                          0: empty */
    uint64_t fork_gen; /* the process's fork generation when filled */
    uint64_t filled;   /* monotonic time of the fill, ns */
    size_t pos;        /* bytes [pos, RAND_CACHE_BYTES) are unused */
    struct rand_cache *prev, *next; /* the registry (reg_lock) */
    uint8_t bytes[RAND_CACHE_BYTES];
} rand_cache;

static _Thread_local rand_cache cache;

/* Every thread's cache that may hold bytes, for the teardown's wipe; a
 * thread joins at its first fill and leaves at its exit. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static rand_cache *reg_head;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static int exit_key_ok;

static void cache_wipe(rand_cache *c)
{
    mlkem_cleanse(c->bytes, sizeof(c->bytes));
    c->owner = 0;
    c->pos = RAND_CACHE_BYTES;
}

/* pthread key destructor: the thread is exiting (its cache is freed after
 * this returns). The module is linked -z nodelete, so this code outlives
 * every unload and the key is never deleted. */
static void on_thread_exit(void *p)
{
    rand_cache *c = p;

    pthread_mutex_lock(&reg_lock);
    if (c->prev != NULL)
        c->prev->next = c->next;
    else
        reg_head = c->next;
    if (c->next != NULL)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
    c->registered = 0;
    pthread_mutex_unlock(&reg_lock);
    cache_wipe(c);
}

/* No thread holds reg_lock in a forked child. */
static void reg_prepare(void)
{
    pthread_mutex_lock(&reg_lock);
}

static void reg_release(void)
{
    pthread_mutex_unlock(&reg_lock);
}

static void exit_init(void)
{
    if (pthread_atfork(reg_prepare, reg_release, reg_release) == 0
        && pthread_key_create(&exit_key, on_thread_exit) == 0)
        exit_key_ok = 1;
}

/* 1 when the cache is in the registry with its destructor set; a cache
 * that could not be is never used. */
static int cache_register(rand_cache *c)
{
    if (c->registered)
        return 1;
    if (pthread_once(&exit_once, exit_init) != 0 || !exit_key_ok)
        return 0;
    pthread_mutex_lock(&reg_lock);
    c->prev = NULL;
    c->next = reg_head;
    if (reg_head != NULL)
        reg_head->prev = c;
    reg_head = c;
    c->registered = 1;
    pthread_mutex_unlock(&reg_lock);
    if (pthread_setspecific(exit_key, c) != 0) {
        on_thread_exit(c);
        return 0;
    }
    return 1;
}

/* Monotonic nanoseconds (a coarse clock: a vDSO read, ~1-4 ms steps), 0 if
 * there is none. */
static uint64_t now_ns(void)
{
    struct timespec ts;
#if defined(CLOCK_MONOTONIC_COARSE)
    clockid_t id = CLOCK_MONOTONIC_COARSE;
#else
    clockid_t id = CLOCK_MONOTONIC;
#endif

    if (clock_gettime(id, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 1;
}

int mlkem_prov_rand(void *vctx, uint8_t *buf, size_t len)
{
    const MLKEM_PROV_CTX *ctx = vctx;
    rand_cache *c = &cache;
    uint64_t gen, now;

    if (ctx == NULL || ctx->rand_id == 0 || len > RAND_CACHE_MAX_DRAW
        || (gen = current_fork_gen()) == 0 || !cache_register(c)
        || (now = now_ns()) == 0)
        return source(ctx, buf, len);
    while (atomic_exchange_explicit(&c->busy, 1, memory_order_acquire))
        ; /* a teardown wiping it: a memset */
    if (c->owner != ctx->rand_id || c->fork_gen != gen
        || RAND_CACHE_BYTES - c->pos < len
        || now - c->filled > MLKEM_PROV_RAND_MAX_AGE_NS) {
        /* Refill. Mark the cache empty first: if the source fails, nothing
         * of it is used. */
        c->owner = 0;
        if (!source(ctx, c->bytes, sizeof(c->bytes))) {
            cache_wipe(c);
            atomic_store_explicit(&c->busy, 0, memory_order_release);
            return 0;
        }
        c->owner = ctx->rand_id;
        c->fork_gen = gen;
        c->filled = now;
        c->pos = 0;
    }
    memcpy(buf, c->bytes + c->pos, len);
    mlkem_cleanse(c->bytes + c->pos, len); /* handed out once */
    c->pos += len;
    atomic_store_explicit(&c->busy, 0, memory_order_release);
    return 1;
}

/* ---- Teardown ----------------------------------------------------------------- */

void mlkem_prov_rand_teardown(MLKEM_PROV_CTX *ctx)
{
    struct mlkem_prov_rand *r;
    rand_cache *c;

    if (ctx == NULL)
        return;
    /* Wipe the instance's bytes from every thread's cache. A cache that is
     * busy is being used for another instance (this one is being freed, so
     * none of its operations runs), and a refill for another instance
     * overwrites all of it: the teardown never waits for it, so it cannot
     * deadlock on a lock the core holds around it. */
    pthread_mutex_lock(&reg_lock);
    for (c = reg_head; c != NULL; c = c->next) {
        if (atomic_exchange_explicit(&c->busy, 1, memory_order_acquire))
            continue;
        if (c->owner == ctx->rand_id)
            cache_wipe(c);
        atomic_store_explicit(&c->busy, 0, memory_order_release);
    }
    pthread_mutex_unlock(&reg_lock);
    if ((r = ctx->rand) == NULL)
        return;
    if (r->app == NULL) {
        EVP_RAND_CTX_free(r->drbg); /* OpenSSL wipes its state */
        pthread_mutex_destroy(&r->lock);
    }
    OPENSSL_free(r);
    ctx->rand = NULL;
}
