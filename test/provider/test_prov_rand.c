/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_prov_rand.c: provider/rand.c compiled into the test, with core
 * dispatch tables of the test's making, so that both of its sources run
 * on any OpenSSL (test_evp_rand.c reaches the second only on 4.0):
 *   - "same library": the table's CRYPTO_malloc is the process's, so the
 *     table's core_get_libctx answer is used as the application's context:
 *     draws are that context's private DRBG (here the test DRBG, whose
 *     stream they must equal);
 *   - "another library": the table's CRYPTO_malloc is some other function,
 *     so rand.c makes its own CTR-DRBG from the providers of ctx->libctx
 *     (standing for the child context), which seeds through the core's
 *     entropy upcalls of that provider: on 3.2+ the context's seed source
 *     (a failing test seed source fails the draw), on 3.0 the operating
 *     system. Its draws are not the application's DRBG's, and an
 *     application DRBG that does not exist does not stop them.
 *
 * Usage: test_prov_rand [3.0|3.5]: the release it must run on (3.5 through
 * LD_LIBRARY_PATH); on another it exits 77 (skip).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include "provider/prov.h"
#include "provider/rand.h"
#include "test/common/test_util.h"
#include "test/provider/testrand.h"

static OSSL_LIB_CTX *app_ctx;

static OPENSSL_CORE_CTX *fake_get_libctx(const OSSL_CORE_HANDLE *h)
{
    (void)h;
    return (OPENSSL_CORE_CTX *)app_ctx;
}

/* Stands for another libcrypto's CRYPTO_malloc. */
static void *other_malloc(size_t num, const char *file, int line)
{
    return CRYPTO_malloc(num, file, line);
}

static const OSSL_DISPATCH in_same[] = {
    { OSSL_FUNC_CORE_GET_LIBCTX, (void (*)(void))fake_get_libctx },
    { OSSL_FUNC_CRYPTO_MALLOC, (void (*)(void))CRYPTO_malloc },
    { 0, NULL }
};
static const OSSL_DISPATCH in_other[] = {
    { OSSL_FUNC_CORE_GET_LIBCTX, (void (*)(void))fake_get_libctx },
    { OSSL_FUNC_CRYPTO_MALLOC, (void (*)(void))other_malloc },
    { 0, NULL }
};

typedef enum { CFG_TEST_DRBG, CFG_MISSING_DRBG, CFG_TEST_SEED } cfg;

/* The providers ctx_new loaded into the one context in use: ctx_free
 * unloads them (a loaded provider's reference outlives OSSL_LIB_CTX_free). */
static OSSL_PROVIDER *ctx_prov[2];

static void ctx_free(OSSL_LIB_CTX *l)
{
    for (size_t i = 0; i < 2; i++) {
        if (ctx_prov[i] != NULL)
            OSSL_PROVIDER_unload(ctx_prov[i]);
        ctx_prov[i] = NULL;
    }
    OSSL_LIB_CTX_free(l);
}

/* A library context with the test provider and default, configured. */
static OSSL_LIB_CTX *ctx_new(cfg c)
{
    OSSL_LIB_CTX *l = OSSL_LIB_CTX_new();
    int ok = l != NULL
             && OSSL_PROVIDER_add_builtin(l, TEST_RAND_PROV,
                                          test_rand_prov_init)
             && (ctx_prov[0] = OSSL_PROVIDER_load(l, TEST_RAND_PROV)) != NULL
             && (ctx_prov[1] = OSSL_PROVIDER_load(l, "default")) != NULL;

    if (ok && c == CFG_TEST_DRBG)
        ok = RAND_set_DRBG_type(l, TEST_RAND_NAME, TEST_RAND_PROPQ, NULL,
                                NULL);
    if (ok && c == CFG_MISSING_DRBG)
        ok = RAND_set_DRBG_type(l, "NO-SUCH-DRBG", NULL, NULL, NULL);
    if (ok && c == CFG_TEST_SEED)
        ok = RAND_set_seed_source_type(l, TEST_RAND_NAME, TEST_RAND_PROPQ);
    if (!TEST_CHECK(ok, "library context %d", (int)c)) {
        ERR_print_errors_fp(stderr);
        ctx_free(l);
        return NULL;
    }
    return l;
}

/* One provider instance as prov.c makes it: its libctx (here the
 * application's own, which has the same providers as the child would) and
 * rand.c's part from the dispatch table. */
static int inst_new(MLKEM_PROV_CTX *p, OSSL_LIB_CTX *l,
                    const OSSL_DISPATCH *in)
{
    memset(p, 0, sizeof(*p));
    p->libctx = l;
    p->rand_id = mlkem_prov_rand_new_id();
    app_ctx = l;
    return TEST_CHECK(mlkem_prov_rand_init(p, in), "mlkem_prov_rand_init");
}

static int is_stream(const uint8_t *b, size_t len, uint64_t from)
{
    for (size_t i = 0; i < len; i++)
        if (b[i] != stream_byte(from + i))
            return 0;
    return 1;
}

static void same_library(void)
{
    MLKEM_PROV_CTX p;
    OSSL_LIB_CTX *l = ctx_new(CFG_TEST_DRBG);
    uint8_t b[64];

    if (l == NULL || !inst_new(&p, l, in_same))
        goto end;
    TEST_CHECK(mlkem_prov_rand(&p, b, 64) && is_stream(b, 64, 0),
               "same library: the draw is not the application DRBG's "
               "bytes 0..63");
    TEST_CHECK(mlkem_prov_rand(&p, b, 32) && is_stream(b, 32, 64),
               "same library: the next draw is not bytes 64..95");
    mlkem_prov_rand_teardown(&p);
end:
    ctx_free(l);
}

static void other_library(void)
{
    MLKEM_PROV_CTX p;
    OSSL_LIB_CTX *l = ctx_new(CFG_TEST_DRBG);
    uint8_t b[64];

    if (l == NULL || !inst_new(&p, l, in_other))
        goto end;
    TEST_CHECK(mlkem_prov_rand(&p, b, 64) && !is_stream(b, 64, 0),
               "another library: the draw failed or is the application "
               "DRBG's");
    /* Larger than the cache takes: straight from the DRBG. */
    uint8_t big[300];
    TEST_CHECK(mlkem_prov_rand(&p, big, sizeof(big)),
               "another library: a 300-byte draw");
    mlkem_prov_rand_teardown(&p);
end:
    ctx_free(l);

    /* The application's DRBG does not exist: no effect here. */
    if ((l = ctx_new(CFG_MISSING_DRBG)) == NULL)
        return;
    if (inst_new(&p, l, in_other)) {
        TEST_CHECK(RAND_bytes_ex(l, b, 32, 0) != 1,
                   "control: RAND_bytes with a missing DRBG succeeded");
        ERR_clear_error();
        TEST_CHECK(mlkem_prov_rand(&p, b, 32),
                   "another library: a missing application DRBG failed "
                   "the draw");
        mlkem_prov_rand_teardown(&p);
    }
    ctx_free(l);
    ERR_clear_error();

    /* The application's seed source fails. */
    if ((l = ctx_new(CFG_TEST_SEED)) == NULL)
        return;
    if (inst_new(&p, l, in_other)) {
        int user_entropy = OpenSSL_version_num() >= 0x30200000L;
        long seeds;
        int ok;

        atomic_store(&test_rand_fail, 1);
        /* The application's first RAND use makes its seed source. */
        TEST_CHECK(RAND_bytes_ex(l, b, 32, 0) != 1,
                   "control: RAND_bytes with a failing seed source "
                   "succeeded");
        ERR_clear_error();
        seeds = atomic_load(&test_rand_attempts);
        ok = mlkem_prov_rand(&p, b, 32);
        if (user_entropy) {
            TEST_CHECK(!ok, "another library, OpenSSL 3.2+: a failing "
                       "seed source did not fail the draw");
            TEST_CHECK(atomic_load(&test_rand_attempts) > seeds,
                       "another library: the seed source was not asked");
            atomic_store(&test_rand_fail, 0);
            TEST_CHECK(mlkem_prov_rand(&p, b, 32),
                       "another library: the draw once the seed source "
                       "works");
        } else {
            TEST_CHECK(ok, "another library, OpenSSL 3.0/3.1: the draw "
                       "(seeded from the operating system)");
        }
        atomic_store(&test_rand_fail, 0);
        mlkem_prov_rand_teardown(&p);
    }
    ctx_free(l);
    ERR_clear_error();
}

int main(int argc, char **argv)
{
    char have[16];

    snprintf(have, sizeof(have), "%lu.%lu", OpenSSL_version_num() >> 28,
             (OpenSSL_version_num() >> 20) & 0xff);
    printf("OpenSSL %s\n", OpenSSL_version(OPENSSL_VERSION));
    if (argc > 1 && strcmp(argv[1], have) != 0) {
        printf("SKIP: running on OpenSSL %s, expected %s\n", have, argv[1]);
        return TEST_EXIT_SKIP;
    }
    same_library();
    other_library();
    return test_finish("test_prov_rand");
}
