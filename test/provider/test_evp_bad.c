/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_bad.c: bad input through EVP. Each case asserts failure AND the
 * exact reason string of the first error (from the mlkem provider), except
 * the cases that must be ignored or must succeed (unknown parameters,
 * implicit rejection).
 *
 * FIPS 203 §7.2: encapsulation key type and modulus checks; §7.3:
 * ciphertext type check, decapsulation key type and hash checks.
 */
#include "test/provider/evp_util.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define R_DK_NOT_REDUCED "decapsulation key not reduced mod q"

/* Set coefficient i of a ByteEncode12 string (FIPS 203 Algorithm 5). */
static void put_coeff12(uint8_t *b, size_t i, unsigned c)
{
    uint8_t *p = b + 3 * (i / 2);
    if (i % 2 == 0) {
        p[0] = (uint8_t)c;
        p[1] = (uint8_t)((p[1] & 0xF0) | ((c >> 8) & 0x0F));
    } else {
        p[1] = (uint8_t)((p[1] & 0x0F) | ((c << 4) & 0xF0));
        p[2] = (uint8_t)(c >> 4);
    }
}

static unsigned get_coeff12(const uint8_t *b, size_t i)
{
    const uint8_t *p = b + 3 * (i / 2);
    if (i % 2 == 0)
        return p[0] | ((unsigned)(p[1] & 0x0F) << 8);
    return (p[1] >> 4) | ((unsigned)p[2] << 4);
}

static int set_ctx_params1(EVP_PKEY_CTX *ctx, OSSL_PARAM p)
{
    OSSL_PARAM params[2] = { p, OSSL_PARAM_construct_end() };
    return EVP_PKEY_CTX_set_params(ctx, params) == 1;
}

static void bad_lengths(test_env *e, const evp_variant *v, const uint8_t *ek,
                        const uint8_t *dk, const uint8_t *seed)
{
    uint8_t big[3200];
    EVP_PKEY *p;
    char what[96];

    memset(big, 0, sizeof(big));
    /* ek: one byte short, one byte long. */
    memcpy(big, ek, v->ek);
    for (int d = -1; d <= 1; d += 2) {
        snprintf(what, sizeof(what), "%s: import ek of %zu bytes", v->name,
                 v->ek + d);
        p = evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, big, v->ek + d, NULL,
                       0, NULL, 0);
        EXPECT_REASON(p != NULL, R_KEY_LENGTH, what);
        EVP_PKEY_free(p);
    }
    /* dk. */
    memcpy(big, dk, v->dk);
    for (int d = -1; d <= 1; d += 2) {
        snprintf(what, sizeof(what), "%s: import dk of %zu bytes", v->name,
                 v->dk + d);
        p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, big, v->dk + d,
                       NULL, 0);
        EXPECT_REASON(p != NULL, R_KEY_LENGTH, what);
        EVP_PKEY_free(p);
    }
    /* seed (import and keygen). */
    memcpy(big, seed, 64);
    for (size_t len = 63; len <= 65; len += 2) {
        snprintf(what, sizeof(what), "%s: import seed of %zu bytes", v->name,
                 len);
        p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, NULL, 0, big,
                       len);
        EXPECT_REASON(p != NULL, R_SEED_LENGTH, what);
        EVP_PKEY_free(p);
        snprintf(what, sizeof(what), "%s: keygen seed of %zu bytes", v->name,
                 len);
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name,
                                                       EVP_TEST_PROPQ);
        int ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1;
        TEST_CHECK(ok, "%s: keygen_init", v->name);
        if (ok)
            EXPECT_REASON(set_ctx_params1(ctx,
                                          OSSL_PARAM_construct_octet_string(
                                              "seed", big, len)),
                          R_SEED_LENGTH, what);
        EVP_PKEY_CTX_free(ctx);
    }
}

static void bad_kem_args(test_env *e, const evp_variant *v, EVP_PKEY *k,
                         EVP_PKEY *pub)
{
    uint8_t ikme[64] = { 0 }, ct[1600], ss[32];
    size_t ctlen = sizeof(ct), sslen = 32;
    char what[96];
    EVP_PKEY_CTX *ctx;

    /* ikme: 31, 33 and 64 bytes (the last "oversized"). */
    static const size_t ikme_lens[] = { 31, 33, 64 };
    for (size_t i = 0; i < 3; i++) {
        snprintf(what, sizeof(what), "%s: ikme of %zu bytes", v->name,
                 ikme_lens[i]);
        ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, pub, EVP_TEST_PROPQ);
        int ok = ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) == 1;
        TEST_CHECK(ok, "%s: encapsulate_init", v->name);
        if (ok)
            EXPECT_REASON(set_ctx_params1(ctx,
                                          OSSL_PARAM_construct_octet_string(
                                              "ikme", ikme, ikme_lens[i])),
                          R_IKME_LENGTH, what);
        EVP_PKEY_CTX_free(ctx);
    }
    /* ikme of the wrong type (a UTF-8 string). */
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, pub, EVP_TEST_PROPQ);
    if (TEST_CHECK(ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) == 1,
              "%s: encapsulate_init", v->name)) {
        char str[33];
        memset(str, 'a', 32);
        str[32] = '\0';
        EXPECT_REASON(set_ctx_params1(ctx, OSSL_PARAM_construct_utf8_string(
                                               "ikme", str, 32)),
                      R_BAD_PARAMETER, "ikme as a UTF-8 string");
        /* Unknown parameters are ignored. */
        TEST_CHECK(set_ctx_params1(ctx, OSSL_PARAM_construct_octet_string(
                                       "no-such-kem-param", ikme, 7)),
              "%s: unknown KEM ctx parameter not ignored", v->name);
        /* Output buffers one byte short. */
        ctlen = v->ct - 1;
        sslen = 32;
        EXPECT_REASON(EVP_PKEY_encapsulate(ctx, ct, &ctlen, ss, &sslen) == 1,
                      R_OUTPUT_TOO_SMALL, "ciphertext buffer too small");
        ctlen = v->ct;
        sslen = 31;
        EXPECT_REASON(EVP_PKEY_encapsulate(ctx, ct, &ctlen, ss, &sslen) == 1,
                      R_OUTPUT_TOO_SMALL, "secret buffer too small");
        ctlen = v->ct;
        sslen = 32;
        TEST_CHECK(EVP_PKEY_encapsulate(ctx, ct, &ctlen, ss, &sslen) == 1
                  && ctlen == v->ct,
              "%s: encapsulate after bad attempts", v->name);
    }
    EVP_PKEY_CTX_free(ctx);

    /* Decapsulation: ciphertext one byte short / long, short secret buffer. */
    for (int d = -1; d <= 1; d += 2) {
        snprintf(what, sizeof(what), "%s: decaps of a %zu-byte ciphertext",
                 v->name, v->ct + d);
        sslen = 32;
        EXPECT_REASON(evp_decaps(e, k, ct, v->ct + d, ss, &sslen),
                      R_CT_LENGTH, what);
    }
    sslen = 31;
    EXPECT_REASON(evp_decaps(e, k, ct, v->ct, ss, &sslen), R_OUTPUT_TOO_SMALL,
                  "decaps secret buffer too small");

    /* Decapsulation needs the private key. */
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, pub, EVP_TEST_PROPQ);
    EXPECT_REASON(ctx != NULL && EVP_PKEY_decapsulate_init(ctx, NULL) == 1,
                  R_MISSING_KEY, "decapsulate_init with a public key");
    EVP_PKEY_CTX_free(ctx);
}

static void bad_keys(test_env *e, const evp_variant *v, EVP_PKEY *k,
                     const uint8_t *ek, const uint8_t *dk)
{
    uint8_t bad[3168], other_seed[64], other_ek[1568];
    size_t len;
    EVP_PKEY *p, *other;
    char what[96];

    /* §7.2 modulus check: coefficient 0 of t-hat = 4095 >= q. */
    memcpy(bad, ek, v->ek);
    put_coeff12(bad, 0, 4095);
    snprintf(what, sizeof(what), "%s: import ek with a coefficient >= q",
             v->name);
    p = evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, bad, v->ek, NULL, 0,
                   NULL, 0);
    EXPECT_REASON(p != NULL, R_EK_NOT_REDUCED, what);
    EVP_PKEY_free(p);
    /* The same with the last coefficient = q exactly, via the TLS server
     * path (encoded-pub-key on an empty key). */
    memcpy(bad, ek, v->ek);
    put_coeff12(bad, 256 * (v->bits / 256) - 1, 3329);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name,
                                                   EVP_TEST_PROPQ);
    EVP_PKEY *empty = NULL;
    TEST_CHECK(ctx != NULL && EVP_PKEY_paramgen_init(ctx) == 1
              && EVP_PKEY_paramgen(ctx, &empty) == 1, "%s: paramgen", v->name);
    EVP_PKEY_CTX_free(ctx);
    if (empty != NULL) {
        snprintf(what, sizeof(what), "%s: encoded-pub-key with coefficient q",
                 v->name);
        EXPECT_REASON(EVP_PKEY_set1_encoded_public_key(empty, bad, v->ek) == 1,
                      R_EK_NOT_REDUCED, what);
        snprintf(what, sizeof(what), "%s: encoded-pub-key of %zu bytes",
                 v->name, v->ek + 1);
        uint8_t big[1600] = { 0 };
        memcpy(big, ek, v->ek);
        EXPECT_REASON(EVP_PKEY_set1_encoded_public_key(empty, big, v->ek + 1)
                          == 1, R_KEY_LENGTH, what);
        /* The empty key still accepts a good share afterwards. */
        TEST_CHECK(EVP_PKEY_set1_encoded_public_key(empty, ek, v->ek) == 1,
              "%s: good share after bad ones", v->name);
        snprintf(what, sizeof(what), "%s: encoded-pub-key on a set key",
                 v->name);
        EXPECT_REASON(EVP_PKEY_set1_encoded_public_key(empty, ek, v->ek) == 1,
                      R_KEY_NOT_EMPTY, what);
        EVP_PKEY_free(empty);
    }
    snprintf(what, sizeof(what), "%s: encoded-pub-key on a generated key",
             v->name);
    EXPECT_REASON(EVP_PKEY_set1_encoded_public_key(k, ek, v->ek) == 1,
                  R_KEY_NOT_EMPTY, what);

    /* §7.3 hash check: H(ek) inside dk (bytes dk_len-64 .. dk_len-33). */
    memcpy(bad, dk, v->dk);
    bad[v->dk - 64] ^= 0x01;
    snprintf(what, sizeof(what), "%s: import dk with a wrong H(ek)", v->name);
    p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, bad, v->dk, NULL, 0);
    EXPECT_REASON(p != NULL, R_DK_HASH, what);
    EVP_PKEY_free(p);

    /* s-hat coefficient >= q. */
    memcpy(bad, dk, v->dk);
    put_coeff12(bad, 5, 4000);
    snprintf(what, sizeof(what), "%s: import dk with s coefficient >= q",
             v->name);
    p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, bad, v->dk, NULL, 0);
    EXPECT_REASON(p != NULL, R_DK_NOT_REDUCED, what);
    EVP_PKEY_free(p);

    /* A dk whose s-hat no longer matches ek (H(ek) still right): the
     * pairwise consistency test on import catches it. */
    memcpy(bad, dk, v->dk);
    put_coeff12(bad, 0, (get_coeff12(bad, 0) + 1) % 3329);
    snprintf(what, sizeof(what), "%s: import inconsistent dk", v->name);
    p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, bad, v->dk, NULL, 0);
    EXPECT_REASON(p != NULL, R_PCT, what);
    EVP_PKEY_free(p);

    /* Seed and dk of different keys; ek of a different key. */
    other = evp_keygen(e, v->name, NULL, 0);
    if (TEST_CHECK(other != NULL
                  && evp_get_octets(other, "seed", other_seed, 64, &len)
                  && evp_get_octets(other, "pub", other_ek, sizeof(other_ek),
                                    &len),
              "%s: second key", v->name)) {
        snprintf(what, sizeof(what), "%s: import seed + foreign dk", v->name);
        p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, dk, v->dk,
                       other_seed, 64);
        EXPECT_REASON(p != NULL, R_SEED_MISMATCH, what);
        EVP_PKEY_free(p);
        snprintf(what, sizeof(what), "%s: import dk + foreign ek", v->name);
        p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, other_ek, v->ek, dk,
                       v->dk, NULL, 0);
        EXPECT_REASON(p != NULL, R_KEY_MISMATCH, what);
        EVP_PKEY_free(p);
        TEST_CHECK(EVP_PKEY_eq(k, other) == 0, "%s: two keys compare equal",
              v->name);
    }
    EVP_PKEY_free(other);

    /* Nothing to import. */
    snprintf(what, sizeof(what), "%s: import without key material", v->name);
    p = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, NULL, 0, NULL, 0);
    EXPECT_REASON(p != NULL, R_MISSING_KEY, what);
    EVP_PKEY_free(p);
}

/* The forms libcrypto's own OSSL_PARAM getters and setters accept, which
 * the provider's helpers (params.c) handle without calling them: an octet
 * pointer for an octet string, a size query (NULL data), integers of other
 * widths than int, and the exact-size output buffer. */
static void good_param_forms(test_env *e, const evp_variant *v, EVP_PKEY *k,
                             const uint8_t *ek)
{
    OSSL_PARAM params[4];
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *p = NULL;
    uint8_t got[1568];
    size_t len = 0, bits_sz = 0;
    int64_t max64 = 0;
    int sec = 0;

    /* "pub" as an octet pointer on import. */
    params[0] = OSSL_PARAM_construct_octet_ptr("pub", (void **)&ek, v->ek);
    params[1] = OSSL_PARAM_construct_end();
    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name, EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1
                   && EVP_PKEY_fromdata(ctx, &p, EVP_PKEY_PUBLIC_KEY, params) == 1
                   && evp_get_octets(p, "pub", got, v->ek, &len) && len == v->ek
                   && memcmp(got, ek, v->ek) == 0,
               "%s: pub as an octet pointer", v->name);
    EVP_PKEY_free(p);
    EVP_PKEY_CTX_free(ctx);

    /* Size queries: NULL data, the size comes back in return_size. */
    params[0] = OSSL_PARAM_construct_octet_string("pub", NULL, 0);
    params[1] = OSSL_PARAM_construct_octet_string("priv", NULL, 0);
    params[2] = OSSL_PARAM_construct_int("bits", NULL);
    params[3] = OSSL_PARAM_construct_end();
    TEST_CHECK(EVP_PKEY_get_params(k, params) == 1
                   && params[0].return_size == v->ek
                   && params[1].return_size == v->dk
                   && params[2].return_size == sizeof(int),
               "%s: size queries (pub %zu, priv %zu, bits %zu)", v->name,
               params[0].return_size, params[1].return_size,
               params[2].return_size);

    /* Integers: size_t and int64_t (converted by libcrypto), int. */
    params[0] = OSSL_PARAM_construct_size_t("bits", &bits_sz);
    params[1] = OSSL_PARAM_construct_int64("max-size", &max64);
    params[2] = OSSL_PARAM_construct_int("security-bits", &sec);
    params[3] = OSSL_PARAM_construct_end();
    TEST_CHECK(EVP_PKEY_get_params(k, params) == 1
                   && bits_sz == (size_t)v->bits && max64 == (int64_t)v->ct
                   && sec == v->secbits,
               "%s: bits %zu, max-size %lld, security-bits %d", v->name,
               bits_sz, (long long)max64, sec);

    /* An output buffer of exactly the size. */
    TEST_CHECK(evp_get_octets(k, "pub", got, v->ek, &len) && len == v->ek
                   && memcmp(got, ek, v->ek) == 0,
               "%s: pub into exactly %zu bytes", v->name, v->ek);
}

static void bad_params(test_env *e, const evp_variant *v, EVP_PKEY *k,
                       const uint8_t *ek)
{
    uint8_t small[10];
    size_t len;
    char what[96];

    /* A get into a short buffer. */
    snprintf(what, sizeof(what), "%s: get priv into 10 bytes", v->name);
    EXPECT_REASON(evp_get_octets(k, "priv", small, sizeof(small), &len),
                  R_OUTPUT_TOO_SMALL, what);
    snprintf(what, sizeof(what), "%s: get pub into 10 bytes", v->name);
    EXPECT_REASON(evp_get_octets(k, "pub", small, sizeof(small), &len),
                  R_OUTPUT_TOO_SMALL, what);

    /* Wrong types for known parameters. */
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name,
                                                   EVP_TEST_PROPQ);
    if (TEST_CHECK(ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1, "%s: keygen_init",
              v->name)) {
        char str[65];
        memset(str, 'x', 64);
        str[64] = '\0';
        EXPECT_REASON(set_ctx_params1(ctx, OSSL_PARAM_construct_utf8_string(
                                               "seed", str, 64)),
                      R_BAD_PARAMETER, "seed as a UTF-8 string");
        int n = 3;
        EXPECT_REASON(set_ctx_params1(ctx, OSSL_PARAM_construct_int(
                                               "properties", &n)),
                      R_BAD_PARAMETER, "properties as an integer");
        /* Unknown parameters are ignored; keygen still works. */
        TEST_CHECK(set_ctx_params1(ctx, OSSL_PARAM_construct_int("no-such-param",
                                                            &n)),
              "%s: unknown gen parameter not ignored", v->name);
        EVP_PKEY *g = NULL;
        TEST_CHECK(EVP_PKEY_keygen(ctx, &g) == 1, "%s: keygen after bad params",
              v->name);
        EVP_PKEY_free(g);
    }
    EVP_PKEY_CTX_free(ctx);

    /* Unknown import parameters are ignored; a wrongly typed pub is not. */
    OSSL_PARAM params[3];
    EVP_PKEY *p = NULL;
    int n = 1;
    params[0] = OSSL_PARAM_construct_octet_string("pub", (void *)ek, v->ek);
    params[1] = OSSL_PARAM_construct_int("no-such-key-param", &n);
    params[2] = OSSL_PARAM_construct_end();
    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name, EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1
              && EVP_PKEY_fromdata(ctx, &p, EVP_PKEY_PUBLIC_KEY, params) == 1,
          "%s: unknown import parameter not ignored", v->name);
    EVP_PKEY_free(p);
    p = NULL;
    params[0] = OSSL_PARAM_construct_utf8_string("pub", "not-a-key", 0);
    params[1] = OSSL_PARAM_construct_end();
    snprintf(what, sizeof(what), "%s: pub as a UTF-8 string", v->name);
    EXPECT_REASON(ctx != NULL
                      && EVP_PKEY_fromdata(ctx, &p, EVP_PKEY_PUBLIC_KEY,
                                           params) == 1,
                  R_BAD_PARAMETER, what);
    EVP_PKEY_free(p);
    EVP_PKEY_CTX_free(ctx);

    /* A wrongly typed int get: bits as an octet string. */
    uint8_t buf[8];
    snprintf(what, sizeof(what), "%s: get bits as an octet string", v->name);
    EXPECT_REASON(evp_get_octets(k, "bits", buf, sizeof(buf), &len),
                  R_BAD_PARAMETER, what);

    good_param_forms(e, v, k, ek);
}

void evp_suite_bad(test_env *e)
{
    for (size_t i = 0; i < 3; i++) {
        const evp_variant *v = &evp_variants[i];
        uint8_t ek[1568], dk[3168], seed[64];
        size_t eklen, dklen, seedlen;
        EVP_PKEY *k = evp_keygen(e, v->name, NULL, 0), *pub = NULL;

        if (!TEST_CHECK(k != NULL && evp_get_octets(k, "pub", ek, sizeof(ek), &eklen)
                       && evp_get_octets(k, "priv", dk, sizeof(dk), &dklen)
                       && evp_get_octets(k, "seed", seed, sizeof(seed),
                                         &seedlen),
                   "%s: keygen", v->name)) {
            EVP_PKEY_free(k);
            continue;
        }
        pub = evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, ek, eklen, NULL, 0,
                         NULL, 0);
        TEST_CHECK(pub != NULL, "%s: import pub", v->name);
        bad_lengths(e, v, ek, dk, seed);
        if (pub != NULL)
            bad_kem_args(e, v, k, pub);
        bad_keys(e, v, k, ek, dk);
        bad_params(e, v, k, ek);
        EVP_PKEY_free(pub);
        EVP_PKEY_free(k);
    }
    ERR_clear_error();
}
