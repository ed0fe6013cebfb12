/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hard_util.c: see hard_util.h.
 */
#include "test/hardening/hard_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/params.h>

const hard_alg hard_algs[HARD_NALGS] = {
    { "ML-KEM-512", 0, 800, 768, 32 },
    { "ML-KEM-768", 0, 1184, 1088, 32 },
    { "ML-KEM-1024", 0, 1568, 1568, 32 },
    { "X25519MLKEM768", 1, 1184 + 32, 1088 + 32, 64 },
    { "SecP256r1MLKEM768", 1, 65 + 1184, 65 + 1088, 64 },
    { "SecP384r1MLKEM1024", 1, 97 + 1568, 97 + 1568, 80 },
};

const char *hard_moddir(int argc, char **argv)
{
    const char *d = argc > 1 ? argv[1] : getenv("MLKEM_PROVIDER_DIR");
    if (d == NULL || *d == '\0') {
        fprintf(stderr, "usage: %s <directory holding mlkem.so> "
                "(or MLKEM_PROVIDER_DIR)\n", argv[0]);
        exit(2);
    }
    return d;
}

int hard_served_by_mlkem(const EVP_PKEY *k)
{
    const OSSL_PROVIDER *p = k != NULL ? EVP_PKEY_get0_provider(k) : NULL;
    const char *n = p != NULL ? OSSL_PROVIDER_get0_name(p) : NULL;
    return n != NULL && strcmp(n, "mlkem") == 0;
}

/* ---- Keys and KEM operations ---------------------------------------------- */

EVP_PKEY *hard_keygen(test_env *e, const hard_alg *a, const uint8_t *seed)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, a->name,
                                                   HARD_PROPQ);
    EVP_PKEY *k = NULL;
    OSSL_PARAM params[2];

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1)
        goto end;
    if (a->hybrid) {
        /* libssl's client: the TLS group's internal name ("" for ours). */
        if (seed != NULL || EVP_PKEY_CTX_set_group_name(ctx, "") != 1)
            goto end;
    } else if (seed != NULL) {
        params[0] = OSSL_PARAM_construct_octet_string("seed", (void *)seed, 64);
        params[1] = OSSL_PARAM_construct_end();
        if (EVP_PKEY_CTX_set_params(ctx, params) != 1)
            goto end;
    }
    if (EVP_PKEY_keygen(ctx, &k) != 1) {
        EVP_PKEY_free(k);
        k = NULL;
    }
end:
    EVP_PKEY_CTX_free(ctx);
    return k;
}

int hard_get_pub(const EVP_PKEY *k, uint8_t *pub, size_t cap, size_t *len)
{
    *len = 0;
    return EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
                                           pub, cap, len) == 1;
}

EVP_PKEY *hard_pub_from(test_env *e, const hard_alg *a, const uint8_t *pub,
                        size_t len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, a->name,
                                                   HARD_PROPQ);
    EVP_PKEY *k = NULL;
    OSSL_PARAM params[2];

    if (ctx == NULL)
        return NULL;
    if (a->hybrid) {
        /* libssl's server: an empty key of the group, then the share. */
        if (EVP_PKEY_paramgen_init(ctx) != 1
            || EVP_PKEY_CTX_set_group_name(ctx, "") != 1
            || EVP_PKEY_paramgen(ctx, &k) != 1
            || EVP_PKEY_set1_encoded_public_key(k, pub, len) != 1) {
            EVP_PKEY_free(k);
            k = NULL;
        }
    } else {
        params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                      (void *)pub, len);
        params[1] = OSSL_PARAM_construct_end();
        if (EVP_PKEY_fromdata_init(ctx) != 1
            || EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) != 1) {
            EVP_PKEY_free(k);
            k = NULL;
        }
    }
    EVP_PKEY_CTX_free(ctx);
    return k;
}

int hard_encaps(test_env *e, EVP_PKEY *k, const uint8_t *ikme, uint8_t *ct,
                size_t *ctlen, uint8_t *ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k, HARD_PROPQ);
    OSSL_PARAM params[2];
    int ok = 0;

    if (ctx == NULL)
        return 0;
    params[0] = OSSL_PARAM_construct_octet_string("ikme", (void *)ikme, 32);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_PKEY_encapsulate_init(ctx, ikme != NULL ? params : NULL) == 1)
        ok = EVP_PKEY_encapsulate(ctx, ct, ctlen, ss, sslen) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

int hard_decaps(test_env *e, EVP_PKEY *k, const uint8_t *ct, size_t ctlen,
                uint8_t *ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k, HARD_PROPQ);
    int ok = 0;

    if (ctx == NULL)
        return 0;
    if (EVP_PKEY_decapsulate_init(ctx, NULL) == 1)
        ok = EVP_PKEY_decapsulate(ctx, ss, sslen, ct, ctlen) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

/* ---- Encode / decode ------------------------------------------------------ */

int hard_encode(const EVP_PKEY *k, int selection, const char *format,
                const char *structure, const char *pass, uint8_t **out,
                size_t *outlen)
{
    OSSL_ENCODER_CTX *ctx;
    int ok = 0;

    *out = NULL;
    *outlen = 0;
    ctx = OSSL_ENCODER_CTX_new_for_pkey(k, selection, format, structure, NULL);
    if (ctx == NULL || OSSL_ENCODER_CTX_get_num_encoders(ctx) == 0)
        goto end;
    if (pass != NULL
        && (OSSL_ENCODER_CTX_set_cipher(ctx, "AES-256-CBC", NULL) != 1
            || OSSL_ENCODER_CTX_set_passphrase(ctx, (const unsigned char *)pass,
                                               strlen(pass)) != 1))
        goto end;
    ok = OSSL_ENCODER_to_data(ctx, out, outlen) == 1;
end:
    OSSL_ENCODER_CTX_free(ctx);
    return ok;
}

EVP_PKEY *hard_decode(test_env *e, const char *format, const uint8_t *in,
                      size_t len, const char *pass)
{
    EVP_PKEY *k = NULL;
    OSSL_DECODER_CTX *ctx;

    ctx = OSSL_DECODER_CTX_new_for_pkey(&k, format, NULL, NULL, 0, e->libctx,
                                        NULL);
    if (ctx == NULL)
        return NULL;
    if (pass != NULL
        && OSSL_DECODER_CTX_set_passphrase(ctx, (const unsigned char *)pass,
                                           strlen(pass)) != 1)
        goto end;
    if (OSSL_DECODER_from_data(ctx, &in, &len) != 1) {
        EVP_PKEY_free(k);
        k = NULL;
    }
end:
    OSSL_DECODER_CTX_free(ctx);
    return k;
}
