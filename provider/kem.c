/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kem.c: ML-KEM encapsulation and decapsulation (all three variants; the key
 * object carries the parameter set).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 20 (ML-KEM.Encaps), 17
 *             (ML-KEM.Encaps_internal), 21 (ML-KEM.Decaps), 18
 *             (ML-KEM.Decaps_internal, implicit rejection), §7.2 / §7.3.
 *   [OSSL]    EVP_KEM-ML-KEM(7) of OpenSSL 3.5: the "ikme" parameter (32-byte
 *             octet string = m, used once), NULL-buffer size queries.
 *
 * Every function returns 1 or 0 (never -1: libssl 3.0 treats <= 0 alike, but
 * other callers test == 1).
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "provider/prov.h"

static OSSL_FUNC_kem_newctx_fn mlkem_kem_newctx;
static OSSL_FUNC_kem_freectx_fn mlkem_kem_freectx;
static OSSL_FUNC_kem_dupctx_fn mlkem_kem_dupctx;
static OSSL_FUNC_kem_encapsulate_init_fn mlkem_kem_encapsulate_init;
static OSSL_FUNC_kem_encapsulate_fn mlkem_kem_encapsulate;
static OSSL_FUNC_kem_decapsulate_init_fn mlkem_kem_decapsulate_init;
static OSSL_FUNC_kem_decapsulate_fn mlkem_kem_decapsulate;
static OSSL_FUNC_kem_get_ctx_params_fn mlkem_kem_get_ctx_params;
static OSSL_FUNC_kem_gettable_ctx_params_fn mlkem_kem_gettable_ctx_params;
static OSSL_FUNC_kem_set_ctx_params_fn mlkem_kem_set_ctx_params;
static OSSL_FUNC_kem_settable_ctx_params_fn mlkem_kem_settable_ctx_params;

enum { OP_NONE, OP_ENCAPS, OP_DECAPS };

typedef struct {
    MLKEM_PROV_CTX *provctx;
    MLKEM_KEY *key;   /* not owned: the EVP_PKEY keeps it alive */
    int op;
    /* m for the next encapsulation only ("ikme"): NULL, or MLKEM_SYM_BYTES
     * of secure memory, where the key's own secrets live (key.c). */
    uint8_t *ikme;
} MLKEM_KEM_CTX;

static void clear_ikme(MLKEM_KEM_CTX *c)
{
    OPENSSL_secure_clear_free(c->ikme, MLKEM_SYM_BYTES);
    c->ikme = NULL;
}

static void *mlkem_kem_newctx(void *provctx)
{
    MLKEM_KEM_CTX *c = OPENSSL_zalloc(sizeof(*c));

    if (c != NULL)
        c->provctx = provctx;
    return c;
}

static void mlkem_kem_freectx(void *vc)
{
    MLKEM_KEM_CTX *c = vc;

    if (c == NULL)
        return;
    clear_ikme(c); /* wipes a pending ikme */
    OPENSSL_free(c);
}

static void *mlkem_kem_dupctx(void *vc)
{
    const MLKEM_KEM_CTX *c = vc;
    MLKEM_KEM_CTX *d;

    if (c == NULL || (d = OPENSSL_malloc(sizeof(*d))) == NULL)
        return NULL;
    memcpy(d, c, sizeof(*d));
    if (c->ikme != NULL) {
        if ((d->ikme = OPENSSL_secure_malloc(MLKEM_SYM_BYTES)) == NULL) {
            OPENSSL_free(d);
            return NULL;
        }
        memcpy(d->ikme, c->ikme, MLKEM_SYM_BYTES);
    }
    return d;
}

static int kem_init(MLKEM_KEM_CTX *c, void *vkey, int op,
                    const OSSL_PARAM params[])
{
    MLKEM_KEY *k = vkey;
    unsigned need = op == OP_ENCAPS ? MLKEM_KEY_HAS_PUB : MLKEM_KEY_HAS_PRIV;

    if (c == NULL)
        return 0;
    if (k == NULL || k->key == NULL || (k->key->flags & need) == 0) {
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_MISSING_KEY, "%s needs the %s key",
                         op == OP_ENCAPS ? "encapsulation" : "decapsulation",
                         op == OP_ENCAPS ? "public" : "private");
        return 0;
    }
    c->key = k;
    c->op = op;
    clear_ikme(c);
    return mlkem_kem_set_ctx_params(c, params);
}

static int mlkem_kem_encapsulate_init(void *vc, void *vkey,
                                      const OSSL_PARAM params[])
{
    return kem_init(vc, vkey, OP_ENCAPS, params);
}

static int mlkem_kem_decapsulate_init(void *vc, void *vkey,
                                      const OSSL_PARAM params[])
{
    return kem_init(vc, vkey, OP_DECAPS, params);
}

/* FIPS 203 Algorithm 20, ML-KEM.Encaps(ek): m from the RBG (or the one-shot
 * ikme), then Encaps_internal. ek passed the §7.2 check when it was set. */
static int mlkem_kem_encapsulate(void *vc, unsigned char *out, size_t *outlen,
                                 unsigned char *secret, size_t *secretlen)
{
    MLKEM_KEM_CTX *c = vc;
    const mlkem_params *v;
    uint8_t m[MLKEM_SYM_BYTES];
    int ret = 0, rc;

    if (c == NULL || c->op != OP_ENCAPS || c->key == NULL) {
        MLKEM_RAISE(c != NULL ? c->provctx : NULL, MLKEM_R_MISSING_KEY);
        return 0;
    }
    v = c->key->params;
    if (out == NULL) { /* size query */
        if (outlen == NULL && secretlen == NULL)
            return 0;
        if (outlen != NULL)
            *outlen = v->ct_bytes;
        if (secretlen != NULL)
            *secretlen = MLKEM_SS_BYTES;
        return 1;
    }
    if (secret == NULL || outlen == NULL || secretlen == NULL) {
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_BAD_PARAMETER,
                         "encapsulate: NULL secret buffer or length");
        return 0;
    }
    if (*outlen < v->ct_bytes) {
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_OUTPUT_TOO_SMALL,
                         "ciphertext buffer: %zu bytes, need %zu", *outlen,
                         v->ct_bytes);
        return 0;
    }
    if (*secretlen < MLKEM_SS_BYTES) {
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_OUTPUT_TOO_SMALL,
                         "shared secret buffer: %zu bytes, need 32",
                         *secretlen);
        return 0;
    }

    if (c->ikme == NULL
        && !mlkem_prov_rand(c->provctx, m, sizeof(m))) {
        /* Algorithm 20, line 2: if m == NULL, return an error. */
        MLKEM_RAISE(c->provctx, MLKEM_R_RANDOM_FAILED);
        goto end;
    }
    rc = mlkem_key_encaps(c->key->key, out, secret,
                          c->ikme != NULL ? c->ikme : m);
    if (rc != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(c->provctx, rc);
        goto end;
    }
    *outlen = v->ct_bytes;
    *secretlen = MLKEM_SS_BYTES;
    ret = 1;
end:
    /* m is the shared secret's only input besides ek (§3.3), and ikme is
     * one-shot: a second encapsulation must not reuse it. */
    OPENSSL_cleanse(m, sizeof(m));
    clear_ikme(c);
    return ret;
}

/* FIPS 203 Algorithm 21, ML-KEM.Decaps(dk, c): the §7.3 ciphertext type
 * check here, the dk checks happened when dk was parsed; a right-length
 * invalid ciphertext yields K-bar (implicit rejection) and succeeds. */
static int mlkem_kem_decapsulate(void *vc, unsigned char *out, size_t *outlen,
                                 const unsigned char *in, size_t inlen)
{
    MLKEM_KEM_CTX *c = vc;
    const mlkem_params *v;
    int rc;

    if (c == NULL || c->op != OP_DECAPS || c->key == NULL) {
        MLKEM_RAISE(c != NULL ? c->provctx : NULL, MLKEM_R_MISSING_KEY);
        return 0;
    }
    v = c->key->params;
    if (out == NULL) { /* size query */
        if (outlen == NULL)
            return 0;
        *outlen = MLKEM_SS_BYTES;
        return 1;
    }
    if (outlen == NULL || *outlen < MLKEM_SS_BYTES) {
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_OUTPUT_TOO_SMALL,
                         "shared secret buffer: %zu bytes, need 32",
                         outlen != NULL ? *outlen : (size_t)0);
        return 0;
    }
    if (in == NULL || inlen != v->ct_bytes) {
        /* Like OpenSSL 3.5, leave unpredictable bytes in the output in case
         * a caller ignores the error. */
        if (!mlkem_prov_rand(c->provctx, out, MLKEM_SS_BYTES))
            OPENSSL_cleanse(out, MLKEM_SS_BYTES);
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_BAD_CIPHERTEXT_LENGTH,
                         "%s ciphertext: %zu bytes, expected %zu", v->name,
                         inlen, v->ct_bytes);
        return 0;
    }
    rc = mlkem_key_decaps(c->key->key, out, in, inlen);
    if (rc != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(c->provctx, rc);
        return 0;
    }
    *outlen = MLKEM_SS_BYTES;
    return 1;
}

static const OSSL_PARAM *mlkem_kem_gettable_ctx_params(void *vc, void *provctx)
{
    static const OSSL_PARAM gettable[] = { OSSL_PARAM_END };

    (void)vc;
    (void)provctx;
    return gettable;
}

static int mlkem_kem_get_ctx_params(void *vc, OSSL_PARAM params[])
{
    (void)params;
    return vc != NULL;
}

static const OSSL_PARAM *mlkem_kem_settable_ctx_params(void *vc, void *provctx)
{
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_octet_string(MLKEM_PARAM_IKME, NULL, 0),
        OSSL_PARAM_END
    };

    (void)vc;
    (void)provctx;
    return settable;
}

static int mlkem_kem_set_ctx_params(void *vc, const OSSL_PARAM params[])
{
    MLKEM_KEM_CTX *c = vc;
    const OSSL_PARAM *p;
    const void *ikme;
    size_t len;

    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, MLKEM_PARAM_IKME);
    if (p == NULL)
        return 1;
    if (!mlkem_prov_get_octets(c->provctx, p, &ikme, &len))
        return 0;
    if (len != MLKEM_SYM_BYTES) {
        MLKEM_RAISE_DATA(c->provctx, MLKEM_R_BAD_IKME_LENGTH,
                         "ikme: %zu bytes, expected 32", len);
        return 0;
    }
    /* Decapsulation has no randomness: ikme is accepted and ignored. */
    if (c->op == OP_ENCAPS) {
        if (c->ikme == NULL
            && (c->ikme = OPENSSL_secure_malloc(MLKEM_SYM_BYTES)) == NULL) {
            MLKEM_RAISE(c->provctx, MLKEM_R_ALLOC_FAILED);
            return 0;
        }
        memcpy(c->ikme, ikme, MLKEM_SYM_BYTES);
    }
    return 1;
}

const OSSL_DISPATCH mlkem_kem_functions[] = {
    { OSSL_FUNC_KEM_NEWCTX, (void (*)(void))mlkem_kem_newctx },
    { OSSL_FUNC_KEM_FREECTX, (void (*)(void))mlkem_kem_freectx },
    { OSSL_FUNC_KEM_DUPCTX, (void (*)(void))mlkem_kem_dupctx },
    { OSSL_FUNC_KEM_ENCAPSULATE_INIT,
      (void (*)(void))mlkem_kem_encapsulate_init },
    { OSSL_FUNC_KEM_ENCAPSULATE, (void (*)(void))mlkem_kem_encapsulate },
    { OSSL_FUNC_KEM_DECAPSULATE_INIT,
      (void (*)(void))mlkem_kem_decapsulate_init },
    { OSSL_FUNC_KEM_DECAPSULATE, (void (*)(void))mlkem_kem_decapsulate },
    { OSSL_FUNC_KEM_GET_CTX_PARAMS, (void (*)(void))mlkem_kem_get_ctx_params },
    { OSSL_FUNC_KEM_GETTABLE_CTX_PARAMS,
      (void (*)(void))mlkem_kem_gettable_ctx_params },
    { OSSL_FUNC_KEM_SET_CTX_PARAMS, (void (*)(void))mlkem_kem_set_ctx_params },
    { OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS,
      (void (*)(void))mlkem_kem_settable_ctx_params },
    { 0, NULL }
};
