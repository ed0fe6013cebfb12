/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evp_util.c: see evp_util.h.
 */
#include "test/provider/evp_util.h"

#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/rand.h>

const evp_variant evp_variants[3] = {
    { "ML-KEM-512", "MLKEM512", "id-alg-ml-kem-512", "2.16.840.1.101.3.4.4.1",
      512, 128, 800, 1632, 768 },
    { "ML-KEM-768", "MLKEM768", "id-alg-ml-kem-768", "2.16.840.1.101.3.4.4.2",
      768, 192, 1184, 2400, 1088 },
    { "ML-KEM-1024", "MLKEM1024", "id-alg-ml-kem-1024",
      "2.16.840.1.101.3.4.4.3", 1024, 256, 1568, 3168, 1568 },
};

const evp_variant *evp_variant_by_name(const char *name)
{
    for (size_t i = 0; i < 3; i++)
        if (strcmp(evp_variants[i].name, name) == 0)
            return &evp_variants[i];
    return NULL;
}

const char *evp_skip_reason;

int evp_expect_reason_at(int ok, const char *reason, const char *file,
                         int line, const char *what)
{
    unsigned long e;
    const char *lib, *got;

    if (!test_check_at(!ok, file, line, "%s: succeeded, expected \"%s\"",
                       what, reason)) {
        ERR_clear_error();
        return 0;
    }
    e = ERR_peek_error();
    lib = ERR_lib_error_string(e);
    got = ERR_reason_error_string(e);
    int good = e != 0 && lib != NULL && strcmp(lib, "mlkem") == 0
               && got != NULL && strcmp(got, reason) == 0;
    test_check_at(good, file, line,
                  "%s: first error is lib \"%s\" reason \"%s\" (0x%lx), "
                  "expected mlkem \"%s\"", what, lib ? lib : "(null)",
                  got ? got : "(null)", e, reason);
    ERR_clear_error();
    return good;
}

int evp_bytes_eq(const char *what, const uint8_t *got, size_t gotlen,
                 const uint8_t *exp, size_t explen)
{
    if (gotlen != explen) {
        fprintf(stderr, "    %s: length %zu, expected %zu\n", what, gotlen,
                explen);
        return 0;
    }
    for (size_t i = 0; i < gotlen; i++) {
        if (got[i] != exp[i]) {
            fprintf(stderr, "    %s: differs at byte %zu: got %02x, expected "
                    "%02x\n", what, i, got[i], exp[i]);
            return 0;
        }
    }
    return 1;
}

EVP_PKEY *evp_import(test_env *e, const char *alg, int selection,
                     const uint8_t *pub, size_t publen, const uint8_t *priv,
                     size_t privlen, const uint8_t *seed, size_t seedlen)
{
    OSSL_PARAM params[4];
    size_t n = 0;
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *k = NULL;

    if (pub != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, publen);
    if (priv != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PRIV_KEY, (void *)priv, privlen);
    if (seed != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string("seed", (void *)seed,
                                                        seedlen);
    params[n] = OSSL_PARAM_construct_end();
    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, alg, EVP_TEST_PROPQ);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1
        || EVP_PKEY_fromdata(ctx, &k, selection, params) != 1) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return k;
}

EVP_PKEY *evp_keygen(test_env *e, const char *alg, const uint8_t *seed,
                     size_t seedlen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, alg,
                                                   EVP_TEST_PROPQ);
    EVP_PKEY *k = NULL;
    OSSL_PARAM params[2];

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1)
        goto end;
    if (seed != NULL) {
        params[0] = OSSL_PARAM_construct_octet_string("seed", (void *)seed,
                                                      seedlen);
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

int evp_get_octets(const EVP_PKEY *k, const char *name, uint8_t *buf,
                   size_t cap, size_t *len)
{
    *len = 0;
    return EVP_PKEY_get_octet_string_param(k, name, buf, cap, len) == 1;
}

int evp_encaps(test_env *e, EVP_PKEY *k, const uint8_t *ikme, size_t ikmelen,
               uint8_t *ct, size_t *ctlen, uint8_t *ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k,
                                                   EVP_TEST_PROPQ);
    OSSL_PARAM params[2];
    int ok = 0;

    if (ctx == NULL)
        return 0;
    params[0] = OSSL_PARAM_construct_octet_string("ikme", (void *)ikme,
                                                  ikmelen);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_PKEY_encapsulate_init(ctx, ikme != NULL ? params : NULL) != 1)
        goto end;
    ok = EVP_PKEY_encapsulate(ctx, ct, ctlen, ss, sslen) == 1;
end:
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

int evp_decaps(test_env *e, EVP_PKEY *k, const uint8_t *ct, size_t ctlen,
               uint8_t *ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k,
                                                   EVP_TEST_PROPQ);
    int ok = 0;

    if (ctx == NULL)
        return 0;
    if (EVP_PKEY_decapsulate_init(ctx, NULL) == 1)
        ok = EVP_PKEY_decapsulate(ctx, ss, sslen, ct, ctlen) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

int evp_shake256(test_env *e, const uint8_t *in1, size_t len1,
                 const uint8_t *in2, size_t len2, uint8_t *out, size_t outlen)
{
    EVP_MD *md = EVP_MD_fetch(e->libctx, "SHAKE256", "provider=default");
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = md != NULL && c != NULL && EVP_DigestInit_ex(c, md, NULL) == 1
             && EVP_DigestUpdate(c, in1, len1) == 1
             && EVP_DigestUpdate(c, in2, len2) == 1
             && EVP_DigestFinalXOF(c, out, outlen) == 1;

    EVP_MD_CTX_free(c);
    EVP_MD_free(md);
    return ok;
}

void evp_random(test_env *e, uint8_t *buf, size_t len)
{
    if (RAND_bytes_ex(e->libctx, buf, len, 0) != 1)
        TEST_CHECK(0, "RAND_bytes_ex failed");
}
