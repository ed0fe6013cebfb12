/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hybrid_kmgmt.c: key management for the TLS 1.3 hybrid groups
 * X25519MLKEM768, SecP256r1MLKEM768 and SecP384r1MLKEM1024, and for
 * X448MLKEM1024 (the same construction with X448 and ML-KEM-1024, which
 * OpenSSL 3.5 and 4.0 offer as a KEM; it has no TLS codepoint).
 *
 * References
 *   [HYB]     draft-ietf-tls-ecdhe-mlkem, §3 (construction), §4 (groups).
 *   [FIPS203] NIST FIPS 203: Algorithm 19 (ML-KEM.KeyGen), §7.2 (ek check).
 *   OpenSSL 3.5 providers/implementations/keymgmt/mlx_kmgmt.c: the layouts
 *   and parameter semantics we match (facts only; written from scratch).
 *
 * libssl's use of a KEM group (OpenSSL 3.0 ssl/t1_lib.c, ssl/s3_lib.c):
 *   client: keygen_init, set "group", keygen, get "encoded-pub-key";
 *           later decapsulate (hybrid_kem.c) with the same key object, so
 *           the classical key pair generated here stays in the key.
 *   server: paramgen_init, set "group", paramgen (an empty key), set
 *           "encoded-pub-key" (the client's untrusted share: §7.2 check and
 *           point validation here), then encapsulate.
 * The ML-KEM half uses the kernel directly (kem/mlkem.h); the classical half
 * is an EVP_PKEY of the default provider (hybrid_ec.c: the group table,
 * generation, share validation, ECDH).
 *
 * Hybrids have no SPKI / PKCS#8 form (as in 3.5). import / export carry the
 * public key only ("pub", the client-share encoding).
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "provider/hybrid.h"
#include "provider/prov.h"

static OSSL_FUNC_keymgmt_free_fn hyb_free;
static OSSL_FUNC_keymgmt_has_fn hyb_has;
static OSSL_FUNC_keymgmt_match_fn hyb_match;
static OSSL_FUNC_keymgmt_dup_fn hyb_dup;
static OSSL_FUNC_keymgmt_gen_set_params_fn hyb_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn hyb_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_fn hyb_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn hyb_gen_cleanup;
static OSSL_FUNC_keymgmt_get_params_fn hyb_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn hyb_gettable_params;
static OSSL_FUNC_keymgmt_set_params_fn hyb_set_params;
static OSSL_FUNC_keymgmt_settable_params_fn hyb_settable_params;
static OSSL_FUNC_keymgmt_import_fn hyb_import;
static OSSL_FUNC_keymgmt_import_types_fn hyb_imexport_types;
static OSSL_FUNC_keymgmt_export_fn hyb_export;
static OSSL_FUNC_keymgmt_export_types_fn hyb_imexport_types;

/* ---- The key object ----------------------------------------------------- */

int mlkem_hybrid_has_pub(const MLKEM_HYBRID_KEY *k)
{
    return k != NULL && k->ec != NULL && (k->ml->flags & MLKEM_KEY_HAS_PUB) != 0;
}

int mlkem_hybrid_has_priv(const MLKEM_HYBRID_KEY *k)
{
    return mlkem_hybrid_has_pub(k) && k->ec_priv
           && (k->ml->flags & MLKEM_KEY_HAS_PRIV) != 0;
}

static MLKEM_HYBRID_KEY *hyb_key_new(MLKEM_PROV_CTX *provctx,
                                     const mlkem_hybrid_info *info)
{
    MLKEM_HYBRID_KEY *k;

    if (provctx == NULL)
        return NULL;
    if ((k = OPENSSL_zalloc(sizeof(*k))) == NULL) {
        MLKEM_RAISE(provctx, MLKEM_R_ALLOC_FAILED);
        return NULL;
    }
    k->provctx = provctx;
    k->info = info;
    k->params = mlkem_params_get(info->variant);
    /* The ML-KEM key holds s-hat and z: secure heap (plain heap when the
     * application set none up), wiped on free. mlkem_key_init zeroes the
     * whole 14 KiB struct, so no zalloc (one zeroing per key, not two). */
    if ((k->ml = OPENSSL_secure_malloc(sizeof(*k->ml))) == NULL) {
        MLKEM_RAISE(provctx, MLKEM_R_ALLOC_FAILED);
        OPENSSL_free(k);
        return NULL;
    }
    mlkem_key_init(k->ml, k->params);
    return k;
}

static void hyb_free(void *vkey)
{
    MLKEM_HYBRID_KEY *k = vkey;

    if (k == NULL)
        return;
    /* One wipe, none for the public half alone (the TLS server's view of
     * the client's share): key.c. */
    mlkem_prov_kernel_key_free(k->ml);
    EVP_PKEY_free(k->ec);
    OPENSSL_free(k->propq);
    OPENSSL_free(k);
}

/* Encode the client share ([HYB] §3): ek || u for X25519MLKEM768 and
 * X448MLKEM1024, Q || ek for the NIST-curve hybrids. out: mlkem_hybrid_pub_bytes(). */
static void hyb_encode_pub(const MLKEM_HYBRID_KEY *k, uint8_t *out)
{
    size_t ek = k->params->ek_bytes, ec = k->info->ec_pub_bytes;

    if (k->info->mlkem_first) {
        memcpy(out, k->ml->ek, ek);
        memcpy(out + ek, k->ec_pub, ec);
    } else {
        memcpy(out, k->ec_pub, ec);
        memcpy(out + ec, k->ml->ek, ek);
    }
}

/* Load an untrusted client share into an empty key: the FIPS 203 §7.2 check
 * (in mlkem_key_set_ek) and the point validation. All or nothing. */
static int hyb_load_pub(MLKEM_HYBRID_KEY *k, const uint8_t *in, size_t len)
{
    size_t ek = k->params->ek_bytes, ec = k->info->ec_pub_bytes;
    const uint8_t *ek_in, *ec_in;
    EVP_PKEY *pkey = NULL;
    int err;

    if (mlkem_hybrid_has_pub(k) || k->ml->flags != 0) {
        MLKEM_RAISE(k->provctx, MLKEM_R_KEY_NOT_EMPTY);
        return 0;
    }
    if (len != ek + ec) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_KEY_LENGTH, "%s share: %zu bytes, want %zu",
                         k->info->name, len, ek + ec);
        return 0;
    }
    ek_in = k->info->mlkem_first ? in : in + ec;
    ec_in = k->info->mlkem_first ? in + ek : in;
    if ((err = mlkem_key_set_ek(k->ml, ek_in, ek)) != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(k->provctx, err);
        mlkem_key_cleanse(k->ml);
        return 0;
    }
    if (!mlkem_hybrid_ec_import_pub(k, NULL, ec_in, ec, &pkey)) {
        mlkem_key_cleanse(k->ml);
        return 0;
    }
    k->ec = pkey;
    k->ec_priv = 0;
    memcpy(k->ec_pub, ec_in, ec);
    return 1;
}

static int hyb_has(const void *vkey, int selection)
{
    const MLKEM_HYBRID_KEY *k = vkey;

    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !mlkem_hybrid_has_priv(k))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !mlkem_hybrid_has_pub(k))
        return 0;
    return 1; /* no domain parameters beyond the algorithm itself */
}

static int hyb_match(const void *vk1, const void *vk2, int selection)
{
    const MLKEM_HYBRID_KEY *a = vk1, *b = vk2;
    int pa = mlkem_hybrid_has_pub(a), pb = mlkem_hybrid_has_pub(b);

    if (a == NULL || b == NULL || a->info != b->info)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (pa != pb)
        return 0;
    if (!pa)
        return 1; /* two empty keys of the same group */
    /* The public halves determine the private ones. */
    return mlkem_key_ek_equal(a->ml, b->ml)
           && CRYPTO_memcmp(a->ec_pub, b->ec_pub, a->info->ec_pub_bytes) == 0;
}

static void *hyb_dup(const void *vsrc, int selection)
{
    const MLKEM_HYBRID_KEY *src = vsrc;
    MLKEM_HYBRID_KEY *k;

    if (src == NULL || (k = hyb_key_new(src->provctx, src->info)) == NULL)
        return NULL;
    if (src->propq != NULL && (k->propq = OPENSSL_strdup(src->propq)) == NULL)
        goto err;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0 || !mlkem_hybrid_has_pub(src))
        return k;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && src->ec_priv) {
        /* Whole key pair: a copy of the parsed ML-KEM key (secure heap to
         * secure heap) and of the classical key. */
        memcpy(k->ml, src->ml, sizeof(*k->ml));
        if ((k->ec = EVP_PKEY_dup(src->ec)) == NULL)
            goto err;
        k->ec_priv = 1;
        memcpy(k->ec_pub, src->ec_pub, src->info->ec_pub_bytes);
        return k;
    }
    /* Public half only (or a public key): re-parse its encoding. */
    {
        uint8_t pub[MLKEM_HYBRID_MAX_PUB];

        hyb_encode_pub(src, pub);
        if (!hyb_load_pub(k, pub, mlkem_hybrid_pub_bytes(src->info)))
            goto err;
    }
    return k;
err:
    hyb_free(k);
    return NULL;
}

/* ---- Parameters --------------------------------------------------------- */

static const OSSL_PARAM *hyb_gettable_params(void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
        OSSL_PARAM_END
    };

    (void)provctx;
    return params;
}

/* As in 3.5: bits and security bits are the ML-KEM key's; max-size is the
 * server share (ciphertext) size. */
static int hyb_get_params(void *vkey, OSSL_PARAM params[])
{
    MLKEM_HYBRID_KEY *k = vkey;
    const char *pubnames[2] = {OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
                               OSSL_PKEY_PARAM_PUB_KEY};
    OSSL_PARAM *p;
    size_t i;

    if (k == NULL)
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL
        && !mlkem_prov_set_int(k->provctx, p, (int)k->params->bits))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL
        && !mlkem_prov_set_int(k->provctx, p, (int)k->params->security_bits))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL
        && !mlkem_prov_set_int(k->provctx, p,
                               (int)mlkem_hybrid_ct_bytes(k->info)))
        return 0;
    for (i = 0; i < 2; i++) {
        uint8_t pub[MLKEM_HYBRID_MAX_PUB];

        if ((p = OSSL_PARAM_locate(params, pubnames[i])) == NULL)
            continue;
        if (!mlkem_hybrid_has_pub(k)) {
            MLKEM_RAISE(k->provctx, MLKEM_R_MISSING_KEY);
            return 0;
        }
        /* A NULL p->data is a size query (return_size is set). */
        hyb_encode_pub(k, pub);
        if (!mlkem_prov_set_octets(k->provctx, p, pub,
                                   mlkem_hybrid_pub_bytes(k->info)))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM *hyb_settable_params(void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_END
    };

    (void)provctx;
    return params;
}

static int set_propq(char **propq, const OSSL_PARAM *p)
{
    char *s = NULL;

    if (p->data_type != OSSL_PARAM_UTF8_STRING
        || !OSSL_PARAM_get_utf8_string(p, &s, 0))
        return 0;
    OPENSSL_free(*propq);
    *propq = s;
    return 1;
}

/* "encoded-pub-key" only on an empty key (libssl's server side); a key that
 * holds material is immutable. */
static int hyb_set_params(void *vkey, const OSSL_PARAM params[])
{
    MLKEM_HYBRID_KEY *k = vkey;
    const OSSL_PARAM *p;
    const void *data;
    size_t len;

    if (k == NULL)
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PROPERTIES)) != NULL
        && !set_propq(&k->propq, p))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) == NULL)
        return 1;
    if (!mlkem_prov_get_octets(k->provctx, p, &data, &len))
        return 0;
    return hyb_load_pub(k, data, len);
}

/* ---- Import / export: public key only ----------------------------------- */

static const OSSL_PARAM *hyb_imexport_types(int selection)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
        OSSL_PARAM_END
    };

    return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 ? params : NULL;
}

static int hyb_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    MLKEM_HYBRID_KEY *k = vkey;
    const OSSL_PARAM *p;
    const void *data;
    size_t len;

    if (k == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL
        && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_PARAMETER,
                         "%s: private key import is not supported", k->info->name);
        return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY)) == NULL) {
        MLKEM_RAISE(k->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    if (!mlkem_prov_get_octets(k->provctx, p, &data, &len))
        return 0;
    return hyb_load_pub(k, data, len);
}

/* Exporting a private key would silently lose it (only "pub" exists), so a
 * selection asking for the private half of a key pair fails, and fails
 * without raising an error: OpenSSL 3.2+ evp_kem_init() first tries to
 * export the key to the provider of whichever KEM a plain fetch returns
 * (on 3.5, the default provider's X25519MLKEM768), then falls back to the
 * key's own provider, leaving any error of the first attempt queued; libssl
 * then reads that stale error in SSL_get_error() and fails the first
 * SSL_read of a completed handshake. */
static int hyb_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    MLKEM_HYBRID_KEY *k = vkey;
    uint8_t pub[MLKEM_HYBRID_MAX_PUB];
    OSSL_PARAM params[2];

    if (k == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && mlkem_hybrid_has_priv(k))
        return 0;
    if (!mlkem_hybrid_has_pub(k)) {
        MLKEM_RAISE(k->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    hyb_encode_pub(k, pub);
    params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                  mlkem_hybrid_pub_bytes(k->info));
    params[1] = OSSL_PARAM_construct_end();
    return cb(params, cbarg);
}

/* ---- Generation --------------------------------------------------------- */

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_hybrid_info *info;
    int selection;
    char *propq;
} HYB_GEN_CTX;

static const OSSL_PARAM *hyb_gen_settable_params(void *vgctx, void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_END
    };

    (void)vgctx;
    (void)provctx;
    return params;
}

/* libssl sends "group" (the TLS group's internal name, "" for ours as in
 * 3.5): the algorithm already fixes the group, so only its type is checked. */
static int hyb_gen_set_params(void *vgctx, const OSSL_PARAM params[])
{
    HYB_GEN_CTX *g = vgctx;
    const OSSL_PARAM *p;

    if (g == NULL)
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME)) != NULL
        && p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PROPERTIES)) != NULL
        && !set_propq(&g->propq, p))
        return 0;
    return 1;
}

static void *hyb_gen_init(MLKEM_PROV_CTX *provctx, const mlkem_hybrid_info *info,
                          int selection, const OSSL_PARAM params[])
{
    HYB_GEN_CTX *g;

    if (provctx == NULL || (g = OPENSSL_zalloc(sizeof(*g))) == NULL)
        return NULL;
    g->provctx = provctx;
    g->info = info;
    g->selection = selection;
    if (!hyb_gen_set_params(g, params)) {
        hyb_gen_cleanup(g);
        return NULL;
    }
    return g;
}

static void hyb_gen_cleanup(void *vgctx)
{
    HYB_GEN_CTX *g = vgctx;

    if (g == NULL)
        return;
    OPENSSL_free(g->propq);
    OPENSSL_free(g);
}

/* keygen: FIPS 203 Algorithm 19 (d, z from the library context's RBG) plus
 * a classical key pair. paramgen (no key pair selected): an empty key. */
static void *hyb_gen(void *vgctx, OSSL_CALLBACK *cb, void *cbarg)
{
    HYB_GEN_CTX *g = vgctx;
    MLKEM_HYBRID_KEY *k;
    uint8_t seed[MLKEM_SEED_BYTES];
    int err;

    (void)cb;
    (void)cbarg;
    if (g == NULL || (k = hyb_key_new(g->provctx, g->info)) == NULL)
        return NULL;
    if (g->propq != NULL && (k->propq = OPENSSL_strdup(g->propq)) == NULL)
        goto err;
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return k;
    if (!mlkem_prov_rand(k->provctx, seed, sizeof(seed))) {
        MLKEM_RAISE(k->provctx, MLKEM_R_RANDOM_FAILED);
        goto err;
    }
    err = mlkem_key_generate(k->ml, seed, seed + MLKEM_SYM_BYTES);
    /* d and z are secret: the key keeps its own copy (FIPS 203 §3.3). */
    OPENSSL_cleanse(seed, sizeof(seed));
    if (err != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(k->provctx, err);
        goto err;
    }
    if (!mlkem_hybrid_ec_generate(k, NULL, &k->ec, k->ec_pub))
        goto err;
    k->ec_priv = 1;
    return k;
err:
    hyb_free(k);
    return NULL;
}

/* ---- One dispatch table per hybrid -------------------------------------- */

#define MLKEM_HYBRID_KEYMGMT(name, info)                                        \
    static OSSL_FUNC_keymgmt_new_fn hyb_##name##_new;                           \
    static OSSL_FUNC_keymgmt_gen_init_fn hyb_##name##_gen_init;                 \
    static void *hyb_##name##_new(void *provctx)                                \
    {                                                                           \
        return hyb_key_new(provctx, &(info));                                   \
    }                                                                           \
    static void *hyb_##name##_gen_init(void *provctx, int selection,            \
                                       const OSSL_PARAM params[])               \
    {                                                                           \
        return hyb_gen_init(provctx, &(info), selection, params);               \
    }                                                                           \
    const OSSL_DISPATCH mlkem_##name##_keymgmt_functions[] = {                  \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))hyb_##name##_new},              \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))hyb_free},                     \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))hyb_has},                       \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))hyb_match},                   \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))hyb_dup},                       \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))hyb_##name##_gen_init},    \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))hyb_gen_set_params}, \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,                                 \
         (void (*)(void))hyb_gen_settable_params},                              \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))hyb_gen},                       \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))hyb_gen_cleanup},       \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))hyb_get_params},         \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS,                                     \
         (void (*)(void))hyb_gettable_params},                                  \
        {OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))hyb_set_params},         \
        {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS,                                     \
         (void (*)(void))hyb_settable_params},                                  \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))hyb_import},                 \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))hyb_imexport_types},   \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))hyb_export},                 \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))hyb_imexport_types},   \
        {0, NULL}}

MLKEM_HYBRID_KEYMGMT(x25519mlkem768, mlkem_hybrid_x25519mlkem768);
MLKEM_HYBRID_KEYMGMT(secp256r1mlkem768, mlkem_hybrid_secp256r1mlkem768);
MLKEM_HYBRID_KEYMGMT(secp384r1mlkem1024, mlkem_hybrid_secp384r1mlkem1024);
MLKEM_HYBRID_KEYMGMT(x448mlkem1024, mlkem_hybrid_x448mlkem1024);
