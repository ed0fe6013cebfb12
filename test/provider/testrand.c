/* SPDX-License-Identifier: Apache-2.0 */
/*
 * testrand.c: see testrand.h.
 */
#include "test/provider/testrand.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

atomic_int test_rand_fail;
atomic_long test_rand_generates;
atomic_long test_rand_seeds;
atomic_long test_rand_attempts;

uint8_t stream_byte(uint64_t i)
{
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;

    return (uint8_t)(x >> 56) | 1; /* never 0, so a wiped byte differs */
}

typedef struct {
    uint64_t pos;
} test_rand;

static void *tr_new(void *provctx, void *parent,
                    const OSSL_DISPATCH *parent_calls)
{
    (void)provctx;
    (void)parent;
    (void)parent_calls;
    return calloc(1, sizeof(test_rand));
}

static void tr_free(void *vctx)
{
    free(vctx);
}

static int tr_instantiate(void *vctx, unsigned int strength, int pr,
                          const unsigned char *pstr, size_t pstr_len,
                          const OSSL_PARAM params[])
{
    (void)vctx; (void)strength; (void)pr; (void)pstr; (void)pstr_len;
    (void)params;
    return 1;
}

static int tr_uninstantiate(void *vctx)
{
    (void)vctx;
    return 1;
}

static int tr_generate(void *vctx, unsigned char *out, size_t outlen,
                       unsigned int strength, int pr,
                       const unsigned char *adin, size_t adin_len)
{
    test_rand *t = vctx;

    (void)strength; (void)pr; (void)adin; (void)adin_len;
    atomic_fetch_add(&test_rand_attempts, 1);
    if (atomic_load(&test_rand_fail))
        return 0;
    for (size_t i = 0; i < outlen; i++)
        out[i] = stream_byte(t->pos++);
    atomic_fetch_add(&test_rand_generates, 1);
    return 1;
}

static int tr_reseed(void *vctx, int pr, const unsigned char *ent,
                     size_t ent_len, const unsigned char *adin,
                     size_t adin_len)
{
    (void)vctx; (void)pr; (void)ent; (void)ent_len; (void)adin;
    (void)adin_len;
    return !atomic_load(&test_rand_fail);
}

static size_t tr_get_seed(void *vctx, unsigned char **pout, int entropy,
                          size_t min_len, size_t max_len, int pr,
                          const unsigned char *adin, size_t adin_len)
{
    test_rand *t = vctx;
    unsigned char *b;

    (void)entropy; (void)max_len; (void)pr; (void)adin; (void)adin_len;
    atomic_fetch_add(&test_rand_seeds, 1);
    atomic_fetch_add(&test_rand_attempts, 1);
    if (atomic_load(&test_rand_fail) || (b = malloc(min_len)) == NULL)
        return 0;
    for (size_t i = 0; i < min_len; i++)
        b[i] = stream_byte(t->pos++);
    *pout = b;
    return min_len;
}

static void tr_clear_seed(void *vctx, unsigned char *out, size_t outlen)
{
    (void)vctx;
    if (out != NULL)
        memset(out, 0, outlen);
    free(out);
}

static int tr_enable_locking(void *vctx)
{
    (void)vctx;
    return 1;
}

static int tr_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    (void)vctx;
    if ((p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STATE)) != NULL
        && !OSSL_PARAM_set_int(p, EVP_RAND_STATE_READY))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH)) != NULL
        && !OSSL_PARAM_set_uint(p, 256))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_MAX_REQUEST)) != NULL
        && !OSSL_PARAM_set_size_t(p, 1 << 16))
        return 0;
    return 1;
}

static const OSSL_PARAM *tr_gettable(void *vctx, void *provctx)
{
    static const OSSL_PARAM p[] = {
        OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, NULL),
        OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, NULL),
        OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, NULL),
        OSSL_PARAM_END
    };
    (void)vctx;
    (void)provctx;
    return p;
}

static int tr_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    (void)vctx;
    (void)params;
    return 1;
}

static const OSSL_PARAM *tr_settable(void *vctx, void *provctx)
{
    static const OSSL_PARAM p[] = { OSSL_PARAM_END };
    (void)vctx;
    (void)provctx;
    return p;
}

static const OSSL_DISPATCH tr_functions[] = {
    { OSSL_FUNC_RAND_NEWCTX, (void (*)(void))tr_new },
    { OSSL_FUNC_RAND_FREECTX, (void (*)(void))tr_free },
    { OSSL_FUNC_RAND_INSTANTIATE, (void (*)(void))tr_instantiate },
    { OSSL_FUNC_RAND_UNINSTANTIATE, (void (*)(void))tr_uninstantiate },
    { OSSL_FUNC_RAND_GENERATE, (void (*)(void))tr_generate },
    { OSSL_FUNC_RAND_RESEED, (void (*)(void))tr_reseed },
    { OSSL_FUNC_RAND_GET_SEED, (void (*)(void))tr_get_seed },
    { OSSL_FUNC_RAND_CLEAR_SEED, (void (*)(void))tr_clear_seed },
    { OSSL_FUNC_RAND_ENABLE_LOCKING, (void (*)(void))tr_enable_locking },
    { OSSL_FUNC_RAND_GET_CTX_PARAMS, (void (*)(void))tr_get_ctx_params },
    { OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, (void (*)(void))tr_gettable },
    { OSSL_FUNC_RAND_SET_CTX_PARAMS, (void (*)(void))tr_set_ctx_params },
    { OSSL_FUNC_RAND_SETTABLE_CTX_PARAMS, (void (*)(void))tr_settable },
    { 0, NULL }
};

static const OSSL_ALGORITHM tr_algs[] = {
    { TEST_RAND_NAME, "provider=" TEST_RAND_PROV, tr_functions,
      "test DRBG: a counter stream" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *tr_query(void *provctx, int id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    return id == OSSL_OP_RAND ? tr_algs : NULL;
}

static const OSSL_DISPATCH tr_prov_functions[] = {
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))tr_query },
    { 0, NULL }
};

int test_rand_prov_init(const OSSL_CORE_HANDLE *handle,
                        const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                        void **provctx)
{
    (void)handle;
    (void)in;
    *out = tr_prov_functions;
    *provctx = NULL;
    return 1;
}

