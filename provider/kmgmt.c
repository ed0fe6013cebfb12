/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kmgmt.c: ML-KEM key management (ML-KEM-512 / -768 / -1024).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 16 (ML-KEM.KeyGen_internal), 19
 *             (ML-KEM.KeyGen), §7.2 / §7.3 input checks.
 *   [OSSL]    EVP_PKEY-ML-KEM(7) of OpenSSL 3.5 for the parameter names and
 *             semantics copied here; provider-keymgmt(7).
 *
 * One function set serves all three variants; DECLARE_VARIANT() adds the
 * only per-variant pieces (new, gen_init) and the dispatch table.
 *
 * Parameters (OpenSSL 3.5 semantics):
 *   get:  bits, security-bits, max-size (= ciphertext bytes),
 *         encoded-pub-key and pub (ek), priv (dk), seed (d||z, only while
 *         retained)
 *   set:  encoded-pub-key, only on an empty key (libssl's server: paramgen
 *         then the peer's share); a key is immutable once set
 *   gen:  seed (64 bytes, deterministic), properties; group is accepted and
 *         ignored (libssl sends it)
 *   import/export: pub, priv, seed
 * Unknown parameters are ignored, as OpenSSL does; a known parameter of the
 * wrong type or size fails with a precise reason.
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "provider/prov.h"

static OSSL_FUNC_keymgmt_free_fn mlkem_km_free;
static OSSL_FUNC_keymgmt_has_fn mlkem_km_has;
static OSSL_FUNC_keymgmt_match_fn mlkem_km_match;
static OSSL_FUNC_keymgmt_dup_fn mlkem_km_dup;
static OSSL_FUNC_keymgmt_validate_fn mlkem_km_validate;
static OSSL_FUNC_keymgmt_get_params_fn mlkem_km_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn mlkem_km_gettable_params;
static OSSL_FUNC_keymgmt_set_params_fn mlkem_km_set_params;
static OSSL_FUNC_keymgmt_settable_params_fn mlkem_km_settable_params;
static OSSL_FUNC_keymgmt_gen_set_params_fn mlkem_km_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn mlkem_km_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_fn mlkem_km_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn mlkem_km_gen_cleanup;
static OSSL_FUNC_keymgmt_import_types_fn mlkem_km_import_types;
static OSSL_FUNC_keymgmt_export_types_fn mlkem_km_export_types;

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    int selection;
    /* d || z from the "seed" parameter: NULL, or MLKEM_SEED_BYTES of secure
     * memory (where the key's own secrets live, key.c), wiped and freed by
     * gen and cleanup. */
    uint8_t *seed;
    char *propq;
} MLKEM_GEN_CTX;

static void clear_seed(MLKEM_GEN_CTX *g)
{
    OPENSSL_secure_clear_free(g->seed, MLKEM_SEED_BYTES);
    g->seed = NULL;
}

/* ---- new / free / has / match / dup ---------------------------------------- */

static void mlkem_km_free(void *vkey)
{
    mlkem_prov_key_free(vkey);
}

static int mlkem_km_has(const void *vkey, int selection)
{
    return mlkem_prov_key_has(vkey, selection);
}

static int mlkem_km_match(const void *vk1, const void *vk2, int selection)
{
    const MLKEM_KEY *k1 = vk1, *k2 = vk2;

    if (k1 == NULL || k2 == NULL || k1->params != k2->params)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1; /* same variant: same domain parameters */
    int p1 = (k1->key->flags & MLKEM_KEY_HAS_PUB) != 0;
    int p2 = (k2->key->flags & MLKEM_KEY_HAS_PUB) != 0;
    if (p1 != p2)
        return 0;
    if (!p1)
        return k1 == k2; /* two empty keys are only equal to themselves */
    /* The private key determines ek, so comparing ek covers both parts. */
    return mlkem_key_ek_equal(k1->key, k2->key);
}

static void *mlkem_km_dup(const void *vkey, int selection)
{
    return mlkem_prov_key_dup(vkey, selection);
}

/* ---- validate: EVP_PKEY_check / public_check / private_check --------------- */

static int mlkem_km_validate(const void *vkey, int selection, int checktype)
{
    const MLKEM_KEY *k = vkey;
    int rc;

    (void)checktype;
    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (!mlkem_prov_key_has(k, selection)) {
        MLKEM_RAISE(k->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
        /* §7.2 on the stored ek (it was checked when set; cheap to redo). */
        rc = mlkem_check_ek(k->params, k->key->ek, k->params->ek_bytes);
        if (rc != MLKEM_OK) {
            mlkem_prov_raise_kernel_err(k->provctx, rc);
            return 0;
        }
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        /* Pairwise consistency: encapsulate to ek, decapsulate with dk. */
        rc = mlkem_key_pct(k->key, mlkem_prov_rand, k->provctx);
        if (rc != MLKEM_OK) {
            mlkem_prov_raise_kernel_err(k->provctx, rc);
            return 0;
        }
    }
    return 1;
}

/* ---- get / set params --------------------------------------------------------- */

static const OSSL_PARAM *mlkem_km_gettable_params(void *provctx)
{
    static const OSSL_PARAM gettable[] = {
        OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
        OSSL_PARAM_octet_string(MLKEM_PARAM_SEED, NULL, 0),
        OSSL_PARAM_END
    };
    (void)provctx;
    return gettable;
}

static int mlkem_km_get_params(void *vkey, OSSL_PARAM params[])
{
    MLKEM_KEY *k = vkey;
    const mlkem_params *v;
    OSSL_PARAM *p;

    if (k == NULL)
        return 0;
    v = k->params;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL
        && !mlkem_prov_set_int(k->provctx, p, (int)v->bits))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL
        && !mlkem_prov_set_int(k->provctx, p, (int)v->security_bits))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL
        && !mlkem_prov_set_int(k->provctx, p, (int)v->ct_bytes))
        return 0;

    /* Key parts that are absent are left unanswered (OpenSSL's rule: the
     * caller sees an unmodified parameter). */
    if ((k->key->flags & MLKEM_KEY_HAS_PUB) != 0) {
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY))
                != NULL
            && !mlkem_prov_set_octets(k->provctx, p, k->key->ek, v->ek_bytes))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL
            && !mlkem_prov_set_octets(k->provctx, p, k->key->ek, v->ek_bytes))
            return 0;
    }
    if ((k->key->flags & MLKEM_KEY_HAS_PRIV) != 0
        && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL) {
        /* dk is encoded into secure memory and copied out by libcrypto. */
        uint8_t *dk = OPENSSL_secure_malloc(v->dk_bytes);
        int rc, ok;

        if (dk == NULL)
            return 0;
        if ((rc = mlkem_key_encode_dk(k->key, dk)) != MLKEM_OK) {
            OPENSSL_secure_clear_free(dk, v->dk_bytes);
            mlkem_prov_raise_kernel_err(k->provctx, rc);
            return 0;
        }
        ok = mlkem_prov_set_octets(k->provctx, p, dk, v->dk_bytes);
        OPENSSL_secure_clear_free(dk, v->dk_bytes);
        if (!ok)
            return 0;
    }
    if ((k->key->flags & MLKEM_KEY_HAS_SEED) != 0
        && (p = OSSL_PARAM_locate(params, MLKEM_PARAM_SEED)) != NULL
        && !mlkem_prov_set_octets(k->provctx, p, k->key->seed,
                                  MLKEM_SEED_BYTES))
        return 0;
    return 1;
}

static const OSSL_PARAM *mlkem_km_settable_params(void *provctx)
{
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
        OSSL_PARAM_END
    };
    (void)provctx;
    return settable;
}

static int mlkem_km_set_params(void *vkey, const OSSL_PARAM params[])
{
    MLKEM_KEY *k = vkey;
    const OSSL_PARAM *p;
    const void *ek;
    size_t len;

    if (k == NULL)
        return 0;
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    if (p == NULL)
        return 1;
    if (!mlkem_prov_get_octets(k->provctx, p, &ek, &len))
        return 0;
    /* An untrusted peer share (TLS): from_pub runs the §7.2 checks and
     * refuses a key that is already set. */
    return mlkem_prov_key_from_pub(k, ek, len);
}

/* ---- Key generation ------------------------------------------------------------ */

static void *gen_init_common(void *provctx, const mlkem_params *v,
                             int selection, const OSSL_PARAM params[])
{
    MLKEM_GEN_CTX *g;

    if (v == NULL || (g = OPENSSL_zalloc(sizeof(*g))) == NULL)
        return NULL;
    g->provctx = provctx;
    g->params = v;
    g->selection = selection;
    if (!mlkem_km_gen_set_params(g, params)) {
        mlkem_km_gen_cleanup(g);
        return NULL;
    }
    return g;
}

static const OSSL_PARAM *mlkem_km_gen_settable_params(void *gctx,
                                                      void *provctx)
{
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_octet_string(MLKEM_PARAM_SEED, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
        OSSL_PARAM_END
    };
    (void)gctx;
    (void)provctx;
    return settable;
}

static int mlkem_km_gen_set_params(void *vg, const OSSL_PARAM params[])
{
    MLKEM_GEN_CTX *g = vg;
    const OSSL_PARAM *p;

    if (g == NULL)
        return 0;
    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, MLKEM_PARAM_SEED)) != NULL) {
        const void *s;
        size_t len;
        if (!mlkem_prov_get_octets(g->provctx, p, &s, &len))
            return 0;
        if (len != MLKEM_SEED_BYTES) {
            MLKEM_RAISE_DATA(g->provctx, MLKEM_R_BAD_SEED_LENGTH,
                             "seed: %zu bytes, expected 64 (d || z)", len);
            return 0;
        }
        if (g->seed == NULL
            && (g->seed = OPENSSL_secure_malloc(MLKEM_SEED_BYTES)) == NULL) {
            MLKEM_RAISE(g->provctx, MLKEM_R_ALLOC_FAILED);
            return 0;
        }
        memcpy(g->seed, s, MLKEM_SEED_BYTES);
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PROPERTIES))
            != NULL) {
        if (p->data_type != OSSL_PARAM_UTF8_STRING) {
            MLKEM_RAISE_DATA(g->provctx, MLKEM_R_BAD_PARAMETER,
                             "parameter \"%s\" must be a string", p->key);
            return 0;
        }
        char *q = NULL;
        if (p->data != NULL && !OSSL_PARAM_get_utf8_string(p, &q, 0)) {
            MLKEM_RAISE(g->provctx, MLKEM_R_BAD_PARAMETER);
            return 0;
        }
        OPENSSL_free(g->propq);
        g->propq = q;
    }
    /* libssl sets "group" (the TLS group name) on every KEM group's keygen
     * and paramgen context; the variant already fixes everything. */
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME))
            != NULL
        && p->data_type != OSSL_PARAM_UTF8_STRING) {
        MLKEM_RAISE_DATA(g->provctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be a string", p->key);
        return 0;
    }
    return 1;
}

static void *mlkem_km_gen(void *vg, OSSL_CALLBACK *cb, void *cbarg)
{
    MLKEM_GEN_CTX *g = vg;
    MLKEM_KEY *k;
    uint8_t seed[MLKEM_SEED_BYTES];

    (void)cb;
    (void)cbarg;
    if (g == NULL || (k = mlkem_prov_key_new(g->provctx, g->params)) == NULL)
        return NULL;
    if (g->propq != NULL && (k->propq = OPENSSL_strdup(g->propq)) == NULL)
        goto err;
    /* Domain parameters only (libssl's server: EVP_PKEY_paramgen): an empty
     * key, to be filled with the peer's encoded-pub-key. */
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return k;

    if (g->seed == NULL
        && !mlkem_prov_rand(g->provctx, seed, sizeof(seed))) {
        /* FIPS 203 Algorithm 19, lines 1-2: d, z from the RBG; line 3 on
         * failure: return an error. */
        MLKEM_RAISE(g->provctx, MLKEM_R_RANDOM_FAILED);
        goto err;
    }
    if (!mlkem_prov_key_from_seed(k, g->seed != NULL ? g->seed : seed))
        goto err;
    /* A seed is single-use key material: wipe it (§3.3). */
    OPENSSL_cleanse(seed, sizeof(seed));
    clear_seed(g);
    return k;
err:
    OPENSSL_cleanse(seed, sizeof(seed));
    mlkem_prov_key_free(k);
    return NULL;
}

static void mlkem_km_gen_cleanup(void *vg)
{
    MLKEM_GEN_CTX *g = vg;

    if (g == NULL)
        return;
    clear_seed(g);
    OPENSSL_free(g->propq);
    OPENSSL_free(g);
}

/* ---- load: an object reference from our decoders (decoders.c) -------------
 * The key is built and checked now (mlkem_prov_key_from_decoded), so that a
 * refused key fails the load with its reason; a key of another parameter
 * set is refused. */
static void *load_common(const mlkem_params *v, const void *reference,
                         size_t reference_sz)
{
    return mlkem_prov_key_from_decoded(reference, reference_sz, v);
}

/* ---- import / export ------------------------------------------------------------ */

static const OSSL_PARAM mlkem_key_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_octet_string(MLKEM_PARAM_SEED, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM mlkem_pub_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *key_types(int selection)
{
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        return mlkem_key_types; /* pub, priv, seed */
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        return mlkem_pub_types;
    return NULL;
}

static const OSSL_PARAM *mlkem_km_import_types(int selection)
{
    return key_types(selection);
}

static const OSSL_PARAM *mlkem_km_export_types(int selection)
{
    return key_types(selection);
}

int mlkem_prov_kmgmt_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    MLKEM_KEY *k = vkey;
    const OSSL_PARAM *pp, *ps, *pk;
    const void *pub = NULL, *priv = NULL, *seed = NULL;
    size_t publen = 0, privlen = 0, seedlen = 0;

    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1; /* nothing but the variant, which the keymgmt fixes */
    pp = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    pk = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
    ps = OSSL_PARAM_locate_const(params, MLKEM_PARAM_SEED);
    if ((pp != NULL && !mlkem_prov_get_octets(k->provctx, pp, &pub, &publen))
        || (pk != NULL && !mlkem_prov_get_octets(k->provctx, pk, &priv, &privlen))
        || (ps != NULL && !mlkem_prov_get_octets(k->provctx, ps, &seed, &seedlen)))
        return 0;

    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0
        && (priv != NULL || seed != NULL)) {
        int ok;
        if (seed != NULL && seedlen != MLKEM_SEED_BYTES) {
            MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_SEED_LENGTH,
                             "seed: %zu bytes, expected 64 (d || z)", seedlen);
            return 0;
        }
        if (seed != NULL && priv != NULL)
            ok = mlkem_prov_key_from_seed_priv(k, seed, priv, privlen);
        else if (seed != NULL)
            ok = mlkem_prov_key_from_seed(k, seed);
        else
            ok = mlkem_prov_key_from_priv(k, priv, privlen);
        if (!ok)
            return 0;
        /* A public key given alongside must be the private key's. */
        if (pub != NULL
            && (publen != k->params->ek_bytes
                || CRYPTO_memcmp(pub, k->key->ek, publen) != 0)) {
            mlkem_key_cleanse(k->key);
            MLKEM_RAISE(k->provctx, MLKEM_R_KEY_MISMATCH);
            return 0;
        }
        return 1;
    }
    if (pub != NULL)
        return mlkem_prov_key_from_pub(k, pub, publen);
    MLKEM_RAISE(k->provctx, MLKEM_R_MISSING_KEY);
    return 0;
}

int mlkem_prov_kmgmt_export(void *vkey, int selection, OSSL_CALLBACK *cb,
                           void *cbarg)
{
    MLKEM_KEY *k = vkey;
    OSSL_PARAM params[4];
    uint8_t *dk = NULL;
    size_t n = 0;
    int ret = 0;

    if (k == NULL || cb == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0
        && (k->key->flags & MLKEM_KEY_HAS_PUB) != 0)
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PUB_KEY, k->key->ek, k->params->ek_bytes);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0
        && (k->key->flags & MLKEM_KEY_HAS_PRIV) != 0) {
        int rc;
        if ((dk = OPENSSL_secure_malloc(k->params->dk_bytes)) == NULL)
            return 0;
        if ((rc = mlkem_key_encode_dk(k->key, dk)) != MLKEM_OK) {
            mlkem_prov_raise_kernel_err(k->provctx, rc);
            goto end;
        }
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PRIV_KEY, dk, k->params->dk_bytes);
        if ((k->key->flags & MLKEM_KEY_HAS_SEED) != 0)
            params[n++] = OSSL_PARAM_construct_octet_string(
                MLKEM_PARAM_SEED, k->key->seed, MLKEM_SEED_BYTES);
    }
    if (n == 0) {
        MLKEM_RAISE(k->provctx, MLKEM_R_MISSING_KEY);
        goto end;
    }
    params[n] = OSSL_PARAM_construct_end();
    ret = cb(params, cbarg);
end:
    if (dk != NULL)
        OPENSSL_secure_clear_free(dk, k->params->dk_bytes);
    return ret;
}

/* ---- The three variants ----------------------------------------------------------
 * DECLARE_VARIANT(bits, variant): mlkem_<bits>_new, _gen_init, _load and the
 * dispatch table mlkem_<bits>_keymgmt_functions (OpenSSL's ml_kem_kmgmt.c
 * pattern). Everything else is shared. */
#define DECLARE_VARIANT(bits, variant)                                         \
    static OSSL_FUNC_keymgmt_new_fn mlkem_##bits##_new;                        \
    static OSSL_FUNC_keymgmt_gen_init_fn mlkem_##bits##_gen_init;              \
    static OSSL_FUNC_keymgmt_load_fn mlkem_##bits##_load;                      \
    static void *mlkem_##bits##_new(void *provctx)                             \
    {                                                                          \
        return mlkem_prov_key_new(provctx, mlkem_params_get(variant));         \
    }                                                                          \
    static void *mlkem_##bits##_gen_init(void *provctx, int selection,         \
                                         const OSSL_PARAM params[])            \
    {                                                                          \
        return gen_init_common(provctx, mlkem_params_get(variant), selection,  \
                               params);                                        \
    }                                                                          \
    static void *mlkem_##bits##_load(const void *reference,                    \
                                     size_t reference_sz)                      \
    {                                                                          \
        return load_common(mlkem_params_get(variant), reference,               \
                           reference_sz);                                      \
    }                                                                          \
    const OSSL_DISPATCH mlkem_##bits##_keymgmt_functions[] = {                 \
        { OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))mlkem_##bits##_new },         \
        { OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))mlkem_km_free },             \
        { OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))mlkem_km_get_params }, \
        { OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS,                                   \
          (void (*)(void))mlkem_km_gettable_params },                          \
        { OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))mlkem_km_set_params }, \
        { OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS,                                   \
          (void (*)(void))mlkem_km_settable_params },                          \
        { OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))mlkem_km_has },               \
        { OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))mlkem_km_match },           \
        { OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))mlkem_km_validate },     \
        { OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))mlkem_km_dup },               \
        { OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))mlkem_##bits##_gen_init }, \
        { OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS,                                    \
          (void (*)(void))mlkem_km_gen_set_params },                           \
        { OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,                               \
          (void (*)(void))mlkem_km_gen_settable_params },                      \
        { OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))mlkem_km_gen },               \
        { OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))mlkem_km_gen_cleanup }, \
        { OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))mlkem_##bits##_load },       \
        { OSSL_FUNC_KEYMGMT_IMPORT,                                            \
          (void (*)(void))mlkem_prov_kmgmt_import },                           \
        { OSSL_FUNC_KEYMGMT_IMPORT_TYPES,                                      \
          (void (*)(void))mlkem_km_import_types },                             \
        { OSSL_FUNC_KEYMGMT_EXPORT,                                            \
          (void (*)(void))mlkem_prov_kmgmt_export },                           \
        { OSSL_FUNC_KEYMGMT_EXPORT_TYPES,                                      \
          (void (*)(void))mlkem_km_export_types },                             \
        { 0, NULL }                                                            \
    }

#define DECLARE_SET(bits, variant) DECLARE_VARIANT(bits, variant);
MLKEM_PROV_SETS(DECLARE_SET)
