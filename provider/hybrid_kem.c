/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hybrid_kem.c: encapsulate / decapsulate for X25519MLKEM768,
 * SecP256r1MLKEM768, SecP384r1MLKEM1024 and X448MLKEM1024 (one KEM serves
 * all four; the key object says which).
 *
 * References
 *   [HYB]     draft-ietf-tls-ecdhe-mlkem, §3: the server share is the ML-KEM
 *             ciphertext and an ephemeral ECDH public key; the shared secret
 *             is the concatenation of the two secrets, in share order.
 *   [FIPS203] NIST FIPS 203: Algorithm 20 (ML-KEM.Encaps), Algorithm 21
 *             (ML-KEM.Decaps), §3.3 (destroy intermediate values).
 *   OpenSSL 3.5 providers/implementations/kem/mlx_kem.c (behaviour matched:
 *   fresh ephemeral ECDH key per encapsulation, NULL-buffer size queries).
 *
 * Layouts (bytes; c = ML-KEM ciphertext, K = ML-KEM secret, P = point):
 *   X25519MLKEM768       ct = c 1088 || u 32      ss = K 32 || X25519 32
 *   X448MLKEM1024        ct = c 1568 || u 56      ss = K 32 || X448 56
 *   SecP256r1MLKEM768    ct = P 65   || c 1088    ss = ECDH 32 || K 32
 *   SecP384r1MLKEM1024   ct = P 97   || c 1568    ss = ECDH 48 || K 32
 * Every function returns 1 or 0, never a negative value (the provider KEM
 * contract libssl is written against).
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "provider/hybrid.h"
#include "provider/prov.h"

static OSSL_FUNC_kem_newctx_fn hkem_newctx;
static OSSL_FUNC_kem_freectx_fn hkem_freectx;
static OSSL_FUNC_kem_dupctx_fn hkem_dupctx;
static OSSL_FUNC_kem_encapsulate_init_fn hkem_encapsulate_init;
static OSSL_FUNC_kem_encapsulate_fn hkem_encapsulate;
static OSSL_FUNC_kem_decapsulate_init_fn hkem_decapsulate_init;
static OSSL_FUNC_kem_decapsulate_fn hkem_decapsulate;
static OSSL_FUNC_kem_set_ctx_params_fn hkem_set_ctx_params;
static OSSL_FUNC_kem_settable_ctx_params_fn hkem_settable_ctx_params;

typedef struct {
    MLKEM_PROV_CTX *provctx;
    MLKEM_HYBRID_KEY *key; /* not owned: EVP keeps the EVP_PKEY alive */
} HYB_KEM_CTX;

static void *hkem_newctx(void *provctx)
{
    HYB_KEM_CTX *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx != NULL)
        ctx->provctx = provctx;
    return ctx;
}

static void hkem_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

static void *hkem_dupctx(void *vctx)
{
    HYB_KEM_CTX *src = vctx, *ctx;

    if (src == NULL || (ctx = OPENSSL_malloc(sizeof(*ctx))) == NULL)
        return NULL;
    *ctx = *src;
    return ctx;
}

static const OSSL_PARAM *hkem_settable_ctx_params(void *vctx, void *provctx)
{
    static const OSSL_PARAM params[] = {OSSL_PARAM_END};

    (void)vctx;
    (void)provctx;
    return params;
}

/* No context parameters (TLS passes none; there is no "ikme" for hybrids,
 * as in 3.5, since the ECDH half needs fresh randomness anyway). */
static int hkem_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    (void)params;
    return vctx != NULL;
}

static int hkem_encapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    HYB_KEM_CTX *ctx = vctx;
    MLKEM_HYBRID_KEY *key = vkey;

    if (ctx == NULL)
        return 0;
    if (!mlkem_hybrid_has_pub(key)) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    ctx->key = key;
    return hkem_set_ctx_params(ctx, params);
}

static int hkem_decapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    HYB_KEM_CTX *ctx = vctx;
    MLKEM_HYBRID_KEY *key = vkey;

    if (ctx == NULL)
        return 0;
    if (!mlkem_hybrid_has_priv(key)) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    ctx->key = key;
    return hkem_set_ctx_params(ctx, params);
}

/*
 * Server side: out = server share, secret = combined secret.
 * ML-KEM.Encaps (FIPS 203 Algorithm 20) to the client's ek with m from the
 * library context's RBG, then an ephemeral classical key pair and its
 * ECDH / X25519 secret with the client's classical share.
 */
static int hkem_encapsulate(void *vctx, unsigned char *out, size_t *outlen,
                            unsigned char *secret, size_t *secretlen)
{
    HYB_KEM_CTX *ctx = vctx;
    const MLKEM_HYBRID_KEY *k;
    const mlkem_hybrid_info *info;
    size_t ct_bytes, ss_bytes, c_len, ec_len;
    uint8_t *c, *ec_out, *K, *ec_ss;
    uint8_t m[MLKEM_SYM_BYTES];
    EVP_PKEY *eph = NULL;
    int ok = 0, err;

    if (ctx == NULL || (k = ctx->key) == NULL || !mlkem_hybrid_has_pub(k)) {
        MLKEM_RAISE(ctx != NULL ? ctx->provctx : NULL, MLKEM_R_MISSING_KEY);
        return 0;
    }
    info = k->info;
    ct_bytes = mlkem_hybrid_ct_bytes(info);
    ss_bytes = mlkem_hybrid_ss_bytes(info);
    if (out == NULL) { /* size query */
        if (outlen == NULL && secretlen == NULL)
            return 0;
        if (outlen != NULL)
            *outlen = ct_bytes;
        if (secretlen != NULL)
            *secretlen = ss_bytes;
        return 1;
    }
    if (outlen == NULL || *outlen < ct_bytes || secret == NULL
        || secretlen == NULL || *secretlen < ss_bytes) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_OUTPUT_TOO_SMALL);
        return 0;
    }

    c_len = k->params->ct_bytes;
    ec_len = info->ec_pub_bytes;
    c = info->mlkem_first ? out : out + ec_len;
    ec_out = info->mlkem_first ? out + c_len : out;
    K = info->mlkem_first ? secret : secret + info->ec_ss_bytes;
    ec_ss = info->mlkem_first ? secret + MLKEM_SS_BYTES : secret;

    /* FIPS 203 Algorithm 20, line 1: m <- B^32 from an approved RBG. */
    if (!mlkem_prov_rand(k->provctx, m, sizeof(m))) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_RANDOM_FAILED);
        goto end;
    }
    if ((err = mlkem_key_encaps(k->ml, c, K, m)) != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(ctx->provctx, err);
        goto end;
    }
    /* The client's share is the template: same group, no fetch by name. */
    if (!mlkem_hybrid_ec_generate(k, k->ec, &eph, ec_out)
        || !mlkem_hybrid_ec_derive(k, eph, k->ec, ec_ss))
        goto end;
    *outlen = ct_bytes;
    *secretlen = ss_bytes;
    ok = 1;
end:
    /* m is the ML-KEM secret's preimage (FIPS 203 §3.3); the ephemeral
     * classical key goes with EVP_PKEY_free, which wipes it. */
    OPENSSL_cleanse(m, sizeof(m));
    if (!ok)
        OPENSSL_cleanse(secret, ss_bytes);
    EVP_PKEY_free(eph);
    return ok;
}

/*
 * Client side: in = server share, out = combined secret.
 * ML-KEM.Decaps (FIPS 203 Algorithm 21; a well-sized but invalid c gives
 * the implicit-rejection secret, which then fails the TLS Finished check),
 * and ECDH / X25519 between the key pair generated at keygen and the
 * server's ephemeral share (validated here).
 */
static int hkem_decapsulate(void *vctx, unsigned char *out, size_t *outlen,
                            const unsigned char *in, size_t inlen)
{
    HYB_KEM_CTX *ctx = vctx;
    const MLKEM_HYBRID_KEY *k;
    const mlkem_hybrid_info *info;
    size_t ss_bytes, c_len, ec_len;
    const uint8_t *c, *ec_in;
    uint8_t *K, *ec_ss;
    EVP_PKEY *peer = NULL;
    int ok = 0, err;

    if (ctx == NULL || (k = ctx->key) == NULL || !mlkem_hybrid_has_priv(k)) {
        MLKEM_RAISE(ctx != NULL ? ctx->provctx : NULL, MLKEM_R_MISSING_KEY);
        return 0;
    }
    info = k->info;
    ss_bytes = mlkem_hybrid_ss_bytes(info);
    if (out == NULL) { /* size query */
        if (outlen == NULL)
            return 0;
        *outlen = ss_bytes;
        return 1;
    }
    if (outlen == NULL || *outlen < ss_bytes) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_OUTPUT_TOO_SMALL);
        return 0;
    }
    if (in == NULL || inlen != mlkem_hybrid_ct_bytes(info)) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_CIPHERTEXT_LENGTH, "%s: %zu bytes, want %zu",
                         info->name, inlen, mlkem_hybrid_ct_bytes(info));
        return 0;
    }

    c_len = k->params->ct_bytes;
    ec_len = info->ec_pub_bytes;
    c = info->mlkem_first ? in : in + ec_len;
    ec_in = info->mlkem_first ? in + c_len : in;
    K = info->mlkem_first ? out : out + info->ec_ss_bytes;
    ec_ss = info->mlkem_first ? out + MLKEM_SS_BYTES : out;

    if ((err = mlkem_key_decaps(k->ml, K, c, c_len)) != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(ctx->provctx, err);
        goto end;
    }
    /* Our key pair is the template for the server's share. */
    if (!mlkem_hybrid_ec_import_pub(k, k->ec, ec_in, ec_len, &peer)
        || !mlkem_hybrid_ec_derive(k, k->ec, peer, ec_ss))
        goto end;
    *outlen = ss_bytes;
    ok = 1;
end:
    if (!ok)
        OPENSSL_cleanse(out, ss_bytes);
    EVP_PKEY_free(peer);
    return ok;
}

const OSSL_DISPATCH mlkem_hybrid_kem_functions[] = {
    {OSSL_FUNC_KEM_NEWCTX, (void (*)(void))hkem_newctx},
    {OSSL_FUNC_KEM_FREECTX, (void (*)(void))hkem_freectx},
    {OSSL_FUNC_KEM_DUPCTX, (void (*)(void))hkem_dupctx},
    {OSSL_FUNC_KEM_ENCAPSULATE_INIT, (void (*)(void))hkem_encapsulate_init},
    {OSSL_FUNC_KEM_ENCAPSULATE, (void (*)(void))hkem_encapsulate},
    {OSSL_FUNC_KEM_DECAPSULATE_INIT, (void (*)(void))hkem_decapsulate_init},
    {OSSL_FUNC_KEM_DECAPSULATE, (void (*)(void))hkem_decapsulate},
    {OSSL_FUNC_KEM_SET_CTX_PARAMS, (void (*)(void))hkem_set_ctx_params},
    {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, (void (*)(void))hkem_settable_ctx_params},
    {0, NULL}};
