/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codecs.c: the provider's key encoders and decoders through the public
 * OpenSSL API (OSSL_ENCODER / OSSL_DECODER, PEM_*, EVP_PKEY_print_*).
 *
 * Usage: test_codecs [--openssl35] <path/to/mlkem.so>
 *   Without --openssl35 it runs against whatever libcrypto it was linked
 *   with (the system 3.0). With --openssl35 it expects to run under
 *   LD_LIBRARY_PATH=$MLKEM_OPENSSL35_PREFIX/lib (CTest sets it) and exits 77
 *   (skip) when that prefix has no libcrypto; on 3.5 it also checks the
 *   interplay with 3.5's own ML-KEM (keys and bytes cross both ways).
 *
 * Each library context is configured by an openssl.cnf written to a temp
 * directory (the way a user configures OpenSSL 3.0): default + mlkem, with
 * ml-kem.output_formats / input_formats / retain_seed in mlkem's section.
 *
 * Checked, for ML-KEM-512/768/1024 and the key from seed 00..3f:
 *   - SPKI and PKCS#8 DER are byte-identical to OpenSSL 3.5.7's (SHA-256 and
 *     lengths from test_codecs_expected.h, prefixes from the notes), in each
 *     of the six private forms selected by ml-kem.output_formats;
 *   - DER and PEM round trips (OSSL_DECODER, PEM_read_bio_PrivateKey_ex,
 *     PEM_read_bio_PUBKEY_ex), text output identical to 3.5's;
 *   - every decoded form decapsulates the KAT ciphertext to the KAT secret;
 *   - ml-kem.input_formats restricts what loads; retain_seed = no writes
 *     priv-only;
 *   - encrypted PKCS#8 (PBES2/AES-256-CBC) round trip, wrong passphrase fails;
 *   - decoder export_object (a key our decoder read, held by another
 *     keymgmt); on 3.5, keys and files crossing to and from 3.5's ML-KEM;
 *   - malformed input fails with the exact MLKEM_R_* reason and text, from
 *     library "mlkem", and yields no key.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

#include "provider/prov.h" /* MLKEM_R_* reason codes */
#include "test/common/test_util.h"
#include "test_codecs_expected.h"

static int is35;
static const char *module_path;
static char tmpdir[256];

/* ---- Small helpers ------------------------------------------------------- */

static void sha256_hex(const unsigned char *b, size_t n, char out[65])
{
    unsigned char md[32];
    unsigned int mdlen = 0;

    out[0] = '\0';
    if (!EVP_Digest(b, n, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
        return;
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

static int hex_is(const unsigned char *b, size_t n, const char *hex)
{
    char h[2 * 64 + 1];

    if (n > 64 || strlen(hex) != 2 * n)
        return 0;
    for (size_t i = 0; i < n; i++)
        sprintf(h + 2 * i, "%02x", b[i]);
    return strcmp(h, hex) == 0;
}

static int sha_is(const unsigned char *b, size_t n, const char *hex)
{
    char h[65];

    sha256_hex(b, n, h);
    return strcmp(h, hex) == 0;
}

/* Write an openssl.cnf loading default + mlkem (with extra lines in mlkem's
 * section) and a library context configured from it. */
static OSSL_LIB_CTX *make_ctx(const char *tag, const char *mlkem_lines)
{
    char path[512];
    FILE *f;
    OSSL_LIB_CTX *ctx;

    snprintf(path, sizeof(path), "%s/%s.cnf", tmpdir, tag);
    if ((f = fopen(path, "w")) == NULL)
        return NULL;
    fprintf(f,
            "openssl_conf = openssl_init\n"
            "[openssl_init]\n"
            "providers = provider_sect\n"
            "[provider_sect]\n"
            "default = default_sect\n"
            "mlkem = mlkem_sect\n"
            "[default_sect]\n"
            "activate = 1\n"
            "[mlkem_sect]\n"
            "module = %s\n"
            "activate = 1\n"
            "%s\n",
            module_path, mlkem_lines);
    fclose(f);
    ctx = OSSL_LIB_CTX_new();
    if (ctx == NULL || !OSSL_LIB_CTX_load_config(ctx, path)
        || !OSSL_PROVIDER_available(ctx, "mlkem")
        || !OSSL_PROVIDER_available(ctx, "default")) {
        TEST_CHECK(0, "cannot configure a library context from %s", path);
        OSSL_LIB_CTX_free(ctx);
        return NULL;
    }
    unlink(path);
    return ctx;
}

static EVP_PKEY *keygen_seed(OSSL_LIB_CTX *ctx, const char *alg,
                             const char *propq)
{
    unsigned char seed[64];
    OSSL_PARAM params[2];
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(ctx, alg, propq);
    EVP_PKEY *pkey = NULL;

    for (int i = 0; i < 64; i++)
        seed[i] = (unsigned char)i;
    params[0] = OSSL_PARAM_construct_octet_string("seed", seed, sizeof(seed));
    params[1] = OSSL_PARAM_construct_end();
    if (pctx == NULL || EVP_PKEY_keygen_init(pctx) <= 0
        || !EVP_PKEY_CTX_set_params(pctx, params)
        || EVP_PKEY_generate(pctx, &pkey) <= 0) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(pctx);
    return pkey;
}

static const char *provider_of(const EVP_PKEY *pkey)
{
    const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(pkey);

    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "(none)";
}

/* Encode with OSSL_ENCODER; returns a malloc'ed buffer or NULL. */
static unsigned char *encode(const EVP_PKEY *pkey, int selection,
                             const char *type, const char *structure,
                             const char *propq, size_t *len)
{
    OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(pkey, selection, type,
                                                        structure, propq);
    unsigned char *out = NULL;

    *len = 0;
    if (e == NULL || OSSL_ENCODER_CTX_get_num_encoders(e) == 0
        || !OSSL_ENCODER_to_data(e, &out, len)) {
        OPENSSL_free(out);
        out = NULL;
    }
    OSSL_ENCODER_CTX_free(e);
    return out;
}

/* 1 if pkey encodes (DER; PrivateKeyInfo for a key pair, else
 * SubjectPublicKeyInfo) to exactly want[0..want_len). */
static int encodes_to(const EVP_PKEY *pkey, int selection, const char *propq,
                      const unsigned char *want, size_t want_len)
{
    size_t len;
    unsigned char *der = encode(pkey, selection, "DER",
                                selection == EVP_PKEY_KEYPAIR
                                    ? "PrivateKeyInfo"
                                    : "SubjectPublicKeyInfo",
                                propq, &len);
    int same = der != NULL && len == want_len && memcmp(der, want, len) == 0;

    OPENSSL_free(der);
    return same;
}

static EVP_PKEY *decode(OSSL_LIB_CTX *ctx, const unsigned char *in, size_t len,
                        const char *type, const char *structure,
                        const char *keytype, int selection, const char *propq)
{
    EVP_PKEY *pkey = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(
        &pkey, type, structure, keytype, selection, ctx, propq);
    const unsigned char *p = in;
    size_t left = len;

    if (d == NULL || !OSSL_DECODER_from_data(d, &p, &left)) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    return pkey;
}

/* Does the error queue hold `reason` with text `text` raised by library
 * "mlkem"? Empties the queue. */
static int queue_has(int reason, const char *text)
{
    unsigned long e;
    int found = 0;

    while ((e = ERR_get_error()) != 0) {
        const char *lib = ERR_lib_error_string(e);
        const char *rs = ERR_reason_error_string(e);

        if (ERR_GET_REASON(e) == reason && lib != NULL
            && strcmp(lib, "mlkem") == 0 && rs != NULL && strcmp(rs, text) == 0)
            found = 1;
    }
    return found;
}

/* Is any error in the queue from library "mlkem"? Empties the queue. */
static int queue_has_mlkem(void)
{
    unsigned long e;
    int found = 0;

    while ((e = ERR_get_error()) != 0) {
        const char *lib = ERR_lib_error_string(e);

        if (lib != NULL && strcmp(lib, "mlkem") == 0)
            found = 1;
    }
    return found;
}

/* 1 if txt is the text `openssl pkey -text` prints for key on the running
 * release. Before 4.0: 3.5.7's bytes (sha35). OpenSSL 4.0 prints hex dumps
 * 16 bytes a line instead of 15 (its NEWS.md), and so do we there: the text
 * must then equal what 4.0's built-in ML-KEM prints for a default-provider
 * copy of the same key. */
static int text_is(OSSL_LIB_CTX *ctx, const unsigned char *txt, size_t len,
                   const char *sha35, EVP_PKEY *key, int selection)
{
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *pc = NULL;
    EVP_PKEY *copy = NULL;
    unsigned char *want = NULL;
    size_t wlen = 0;
    int same = 0;

    if (txt == NULL)
        return 0;
    if (OpenSSL_version_num() < 0x40000000L)
        return sha_is(txt, len, sha35);
    if (EVP_PKEY_todata(key, EVP_PKEY_KEYPAIR, &params) <= 0
        || (pc = EVP_PKEY_CTX_new_from_name(ctx, EVP_PKEY_get0_type_name(key),
                                            "provider=default")) == NULL
        || EVP_PKEY_fromdata_init(pc) <= 0
        || EVP_PKEY_fromdata(pc, &copy, EVP_PKEY_KEYPAIR, params) <= 0
        || strcmp(provider_of(copy), "default") != 0)
        goto end;
    want = encode(copy, selection, "TEXT", NULL, "provider=default", &wlen);
    same = want != NULL && wlen == len && memcmp(want, txt, len) == 0;
end:
    OPENSSL_free(want);
    EVP_PKEY_free(copy);
    EVP_PKEY_CTX_free(pc);
    OSSL_PARAM_free(params);
    return same;
}

/* Encapsulate with ikme = 40..5f to pub; decapsulate with priv; both
 * secrets must equal the KAT value. */
static int kat_roundtrip(OSSL_LIB_CTX *ctx, EVP_PKEY *pub, EVP_PKEY *priv,
                         const char *propq, const char *kat_hex)
{
    unsigned char ikme[32], ct[1568], ss1[32], ss2[32];
    size_t ctlen = sizeof(ct), sslen1 = sizeof(ss1), sslen2 = sizeof(ss2);
    OSSL_PARAM params[2];
    EVP_PKEY_CTX *e = EVP_PKEY_CTX_new_from_pkey(ctx, pub, propq);
    EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(ctx, priv, propq);
    int ok = 0;

    for (int i = 0; i < 32; i++)
        ikme[i] = (unsigned char)(0x40 + i);
    params[0] = OSSL_PARAM_construct_octet_string("ikme", ikme, sizeof(ikme));
    params[1] = OSSL_PARAM_construct_end();
    if (e == NULL || d == NULL || EVP_PKEY_encapsulate_init(e, params) <= 0
        || EVP_PKEY_encapsulate(e, ct, &ctlen, ss1, &sslen1) <= 0
        || EVP_PKEY_decapsulate_init(d, NULL) <= 0
        || EVP_PKEY_decapsulate(d, ss2, &sslen2, ct, ctlen) <= 0)
        goto end;
    ok = sslen1 == 32 && sslen2 == 32 && memcmp(ss1, ss2, 32) == 0
         && hex_is(ss1, 32, kat_hex);
end:
    EVP_PKEY_CTX_free(e);
    EVP_PKEY_CTX_free(d);
    return ok;
}

/* ---- 1. Default formats: exact bytes, round trips, text ------------------ */

static void test_default(OSSL_LIB_CTX *ctx, const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *key = keygen_seed(ctx, x->name, pq), *k2 = NULL, *pub = NULL;
    unsigned char *spki = NULL, *pki = NULL, *again = NULL, *txt = NULL;
    size_t spki_len, pki_len, alen, tlen;
    BIO *bio = NULL;
    char *mem;
    long memlen;

    printf("== %s: default formats\n", x->name);
    if (key == NULL) {
        TEST_CHECK(0, "keygen from seed");
        return;
    }
    TEST_CHECK(strcmp(provider_of(key), "mlkem") == 0, "keygen served by %s",
          provider_of(key));

    spki = encode(key, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", pq,
                  &spki_len);
    TEST_CHECK(spki != NULL && spki_len == x->spki_len && sha_is(spki, spki_len, x->spki),
          "SPKI DER (%zu bytes)", spki_len);
    pki = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &pki_len);
    TEST_CHECK(pki != NULL && pki_len == x->len[0] && sha_is(pki, pki_len, x->sha[0]),
          "PKCS#8 DER seed-priv (%zu bytes)", pki_len);
    if (spki == NULL || pki == NULL)
        goto end;
    /* notes §6 prefix: 3082 X be 020100 300b 0609 608648016503040404 0N */
    TEST_CHECK(pki[0] == 0x30 && pki[1] == 0x82 && pki[4] == 0x02 && pki[6] == 0x00
          && pki[8] == 0x0b && pki[19] == (unsigned char)(x->bits / 256 - 1)
          && pki[20] == 0x04 && pki[24] == 0x30 && pki[28] == 0x04 && pki[29] == 0x40,
          "seed-priv prefix");

    /* DER round trip through our decoders (only ours: provider=mlkem). */
    k2 = decode(ctx, pki, pki_len, "DER", "PrivateKeyInfo", x->name,
                EVP_PKEY_KEYPAIR, pq);
    TEST_CHECK(k2 != NULL, "decode PKCS#8 DER");
    if (k2 != NULL) {
        TEST_CHECK(encodes_to(k2, EVP_PKEY_KEYPAIR, pq, pki, pki_len),
              "PKCS#8 DER round trip");
        TEST_CHECK(EVP_PKEY_eq(key, k2) == 1, "decoded key equals original");
    }
    pub = decode(ctx, spki, spki_len, "DER", "SubjectPublicKeyInfo", NULL,
                 EVP_PKEY_PUBLIC_KEY, pq);
    TEST_CHECK(pub != NULL && EVP_PKEY_is_a(pub, x->name), "decode SPKI DER");
    if (pub != NULL) {
        TEST_CHECK(encodes_to(pub, EVP_PKEY_PUBLIC_KEY, pq, spki, spki_len),
              "SPKI DER round trip");
        TEST_CHECK(k2 != NULL && kat_roundtrip(ctx, pub, k2, pq, x->kat_ss),
              "KAT encaps to decoded SPKI, decaps with decoded PKCS#8");
        /* A public key has no private encoding. */
        again = encode(pub, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &alen);
        TEST_CHECK(again == NULL, "PKCS#8 of a public key must fail");
        OPENSSL_free(again);
        again = NULL;
        ERR_clear_error();
    }
    EVP_PKEY_free(k2);
    k2 = NULL;

    /* The classic i2d / d2i entry points route through the same codecs. */
    {
        unsigned char *b = NULL;
        const unsigned char *q;
        int n = i2d_PUBKEY(key, &b);
        EVP_PKEY *d;

        TEST_CHECK(n == (int)spki_len && memcmp(b, spki, spki_len) == 0,
              "i2d_PUBKEY (%d bytes)", n);
        OPENSSL_free(b);
        b = NULL;
        n = i2d_PrivateKey(key, &b);
        TEST_CHECK(n == (int)pki_len && memcmp(b, pki, pki_len) == 0,
              "i2d_PrivateKey (%d bytes)", n);
        OPENSSL_free(b);
        q = spki;
        d = d2i_PUBKEY_ex(NULL, &q, (long)spki_len, ctx, "?provider=mlkem");
        TEST_CHECK(d != NULL && q == spki + spki_len && EVP_PKEY_eq(d, key) == 1,
              "d2i_PUBKEY_ex");
        EVP_PKEY_free(d);
        q = pki;
        d = d2i_AutoPrivateKey_ex(NULL, &q, (long)pki_len, ctx,
                                  "?provider=mlkem");
        TEST_CHECK(d != NULL && q == pki + pki_len && EVP_PKEY_eq(d, key) == 1,
              "d2i_AutoPrivateKey_ex");
        EVP_PKEY_free(d);
    }

    /* PEM through the classic API (PEM -> DER is the default provider's),
     * preferring our provider as the CLI's -propquery '?provider=mlkem'. */
    bio = BIO_new(BIO_s_mem());
    TEST_CHECK(PEM_write_bio_PrivateKey_ex(bio, key, NULL, NULL, 0, NULL, NULL, ctx,
                                      "?provider=mlkem"),
          "PEM_write_bio_PrivateKey_ex");
    memlen = BIO_get_mem_data(bio, &mem);
    TEST_CHECK(memlen > 28 && strncmp(mem, "-----BEGIN PRIVATE KEY-----\n", 28) == 0,
          "PEM label");
    k2 = PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, ctx, "?provider=mlkem");
    TEST_CHECK(k2 != NULL, "PEM_read_bio_PrivateKey_ex");
    if (k2 != NULL) {
        TEST_CHECK(strcmp(provider_of(k2), "mlkem") == 0, "PEM key held by %s",
              provider_of(k2));
        TEST_CHECK(encodes_to(k2, EVP_PKEY_KEYPAIR, pq, pki, pki_len),
              "PEM private round trip");
    }
    BIO_free(bio);
    bio = BIO_new(BIO_s_mem());
    TEST_CHECK(PEM_write_bio_PUBKEY_ex(bio, key, ctx, "?provider=mlkem"),
          "PEM_write_bio_PUBKEY_ex");
    memlen = BIO_get_mem_data(bio, &mem);
    TEST_CHECK(memlen > 27 && strncmp(mem, "-----BEGIN PUBLIC KEY-----\n", 27) == 0,
          "PEM public label");
    EVP_PKEY_free(pub);
    pub = PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, ctx, "?provider=mlkem");
    TEST_CHECK(pub != NULL, "PEM_read_bio_PUBKEY_ex");
    if (pub != NULL) {
        TEST_CHECK(encodes_to(pub, EVP_PKEY_PUBLIC_KEY, pq, spki, spki_len),
              "PEM public round trip");
        TEST_CHECK(k2 != NULL && kat_roundtrip(ctx, pub, k2, NULL, x->kat_ss),
              "KAT with PEM-loaded keys");
    }
    BIO_free(bio);
    bio = NULL;

    /* Text, as `openssl pkey -text -noout` / `-text_pub` print it on 3.5. */
    txt = encode(key, EVP_PKEY_KEYPAIR, "TEXT", NULL, pq, &tlen);
    TEST_CHECK(text_is(ctx, txt, tlen, x->text_priv_seed, key, EVP_PKEY_KEYPAIR),
          "private text identical to 3.5's (4.0's on 4.0)");
    if (txt != NULL) {
        char first[32];

        snprintf(first, sizeof(first), "%s Private-Key:\nseed:\n", x->name);
        TEST_CHECK(tlen > strlen(first) && memcmp(txt, first, strlen(first)) == 0,
              "text header");
    }
    OPENSSL_free(txt);
    txt = encode(key, EVP_PKEY_PUBLIC_KEY, "TEXT", NULL, pq, &tlen);
    TEST_CHECK(text_is(ctx, txt, tlen, x->text_pub, key, EVP_PKEY_PUBLIC_KEY),
          "public text identical to 3.5's (4.0's on 4.0)");
    OPENSSL_free(txt);
    txt = NULL;
    bio = BIO_new(BIO_s_mem());
    TEST_CHECK(EVP_PKEY_print_public(bio, key, 0, NULL) > 0, "EVP_PKEY_print_public");
    memlen = BIO_get_mem_data(bio, &mem);
    TEST_CHECK(memlen > 0 && text_is(ctx, (unsigned char *)mem, (size_t)memlen,
                                x->text_pub, key, EVP_PKEY_PUBLIC_KEY),
          "EVP_PKEY_print_public text");
    BIO_free(bio);
    bio = NULL;
end:
    BIO_free(bio);
    EVP_PKEY_free(k2);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(key);
    OPENSSL_free(spki);
    OPENSSL_free(pki);
}

/* ---- 2. Every output format, written by config, read back --------------- */

static void test_output_formats(OSSL_LIB_CTX *dflt,
                                OSSL_LIB_CTX *fctx[TEST_CODECS_NFMT],
                                const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *pub = keygen_seed(dflt, x->name, pq);

    printf("== %s: output formats\n", x->name);
    for (int f = 0; f < TEST_CODECS_NFMT; f++) {
        const char *fn = test_codecs_fmt_names[f];
        int has_seed = f == 0 || f == 1 || f == 4;
        EVP_PKEY *key, *back;
        unsigned char *der, *again;
        size_t len, alen;

        if (fctx[f] == NULL)
            continue;
        key = keygen_seed(fctx[f], x->name, pq);
        der = key != NULL ? encode(key, EVP_PKEY_KEYPAIR, "DER",
                                   "PrivateKeyInfo", pq, &len)
                          : NULL;
        TEST_CHECK(der != NULL && len == x->len[f] && sha_is(der, len, x->sha[f]),
              "%s: output_formats = %s gives %zu bytes", x->name, fn,
              der != NULL ? len : 0);
        if (der == NULL) {
            EVP_PKEY_free(key);
            continue;
        }
        /* Read back with the default configuration (all inputs allowed). */
        back = decode(dflt, der, len, "DER", "PrivateKeyInfo", NULL,
                      EVP_PKEY_KEYPAIR, pq);
        TEST_CHECK(back != NULL && EVP_PKEY_is_a(back, x->name), "%s: load %s",
              x->name, fn);
        if (back != NULL) {
            /* Re-encoded with defaults: seed-priv if the form carried the
             * seed, else priv-only. */
            int want = has_seed ? 0 : 2;

            again = encode(back, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq,
                           &alen);
            TEST_CHECK(again != NULL && alen == x->len[want]
                  && sha_is(again, alen, x->sha[want]),
                  "%s: %s re-encodes as %s", x->name, fn,
                  test_codecs_fmt_names[want]);
            OPENSSL_free(again);
            TEST_CHECK(pub != NULL && kat_roundtrip(dflt, pub, back, pq, x->kat_ss),
                  "%s: %s key decapsulates the KAT", x->name, fn);
        }
        EVP_PKEY_free(back);
        OPENSSL_free(der);
        EVP_PKEY_free(key);
    }
    EVP_PKEY_free(pub);
}

/* ---- 3. Input formats, retain_seed, seed-only without a seed ------------- */

static void test_input_formats(OSSL_LIB_CTX *dflt, OSSL_LIB_CTX *in_priv,
                               OSSL_LIB_CTX *no_seed, OSSL_LIB_CTX *seed_only,
                               const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *key = keygen_seed(dflt, x->name, pq), *k;
    unsigned char *sp = NULL, *po = NULL, *der;
    size_t splen = 0, polen = 0, len;

    printf("== %s: input formats, retain_seed\n", x->name);
    if (key == NULL) {
        TEST_CHECK(0, "keygen");
        return;
    }
    sp = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &splen);
    if (seed_only != NULL) {
        EVP_PKEY *ks = keygen_seed(seed_only, x->name, pq);
        unsigned char *so = ks != NULL ? encode(ks, EVP_PKEY_KEYPAIR, "DER",
                                                "PrivateKeyInfo", pq, &len)
                                       : NULL;
        TEST_CHECK(so != NULL && len == 86, "seed-only encoding");
        /* input_formats = priv-only rejects seed-priv and seed-only ... */
        if (in_priv != NULL && so != NULL) {
            k = decode(in_priv, so, len, "DER", "PrivateKeyInfo", NULL,
                       EVP_PKEY_KEYPAIR, pq);
            TEST_CHECK(k == NULL, "input_formats = priv-only loaded seed-only");
            EVP_PKEY_free(k);
            ERR_clear_error();
        }
        OPENSSL_free(so);
        EVP_PKEY_free(ks);
    }
    if (in_priv != NULL && sp != NULL) {
        k = decode(in_priv, sp, splen, "DER", "PrivateKeyInfo", NULL,
                   EVP_PKEY_KEYPAIR, pq);
        TEST_CHECK(k == NULL, "input_formats = priv-only loaded seed-priv");
        EVP_PKEY_free(k);
        ERR_clear_error();
    }
    /* retain_seed = no: keygen from the seed keeps no seed, so the encoder
     * falls back to priv-only (the default order's first fit). */
    if (no_seed != NULL) {
        EVP_PKEY *kn = keygen_seed(no_seed, x->name, pq);

        po = kn != NULL ? encode(kn, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo",
                                 pq, &polen)
                        : NULL;
        TEST_CHECK(po != NULL && polen == x->len[2] && sha_is(po, polen, x->sha[2]),
              "retain_seed = no writes priv-only");
        if (po != NULL) {
            size_t tlen;
            unsigned char *txt = encode(kn, EVP_PKEY_KEYPAIR, "TEXT", NULL, pq,
                                        &tlen);

            TEST_CHECK(text_is(no_seed, txt, tlen, x->text_priv_noseed, kn,
                          EVP_PKEY_KEYPAIR),
                  "text of a key without seed identical to 3.5's (4.0's on "
                  "4.0)");
            OPENSSL_free(txt);
        }
        EVP_PKEY_free(kn);
    }
    if (in_priv != NULL && po != NULL) {
        k = decode(in_priv, po, polen, "DER", "PrivateKeyInfo", NULL,
                   EVP_PKEY_KEYPAIR, pq);
        TEST_CHECK(k != NULL, "input_formats = priv-only loads priv-only");
        EVP_PKEY_free(k);
    }
    /* A seedless key in a context whose only output format is seed-only. */
    if (seed_only != NULL && po != NULL) {
        k = decode(seed_only, po, polen, "DER", "PrivateKeyInfo", NULL,
                   EVP_PKEY_KEYPAIR, pq);
        TEST_CHECK(k != NULL, "load priv-only in the seed-only context");
        if (k != NULL) {
            der = encode(k, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &len);
            TEST_CHECK(der == NULL, "seed-only output of a key without seed");
            TEST_CHECK(queue_has(MLKEM_R_MISSING_KEY, "missing key"),
                  "reason for seed-only without seed");
            OPENSSL_free(der);
        }
        EVP_PKEY_free(k);
    }
    OPENSSL_free(sp);
    OPENSSL_free(po);
    EVP_PKEY_free(key);
}

/* ---- 4. Encrypted PKCS#8 -------------------------------------------------- */

static int pass_cb(char *buf, int size, int rwflag, void *u)
{
    const char *pw = u;
    int n = (int)strlen(pw);

    (void)rwflag;
    if (n > size)
        return -1;
    memcpy(buf, pw, (size_t)n);
    return n;
}

static void test_encrypted(OSSL_LIB_CTX *ctx, const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *key = keygen_seed(ctx, x->name, pq), *k = NULL;
    unsigned char *pki = NULL, *epki = NULL;
    size_t len, elen = 0;
    BIO *bio = BIO_new(BIO_s_mem());
    char *mem;
    long memlen;
    OSSL_ENCODER_CTX *e = NULL;

    printf("== %s: encrypted PKCS#8\n", x->name);
    if (key == NULL || bio == NULL) {
        TEST_CHECK(0, "setup");
        goto end;
    }
    pki = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &len);
    TEST_CHECK(PEM_write_bio_PrivateKey_ex(bio, key, EVP_aes_256_cbc(),
                                      (unsigned char *)"correct horse", 13,
                                      NULL, NULL, ctx, "?provider=mlkem"),
          "PEM_write_bio_PrivateKey_ex with AES-256-CBC");
    memlen = BIO_get_mem_data(bio, &mem);
    TEST_CHECK(memlen > 38
          && strncmp(mem, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", 38) == 0,
          "encrypted PEM label");
    {
        BIO *b2 = BIO_new_mem_buf(mem, (int)memlen);

        k = PEM_read_bio_PrivateKey_ex(b2, NULL, pass_cb, "wrong", ctx, NULL);
        TEST_CHECK(k == NULL, "wrong passphrase must fail");
        EVP_PKEY_free(k);
        k = NULL;
        BIO_free(b2);
        ERR_clear_error();
    }
    k = PEM_read_bio_PrivateKey_ex(bio, NULL, pass_cb, "correct horse", ctx,
                                   "?provider=mlkem");
    TEST_CHECK(k != NULL, "read encrypted PEM");
    if (k != NULL && pki != NULL) {
        TEST_CHECK(encodes_to(k, EVP_PKEY_KEYPAIR, pq, pki, len),
              "encrypted round trip");
    }
    EVP_PKEY_free(k);
    k = NULL;
    /* The EncryptedPrivateKeyInfo structure, DER, via OSSL_ENCODER. */
    e = OSSL_ENCODER_CTX_new_for_pkey(key, EVP_PKEY_KEYPAIR, "DER",
                                      "EncryptedPrivateKeyInfo", pq);
    TEST_CHECK(e != NULL && OSSL_ENCODER_CTX_get_num_encoders(e) > 0
          && OSSL_ENCODER_CTX_set_cipher(e, "AES-128-CBC", NULL)
          && OSSL_ENCODER_CTX_set_passphrase(e, (const unsigned char *)"pw", 2)
          && OSSL_ENCODER_to_data(e, &epki, &elen),
          "EncryptedPrivateKeyInfo DER");
    if (epki != NULL) {
        OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(
            &k, "DER", NULL, x->name, EVP_PKEY_KEYPAIR, ctx, NULL);
        const unsigned char *p = epki;
        size_t left = elen;

        TEST_CHECK(d != NULL
              && OSSL_DECODER_CTX_set_passphrase(d, (const unsigned char *)"pw", 2)
              && OSSL_DECODER_from_data(d, &p, &left) && k != NULL,
              "decode EncryptedPrivateKeyInfo DER");
        OSSL_DECODER_CTX_free(d);
        TEST_CHECK(k != NULL && EVP_PKEY_eq(k, key) == 1, "encrypted DER key equal");
    }
end:
    OSSL_ENCODER_CTX_free(e);
    OPENSSL_free(epki);
    OPENSSL_free(pki);
    EVP_PKEY_free(k);
    EVP_PKEY_free(key);
    BIO_free(bio);
}

/* ---- 5. export_object / import_object (keys crossing providers) ---------- */

struct export_arg {
    OSSL_LIB_CTX *ctx;
    const char *alg, *target_propq;
    EVP_PKEY *out;
};

static int export_cb(const OSSL_PARAM params[], void *arg)
{
    struct export_arg *a = arg;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(a->ctx, a->alg, a->target_propq);
    int ok = pc != NULL && EVP_PKEY_fromdata_init(pc) > 0
             && EVP_PKEY_fromdata(pc, &a->out, EVP_PKEY_KEYPAIR,
                                  (OSSL_PARAM *)params) > 0;

    EVP_PKEY_CTX_free(pc);
    return ok;
}

static int construct_cb(OSSL_DECODER_INSTANCE *inst, const OSSL_PARAM *params,
                        void *arg)
{
    const OSSL_PARAM *ref = OSSL_PARAM_locate_const(params,
                                                    OSSL_OBJECT_PARAM_REFERENCE);

    if (ref == NULL || ref->data_type != OSSL_PARAM_OCTET_STRING)
        return 0;
    return OSSL_DECODER_export(inst, ref->data, ref->data_size, export_cb, arg);
}

static void test_cross_provider(OSSL_LIB_CTX *ctx, OSSL_LIB_CTX *privonly,
                                const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *key = keygen_seed(ctx, x->name, pq);
    unsigned char *pki = NULL, *again = NULL;
    size_t len = 0, alen;
    OSSL_DECODER *dec = OSSL_DECODER_fetch(
        ctx, x->name, "provider=mlkem,input=der,structure=PrivateKeyInfo");
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new();
    struct export_arg a = { ctx, x->name, is35 ? "provider=default" : pq, NULL };
    const unsigned char *p;
    size_t left;

    printf("== %s: keys crossing providers\n", x->name);
    if (key != NULL)
        pki = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &len);
    /* Our decoder hands the key over as parameters (export_object). */
    TEST_CHECK(pki != NULL && dec != NULL && d != NULL
          && OSSL_DECODER_CTX_add_decoder(d, dec)
          && OSSL_DECODER_CTX_set_construct(d, construct_cb)
          && OSSL_DECODER_CTX_set_construct_data(d, &a),
          "decoder setup");
    p = pki;
    left = len;
    TEST_CHECK(pki != NULL && OSSL_DECODER_from_data(d, &p, &left) && a.out != NULL,
          "decoder export_object into %s", a.target_propq);
    if (a.out != NULL) {
        TEST_CHECK(strcmp(provider_of(a.out), is35 ? "default" : "mlkem") == 0,
              "exported key held by %s", provider_of(a.out));
        TEST_CHECK(EVP_PKEY_eq(a.out, key) == 1, "exported key equal");
        /* Re-encoded by the holder's own encoder: identical bytes (on 3.5
         * that is OpenSSL's encoder writing the key our decoder read). */
        TEST_CHECK(encodes_to(a.out, EVP_PKEY_KEYPAIR, a.target_propq, pki, len),
              "re-encoded by %s: identical DER", a.target_propq);
    }
    if (is35) {
        /* A key made by 3.5's default provider, written by 3.5's encoder,
         * read by our decoder: same bytes as ours, equal keys. (Our
         * encoder's import_object serves keys of providers that have no
         * encoder; 3.5 always prefers the key's own provider's encoders,
         * ignoring the property query, so the public API cannot steer a
         * default-provider key into it.) */
        EVP_PKEY *theirs = keygen_seed(privonly, x->name, "provider=default");

        TEST_CHECK(theirs != NULL && strcmp(provider_of(theirs), "default") == 0,
              "3.5 default-provider key");
        if (theirs != NULL) {
            EVP_PKEY *ours;

            again = encode(theirs, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo",
                           "provider=default", &alen);
            TEST_CHECK(again != NULL && alen == x->len[0]
                  && sha_is(again, alen, x->sha[0]),
                  "3.5's own encoder wrote the same seed-priv bytes as ours");
            ours = again != NULL ? decode(ctx, again, alen, "DER",
                                          "PrivateKeyInfo", x->name,
                                          EVP_PKEY_KEYPAIR, pq)
                                 : NULL;
            TEST_CHECK(ours != NULL && strcmp(provider_of(ours), "mlkem") == 0
                  && EVP_PKEY_eq(ours, theirs) == 1,
                  "our decoder reads 3.5's file into an equal key");
            EVP_PKEY_free(ours);
            OPENSSL_free(again);
            again = NULL;
        }
        EVP_PKEY_free(theirs);
    } else {
        printf("   (3.5 default-provider keys: 3.5 only)\n");
    }
    EVP_PKEY_free(a.out);
    OSSL_DECODER_CTX_free(d);
    OSSL_DECODER_free(dec);
    OPENSSL_free(pki);
    EVP_PKEY_free(key);
}

/* ---- 6. Malformed input: exact reasons ------------------------------------ */

static void expect_reject(OSSL_LIB_CTX *ctx, const unsigned char *der,
                          size_t len, int priv, int reason, const char *text,
                          const char *what)
{
    EVP_PKEY *k;

    ERR_clear_error();
    k = decode(ctx, der, len, "DER", NULL, NULL,
               priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, "provider=mlkem");
    TEST_CHECK(k == NULL, "%s: loaded", what);
    if (reason != 0)
        TEST_CHECK(queue_has(reason, text), "%s: no \"%s\" from mlkem", what, text);
    else
        TEST_CHECK(!queue_has_mlkem(), "%s: not ours, yet mlkem raised an error",
              what);
    EVP_PKEY_free(k);
    ERR_clear_error();
}

static void test_bad_input(OSSL_LIB_CTX *ctx, const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *key = keygen_seed(ctx, x->name, pq);
    unsigned char *spki = NULL, *sp = NULL, *buf = NULL;
    size_t slen = 0, splen = 0, dk_bytes = (size_t)x->bits / 256 * 768 + 96;
    size_t k = (size_t)x->bits / 256;
    /* dk inside seed-priv: header, version, AlgorithmIdentifier, OCTET STRING
     * and SEQUENCE headers, the seed TLV, dk's OCTET STRING header */
    const size_t dk_off = 4 + 3 + 13 + 4 + 4 + 2 + 64 + 4;

    printf("== %s: malformed input\n", x->name);
    if (key != NULL) {
        spki = encode(key, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo",
                      pq, &slen);
        sp = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &splen);
    }
    buf = OPENSSL_malloc(8192);
    if (spki == NULL || sp == NULL || buf == NULL) {
        TEST_CHECK(0, "setup");
        goto end;
    }

    /* Truncated and trailing bytes. */
    expect_reject(ctx, spki, slen - 1, 0, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding", "SPKI truncated by 1");
    expect_reject(ctx, spki, 40, 0, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding", "SPKI truncated to 40");
    expect_reject(ctx, spki, 10, 0, 0, NULL, "SPKI truncated to 10");
    expect_reject(ctx, sp, splen - 1, 1, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding", "PKCS#8 truncated by 1");
    expect_reject(ctx, sp, splen / 2, 1, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding", "PKCS#8 truncated to half");
    /* Bytes after the outer SEQUENCE are the caller's (d2i semantics): the
     * core hands the decoder one DER object and reports the rest as left. */
    {
        EVP_PKEY *pk = NULL;
        OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(
            &pk, "DER", NULL, NULL, EVP_PKEY_KEYPAIR, ctx, pq);
        const unsigned char *p = buf;
        size_t left = splen + 1;

        memcpy(buf, sp, splen);
        buf[splen] = 0;
        TEST_CHECK(d != NULL && OSSL_DECODER_from_data(d, &p, &left) && pk != NULL
              && left == 1, "PKCS#8 + 1 byte: key, 1 byte left (left %zu)",
              left);
        EVP_PKEY_free(pk);
        OSSL_DECODER_CTX_free(d);
    }
    /* Trailing bytes inside the structures. */
    memcpy(buf, spki, slen);
    /* (the low length bytes changed below are 0x32/0xb2/0xbe/0xaa: no carry) */
    buf[3]++; /* outer SEQUENCE one longer, then an extra byte */
    buf[slen] = 0;
    expect_reject(ctx, buf, slen + 1, 0, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding", "SPKI with a byte after the BIT STRING");
    memcpy(buf, sp, splen);
    buf[3] += 2; /* outer SEQUENCE two longer: [0] attributes-like TLV */
    buf[splen] = 0xa0;
    buf[splen + 1] = 0x00;
    expect_reject(ctx, buf, splen + 2, 1, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding", "PKCS#8 with attributes");
    memcpy(buf, sp, splen);
    buf[3]++;  /* outer SEQUENCE, privateKey OCTET STRING: one longer */
    buf[23]++;
    buf[splen] = 0;
    expect_reject(ctx, buf, splen + 1, 1, MLKEM_R_BAD_ENCODING,
                  "invalid key encoding",
                  "PKCS#8 with a byte after the seed-priv SEQUENCE");
    /* Garbage: not ours, no key, no mlkem error. */
    for (size_t i = 0; i < slen; i++)
        buf[i] = (unsigned char)(i * 167 + 13);
    expect_reject(ctx, buf, slen, 0, 0, NULL, "garbage");
    expect_reject(ctx, buf, slen, 1, 0, NULL, "garbage as private");

    /* OIDs: an unknown one is not ours; another set's OID over this set's
     * key is that set's, with the wrong length. */
    memcpy(buf, spki, slen);
    buf[16] = 9;
    expect_reject(ctx, buf, slen, 0, 0, NULL, "SPKI with OID ...4.4.9");
    memcpy(buf, spki, slen);
    buf[16] = (unsigned char)(buf[16] == 1 ? 2 : 1);
    expect_reject(ctx, buf, slen, 0, MLKEM_R_BAD_KEY_LENGTH,
                  "invalid key length", "SPKI with another set's OID");
    memcpy(buf, sp, splen);
    buf[19] = (unsigned char)(buf[19] == 1 ? 2 : 1);
    expect_reject(ctx, buf, splen, 1, MLKEM_R_BAD_KEY_LENGTH,
                  "invalid key length", "PKCS#8 with another set's OID");
    /* NULL parameters in the AlgorithmIdentifier. */
    {
        size_t m = 0, body = slen - 4 + 2;

        buf[m++] = 0x30;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)(body >> 8);
        buf[m++] = (unsigned char)body;
        buf[m++] = 0x30;
        buf[m++] = 0x0d;
        memcpy(buf + m, spki + 6, 11);
        m += 11;
        buf[m++] = 0x05;
        buf[m++] = 0x00;
        memcpy(buf + m, spki + 17, slen - 17);
        m += slen - 17;
        expect_reject(ctx, buf, m, 0, MLKEM_R_BAD_ENCODING,
                      "invalid key encoding", "SPKI with NULL parameters");
    }
    /* Wrong lengths: ek one byte short; a 63-byte seed. */
    memcpy(buf, spki, slen - 1);
    buf[2] = (unsigned char)((slen - 5) >> 8);
    buf[3] = (unsigned char)(slen - 5);
    buf[19] = (unsigned char)((slen - 22) >> 8);
    buf[20] = (unsigned char)(slen - 22);
    expect_reject(ctx, buf, slen - 1, 0, MLKEM_R_BAD_KEY_LENGTH,
                  "invalid key length", "SPKI ek short");
    {
        /* seed-only with [0] of 63 bytes: 30 53 020100 AlgId 04 41 80 3f */
        static const unsigned char hdr[] = {
            0x30, 0x53, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86,
            0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x00, 0x04, 0x41, 0x80, 0x3f
        };

        memcpy(buf, hdr, sizeof(hdr));
        buf[17] = sp[19];
        for (int i = 0; i < 63; i++)
            buf[sizeof(hdr) + i] = (unsigned char)i;
        expect_reject(ctx, buf, sizeof(hdr) + 63, 1, MLKEM_R_BAD_SEED_LENGTH,
                      "invalid seed length", "seed-only with 63 bytes");
    }

    /* FIPS 203 checks. */
    memcpy(buf, spki, slen);
    buf[22] = 0xff; /* first 12-bit coefficient of t-hat = 0xfff >= q */
    buf[23] |= 0x0f;
    expect_reject(ctx, buf, slen, 0, MLKEM_R_EK_NOT_REDUCED,
                  "encapsulation key not reduced mod q", "unreduced ek");
    memcpy(buf, sp, splen);
    buf[dk_off + 768 * k + 32 + 3] ^= 0x01; /* H(ek) inside dk */
    expect_reject(ctx, buf, splen, 1, MLKEM_R_SEED_KEY_MISMATCH,
                  "seed does not match private key",
                  "seed-priv with a wrong H(ek) in dk");
    memcpy(buf, sp, splen);
    buf[dk_off + 9] ^= 0x80; /* a byte of s */
    expect_reject(ctx, buf, splen, 1, MLKEM_R_SEED_KEY_MISMATCH,
                  "seed does not match private key",
                  "seed-priv whose dk disagrees with the seed");
    memcpy(buf, sp, splen);
    buf[30] ^= 0x01; /* a byte of the seed */
    expect_reject(ctx, buf, splen, 1, MLKEM_R_SEED_KEY_MISMATCH,
                  "seed does not match private key",
                  "seed-priv whose seed disagrees with dk");
    {
        /* priv-only (dk alone): 3082 X78 020100 AlgId 0482 X64 0482 X60 dk */
        size_t m = 0, inner = 4 + dk_bytes, body = 3 + 13 + 4 + inner;
        size_t d0;

        buf[m++] = 0x30;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)(body >> 8);
        buf[m++] = (unsigned char)body;
        memcpy(buf + m, sp + 4, 16); /* version + AlgorithmIdentifier */
        m += 16;
        buf[m++] = 0x04;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)(inner >> 8);
        buf[m++] = (unsigned char)inner;
        buf[m++] = 0x04;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)(dk_bytes >> 8);
        buf[m++] = (unsigned char)dk_bytes;
        d0 = m;
        memcpy(buf + m, sp + dk_off, dk_bytes);
        m += dk_bytes;
        {
            EVP_PKEY *ok = decode(ctx, buf, m, "DER", NULL, NULL,
                                  EVP_PKEY_KEYPAIR, pq);
            TEST_CHECK(ok != NULL, "hand-built priv-only loads");
            EVP_PKEY_free(ok);
        }
        buf[d0 + 768 * k + 32 + 5] ^= 0x01; /* H(ek) */
        expect_reject(ctx, buf, m, 1, MLKEM_R_DK_HASH_MISMATCH,
                      "decapsulation key hash check failed",
                      "priv-only with a wrong H(ek)");
        buf[d0 + 768 * k + 32 + 5] ^= 0x01;
        buf[d0] = 0xff; /* s[0] = 0xfff >= q */
        buf[d0 + 1] |= 0x0f;
        expect_reject(ctx, buf, m, 1, MLKEM_R_DK_NOT_REDUCED,
                      "decapsulation key not reduced mod q",
                      "priv-only with unreduced s");
    }
    {
        /* oqskeypair whose appended ek differs from dk's. */
        size_t ek_bytes = 384 * k + 32;
        size_t m = 0, inner = 4 + dk_bytes + ek_bytes, body = 3 + 13 + 4 + inner;

        buf[m++] = 0x30;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)(body >> 8);
        buf[m++] = (unsigned char)body;
        memcpy(buf + m, sp + 4, 16);
        m += 16;
        buf[m++] = 0x04;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)(inner >> 8);
        buf[m++] = (unsigned char)inner;
        buf[m++] = 0x04;
        buf[m++] = 0x82;
        buf[m++] = (unsigned char)((dk_bytes + ek_bytes) >> 8);
        buf[m++] = (unsigned char)(dk_bytes + ek_bytes);
        memcpy(buf + m, sp + dk_off, dk_bytes);
        m += dk_bytes;
        memcpy(buf + m, spki + 22, ek_bytes);
        m += ek_bytes;
        {
            EVP_PKEY *ok = decode(ctx, buf, m, "DER", NULL, NULL,
                                  EVP_PKEY_KEYPAIR, pq);
            TEST_CHECK(ok != NULL, "hand-built oqskeypair loads");
            EVP_PKEY_free(ok);
        }
        buf[m - 1] ^= 0x01;
        expect_reject(ctx, buf, m, 1, MLKEM_R_BAD_ENCODING,
                      "invalid key encoding", "oqskeypair with a different ek");
    }
end:
    OPENSSL_free(buf);
    OPENSSL_free(spki);
    OPENSSL_free(sp);
    EVP_PKEY_free(key);
}

/* ---- 7. A bad format list in the configuration ---------------------------- */

static void test_bad_config(OSSL_LIB_CTX *dflt, OSSL_LIB_CTX *bad_out,
                            OSSL_LIB_CTX *bad_in,
                            const struct test_codecs_expected *x)
{
    const char *pq = "provider=mlkem";
    EVP_PKEY *key, *k;
    unsigned char *der = NULL, *pki = NULL;
    size_t len = 0, plen = 0;

    printf("== %s: bad format lists\n", x->name);
    key = keygen_seed(bad_out, x->name, pq);
    TEST_CHECK(key != NULL, "keygen with output_formats = bogus");
    if (key != NULL) {
        der = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &len);
        TEST_CHECK(der == NULL, "private key written despite a bad output list");
        TEST_CHECK(queue_has(MLKEM_R_BAD_FORMAT_NAME, "unknown key format name"),
              "bad output list: reason");
        OPENSSL_free(der);
        der = encode(key, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo",
                     pq, &len);
        TEST_CHECK(der != NULL && len == x->spki_len, "SPKI unaffected");
        OPENSSL_free(der);
    }
    EVP_PKEY_free(key);
    key = keygen_seed(dflt, x->name, pq);
    if (key != NULL)
        pki = encode(key, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", pq, &plen);
    if (pki != NULL) {
        ERR_clear_error();
        k = decode(bad_in, pki, plen, "DER", NULL, NULL, EVP_PKEY_KEYPAIR, pq);
        TEST_CHECK(k == NULL, "private key loaded despite a bad input list");
        TEST_CHECK(queue_has(MLKEM_R_BAD_FORMAT_NAME, "unknown key format name"),
              "bad input list: reason");
        EVP_PKEY_free(k);
    }
    OPENSSL_free(pki);
    EVP_PKEY_free(key);
}

/* ---- main ----------------------------------------------------------------- */

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *dflt = NULL, *fctx[TEST_CODECS_NFMT] = { NULL };
    OSSL_LIB_CTX *in_priv = NULL, *no_seed = NULL, *bad_out = NULL, *bad_in = NULL;
    int argi = 1;

    if (argi < argc && strcmp(argv[argi], "--openssl35") == 0) {
        const char *prefix = getenv("MLKEM_OPENSSL35_PREFIX");
        char lib[512];

        argi++;
        snprintf(lib, sizeof(lib), "%s/lib/libcrypto.so.3",
                 prefix != NULL ? prefix : "");
        if (prefix == NULL || access(lib, R_OK) != 0) {
            printf("SKIP: OpenSSL 3.5 not found (MLKEM_OPENSSL35_PREFIX=%s); "
                   "build it with scripts/openssl35.sh\n",
                   prefix != NULL ? prefix : "(unset)");
            return 77;
        }
        if (!TEST_CHECK(OpenSSL_version_num() >= 0x30500000L,
                        "--openssl35 but running with %s (LD_LIBRARY_PATH "
                        "should point at %s/lib)",
                        OpenSSL_version(OPENSSL_VERSION), prefix))
            return test_finish("codecs");
    }
    if (argi >= argc) {
        fprintf(stderr, "usage: %s [--openssl35] <path/to/mlkem.so>\n", argv[0]);
        return 2;
    }
    module_path = argv[argi];
    is35 = OpenSSL_version_num() >= 0x30500000L;
    printf("libcrypto: %s; module: %s\n", OpenSSL_version(OPENSSL_VERSION),
           module_path);
    if (!TEST_CHECK(access(module_path, R_OK) == 0,
                    "no provider module at %s", module_path))
        return test_finish("codecs");
    snprintf(tmpdir, sizeof(tmpdir), "%s/mlkem-codecs-XXXXXX",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (!TEST_CHECK(mkdtemp(tmpdir) != NULL, "mkdtemp %s", tmpdir))
        return test_finish("codecs");

    dflt = make_ctx("default", "");
    for (int f = 0; f < TEST_CODECS_NFMT; f++) {
        char line[80];

        snprintf(line, sizeof(line), "ml-kem.output_formats = %s",
                 test_codecs_fmt_names[f]);
        fctx[f] = make_ctx(test_codecs_fmt_names[f], line);
    }
    in_priv = make_ctx("in-priv", "ml-kem.input_formats = priv-only");
    no_seed = make_ctx("no-seed", "ml-kem.retain_seed = no");
    bad_out = make_ctx("bad-out", "ml-kem.output_formats = seed-priv, bogus");
    bad_in = make_ctx("bad-in", "ml-kem.input_formats = bogus");
    if (dflt == NULL)
        goto done;

    for (int i = 0; i < 3; i++) {
        const struct test_codecs_expected *x = &test_codecs_expected[i];

        test_default(dflt, x);
        test_output_formats(dflt, fctx, x);
        test_input_formats(dflt, in_priv, no_seed, fctx[1], x);
        test_encrypted(dflt, x);
        test_cross_provider(dflt, fctx[2], x);
        test_bad_input(dflt, x);
        if (bad_out != NULL && bad_in != NULL)
            test_bad_config(dflt, bad_out, bad_in, x);
    }
done:
    OSSL_LIB_CTX_free(dflt);
    for (int f = 0; f < TEST_CODECS_NFMT; f++)
        OSSL_LIB_CTX_free(fctx[f]);
    OSSL_LIB_CTX_free(in_priv);
    OSSL_LIB_CTX_free(no_seed);
    OSSL_LIB_CTX_free(bad_out);
    OSSL_LIB_CTX_free(bad_in);
    rmdir(tmpdir);
    printf("codecs on %s\n", OpenSSL_version(OPENSSL_VERSION));
    return test_finish("codecs");
}
