/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand.c: the provider's randomness (FIPS 203 d, z and m, the PCT's m),
 * from its library context's private DRBG through a small per-thread
 * cache.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 19 (ML-KEM.KeyGen) lines 1-2, d and z
 *             from an approved RBG; Algorithm 20 (ML-KEM.Encaps) line 1, m;
 *             §3.3, intermediate values are destroyed after use.
 *   [SP90A]   NIST SP 800-90A Rev. 1, §9.3.1 (the generate function) and
 *             §10.2.1 Table 3 (CTR_DRBG: up to 2^19 bits per request).
 *   [OSSL]    RAND_priv_bytes_ex(3): the private DRBG, one per thread and
 *             library context.
 *
 * Why a cache. A RAND_priv_bytes_ex call costs about the same for 32 bytes
 * as for 512 (measured here, rdtsc ticks per call: OpenSSL 3.0 2.3k for 32
 * bytes, 2.4k for 512; OpenSSL 3.5 1.2k and 1.5k): the CTR-DRBG's per-call
 * work (key schedule, reseed and fork checks, which are a getpid system
 * call per request on 3.0, ~0.45k ticks here; locks) dwarfs its AES for
 * that much. ML-KEM draws 32 bytes per
 * encapsulation and 64 per key generation, so one call per 512 bytes (16
 * encapsulations) saves ~2.1k ticks per draw on 3.0 (1.1k on 3.5): a TLS
 * client keygen and a server encapsulation each, and 3-4 % of an EVP
 * keygen + encaps + decaps.
 *
 * The cache and its rules:
 *   - one per thread (C11 thread-local), so no lock; it holds bytes of one
 *     provider instance's DRBG at a time, tagged with the instance's id
 *     (unique per process, never reused: mlkem_prov_rand_new_id), so a
 *     draw never hands out another library context's bytes;
 *   - bytes are handed out once: the copy given to the caller is wiped from
 *     the cache at once, so no output of the past stays in it (the
 *     backtracking resistance of the DRBG itself). Bytes not yet handed out
 *     are future outputs, exactly what the DRBG's own state (also in
 *     ordinary memory) determines: whoever can read the process's memory
 *     learns at most the next draws of that thread (at most 16
 *     encapsulations), where the DRBG state gives them all until its next
 *     reseed. Unused bytes left at a thread's exit were never used for
 *     anything;
 *   - a forked child must not repeat its parent's bytes (the same m or d in
 *     two processes): the cache is tagged with the process's fork
 *     generation, bumped in the child by a pthread_atfork handler (fork(3))
 *     and, on Linux 4.14+, by a MADV_WIPEONFORK page that the kernel hands
 *     zeroed to any child, also one made with clone(2) directly. Where
 *     neither can be set up, the cache is not used;
 *   - a failed refill leaves the cache empty (nothing partial is used), and
 *     draws larger than a quarter of the cache go to the DRBG directly.
 * ML-KEM randomness stays in ordinary memory on its way to the kernel, as
 * before (m and d || z are on the stack during an operation); the seed the
 * application passes in, ikme, and the keys, are in the secure heap.
 */
#define _GNU_SOURCE /* MADV_WIPEONFORK in <sys/mman.h> */

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "common/ct.h"
#include "provider/prov.h"

#define RAND_CACHE_BYTES 512
#define RAND_CACHE_MAX_DRAW (RAND_CACHE_BYTES / 4)

typedef struct {
    uint64_t owner;    /* rand_id of the instance whose DRBG filled it;
                          0: empty */
    uint64_t fork_gen; /* the process's fork generation when filled */
    size_t pos;        /* bytes [pos, RAND_CACHE_BYTES) are unused */
    uint8_t bytes[RAND_CACHE_BYTES];
} rand_cache;

static _Thread_local rand_cache cache;

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

/* ---- Draws ------------------------------------------------------------------ */

static int drbg(const MLKEM_PROV_CTX *ctx, uint8_t *buf, size_t len)
{
    /* RAND_priv_bytes_ex takes an int length. */
    if (len > 0x7fffffff)
        return 0;
    return RAND_priv_bytes_ex(ctx != NULL ? ctx->libctx : NULL, buf, len,
                              0) == 1;
}

int mlkem_prov_rand(void *vctx, uint8_t *buf, size_t len)
{
    const MLKEM_PROV_CTX *ctx = vctx;
    rand_cache *c = &cache;
    uint64_t gen;

    if (ctx == NULL || ctx->rand_id == 0 || len > RAND_CACHE_MAX_DRAW
        || (gen = current_fork_gen()) == 0)
        return drbg(ctx, buf, len);
    if (c->owner != ctx->rand_id || c->fork_gen != gen
        || RAND_CACHE_BYTES - c->pos < len) {
        /* Refill. Mark the cache empty first: if the DRBG fails, nothing
         * of it is used. */
        c->owner = 0;
        if (!drbg(ctx, c->bytes, sizeof(c->bytes))) {
            mlkem_cleanse(c->bytes, sizeof(c->bytes));
            return 0;
        }
        c->owner = ctx->rand_id;
        c->fork_gen = gen;
        c->pos = 0;
    }
    memcpy(buf, c->bytes + c->pos, len);
    mlkem_cleanse(c->bytes + c->pos, len); /* handed out once */
    c->pos += len;
    return 1;
}
