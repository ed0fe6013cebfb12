/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_config.c: the provider's openssl.cnf options, loaded with
 * OSSL_LIB_CTX_load_config into fresh library contexts:
 *   ml-kem.retain_seed = no      generated keys forget d || z
 *   retain_seed = no             the same key without the "ml-kem." prefix
 *   ml-kem.prefer_seed = no      seed + dk import loads dk alone (PCT)
 *   ml-kem.output_formats = ...  valid lists load; seed-only / priv-only
 *                                decide the PKCS#8 size (encoders.c)
 *   bad values                   the provider still loads (a failing init is
 *                                silently dropped by OpenSSL's config code),
 *                                reports the value in its "config-error"
 *                                parameter, keeps the default for a bad
 *                                yes/no, and enables no format for a bad
 *                                list: private key encoding / decoding fail
 *   decoders = no                the provider offers no decoder (0 of 6 in
 *                                the context), KEM and encoders still work,
 *                                and before 3.5 nothing decodes an ML-KEM
 *                                SPKI; "maybe" keeps the decoders and is
 *                                reported; under ml-kem. the key is unknown
 *   unknown keys                 retain_sed = no, ml-kem.prefer_sed: named in
 *                                "config-error" (and in the build info),
 *                                ignored; a key the loaded configuration
 *                                does not hold is never reported
 * The provider finds keys it does not know by reading the file OpenSSL
 * loads by default (OPENSSL_CONF), so load_cnf points OPENSSL_CONF at the
 * file it loads.
 */
#define _POSIX_C_SOURCE 200809L

#include "test/provider/evp_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/x509.h>

static char tmpdir[64];

/* Write a configuration loading default and mlkem (from moddir) with the
 * given extra lines in [mlkem_sect] and an optional [mlkem_kem_sect]. */
static int write_cnf(const char *path, const char *moddir, const char *lines,
                     const char *kem_sect)
{
    FILE *f = fopen(path, "w");

    if (f == NULL)
        return 0;
    fprintf(f,
            "openssl_conf = openssl_init\n"
            "[openssl_init]\nproviders = provider_sect\n"
            "[provider_sect]\ndefault = default_sect\nmlkem = mlkem_sect\n"
            "[default_sect]\nactivate = 1\n"
            "[mlkem_sect]\nmodule = %s/mlkem.so\nactivate = 1\n%s\n",
            moddir, lines);
    if (kem_sect != NULL)
        fprintf(f, "[mlkem_kem_sect]\n%s\n", kem_sect);
    return fclose(f) == 0;
}

/* Load a configuration into a new library context. The environment holds
 * the context and, if it loaded, the mlkem provider's availability. */
static int load_cnf(test_env *e, const char *moddir, const char *lines,
                    const char *kem_sect)
{
    char path[128];

    memset(e, 0, sizeof(*e));
    snprintf(path, sizeof(path), "%s/mlkem.cnf", tmpdir);
    if (!TEST_CHECK(write_cnf(path, moddir, lines, kem_sect), "write %s", path))
        return 0;
    if ((e->libctx = OSSL_LIB_CTX_new()) == NULL)
        return 0;
    setenv("OPENSSL_CONF", path, 1);
    if (OSSL_LIB_CTX_load_config(e->libctx, path) != 1
        || OSSL_PROVIDER_available(e->libctx, "mlkem") != 1)
        return 0;
    /* A reference for get_params (the configuration keeps it active). */
    e->mlkem = OSSL_PROVIDER_load(e->libctx, "mlkem");
    return e->mlkem != NULL;
}

static void close_cnf(test_env *e)
{
    if (e->mlkem != NULL)
        OSSL_PROVIDER_unload(e->mlkem);
    OSSL_LIB_CTX_free(e->libctx);
    memset(e, 0, sizeof(*e));
}

/* The provider's "config-error" parameter ("" when the config is fine). */
static const char *config_error(test_env *e)
{
    static char buf[256];
    const char *v = NULL;
    OSSL_PARAM p[2] = {
        OSSL_PARAM_construct_utf8_ptr("config-error", (char **)&v, 0),
        OSSL_PARAM_construct_end()
    };

    if (OSSL_PROVIDER_get_params(e->mlkem, p) != 1 || v == NULL)
        return NULL;
    snprintf(buf, sizeof(buf), "%s", v);
    return buf;
}

/* DER PKCS#8 of a private key (encoders.c); its length, or -1. */
static int pkcs8_len(EVP_PKEY *k, unsigned char **der)
{
    *der = NULL;
    return i2d_PrivateKey(k, der);
}

static int has_seed(test_env *e, EVP_PKEY *k)
{
    uint8_t s[64];
    size_t len;
    int r = evp_get_octets(k, "seed", s, sizeof(s), &len);

    (void)e;
    ERR_clear_error();
    return r && len == 64;
}

static void retain_seed_no(const char *moddir, const char *lines,
                           const char *kem_sect, const char *label)
{
    test_env e;

    if (!TEST_CHECK(load_cnf(&e, moddir, lines, kem_sect), "%s: config load",
               label)) {
        close_cnf(&e);
        return;
    }
    const char *ce = config_error(&e);
    TEST_CHECK(ce != NULL && ce[0] == '\0', "%s: config-error \"%s\"", label,
          ce ? ce : "(null)");
    for (size_t i = 0; i < 3; i++) {
        EVP_PKEY *k = evp_keygen(&e, evp_variants[i].name, NULL, 0);
        uint8_t dk[3168], ct[1568], ss1[32], ss2[32];
        size_t len, ctlen = sizeof(ct), s1 = 32, s2 = 32;
        TEST_CHECK(k != NULL && !has_seed(&e, k)
                  && evp_get_octets(k, "priv", dk, sizeof(dk), &len),
              "%s: %s keeps its seed", label, evp_variants[i].name);
        TEST_CHECK(k != NULL && evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss1, &s1)
                  && evp_decaps(&e, k, ct, ctlen, ss2, &s2)
                  && memcmp(ss1, ss2, 32) == 0,
              "%s: %s round trip", label, evp_variants[i].name);
        EVP_PKEY_free(k);
    }
    close_cnf(&e);
}

static void prefer_seed_no(const char *moddir)
{
    test_env e;
    const evp_variant *v = &evp_variants[1];

    if (!TEST_CHECK(load_cnf(&e, moddir, "ml-kem = mlkem_kem_sect",
                        "prefer_seed = no"), "prefer_seed=no: config load")) {
        close_cnf(&e);
        return;
    }
    EVP_PKEY *a = evp_keygen(&e, v->name, NULL, 0);
    EVP_PKEY *b = evp_keygen(&e, v->name, NULL, 0);
    uint8_t dk[3168], seed_b[64], got[3168];
    size_t len;
    if (TEST_CHECK(a != NULL && b != NULL
                  && evp_get_octets(a, "priv", dk, sizeof(dk), &len)
                  && evp_get_octets(b, "seed", seed_b, sizeof(seed_b), &len),
              "prefer_seed=no: keys")) {
        /* With prefer_seed = no the (foreign) seed is dropped: dk wins. */
        EVP_PKEY *k = evp_import(&e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, dk,
                                 v->dk, seed_b, 64);
        TEST_CHECK(k != NULL && evp_get_octets(k, "priv", got, sizeof(got), &len)
                  && evp_bytes_eq("dk", got, len, dk, v->dk)
                  && !has_seed(&e, k) && EVP_PKEY_eq(k, a) == 1,
              "prefer_seed=no: seed + dk import");
        EVP_PKEY_free(k);
    }
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
    close_cnf(&e);
}

/* A bad value: the provider still loads, "config-error" names the key and
 * the value, and `expect` says what still works:
 *   'b' bad yes/no: default kept (generated keys keep their seed);
 *   'o' bad output list: i2d_PrivateKey fails, KEM works;
 *   'i' bad input list: d2i of our own PKCS#8 fails, KEM works. */
static void bad_value(const char *moddir, const char *lines,
                      const char *kem_sect, const char *needle, char expect)
{
    test_env e;

    ERR_clear_error();
    if (!TEST_CHECK(load_cnf(&e, moddir, lines, kem_sect),
               "bad config \"%s\" / \"%s\": provider did not load", lines,
               kem_sect ? kem_sect : "")) {
        close_cnf(&e);
        ERR_clear_error();
        return;
    }
    TEST_CHECK(ERR_peek_error() == 0, "bad config left an error on the queue");
    const char *ce = config_error(&e);
    TEST_CHECK(ce != NULL && strstr(ce, needle) != NULL,
          "config-error \"%s\", expected to contain '%s'", ce ? ce : "(null)",
          needle);

    const evp_variant *v = &evp_variants[0];
    EVP_PKEY *k = evp_keygen(&e, v->name, NULL, 0);
    uint8_t ct[1568], ss1[32], ss2[32];
    size_t ctlen = sizeof(ct), s1 = 32, s2 = 32;
    TEST_CHECK(k != NULL && evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss1, &s1)
              && evp_decaps(&e, k, ct, ctlen, ss2, &s2)
              && memcmp(ss1, ss2, 32) == 0, "bad config: KEM broken");
    if (k != NULL && expect == 'b')
        TEST_CHECK(has_seed(&e, k), "bad retain_seed did not keep the default");
    if (k != NULL && expect == 'o') {
        unsigned char *der = NULL;
        int n = pkcs8_len(k, &der);
        TEST_CHECK(n <= 0, "bad output_formats: private key encoded (%d bytes)", n);
        OPENSSL_free(der);
    }
    if (k != NULL && expect == 'i') {
        unsigned char *der = NULL;
        int n = pkcs8_len(k, &der);
        const unsigned char *q = der;
        EVP_PKEY *d = NULL;
        if (TEST_CHECK(n > 0, "bad input_formats: encoding failed"))
            d = d2i_AutoPrivateKey_ex(NULL, &q, n, e.libctx, EVP_TEST_PROPQ);
        TEST_CHECK(d == NULL, "bad input_formats: private key decoded");
        EVP_PKEY_free(d);
        OPENSSL_free(der);
    }
    EVP_PKEY_free(k);
    close_cnf(&e);
    ERR_clear_error();
}

/* A key the provider does not know: the provider loads, "config-error" and
 * the build info name it, and everything works with the defaults. */
static void unknown_key(const char *moddir, const char *lines,
                        const char *kem_sect, const char *needle)
{
    test_env e;
    const char *ce, *bi = NULL;
    OSSL_PARAM p[2];

    ERR_clear_error();
    if (!TEST_CHECK(load_cnf(&e, moddir, lines, kem_sect),
               "unknown key \"%s\": provider did not load", needle)) {
        close_cnf(&e);
        return;
    }
    TEST_CHECK(ERR_peek_error() == 0, "an unknown key left an error on the queue");
    ce = config_error(&e);
    TEST_CHECK(ce != NULL && strstr(ce, needle) != NULL
              && strstr(ce, "unknown key") != NULL,
          "config-error \"%s\", expected \"%s: unknown key ...\"",
          ce ? ce : "(null)", needle);
    p[0] = OSSL_PARAM_construct_utf8_ptr("buildinfo", (char **)&bi, 0);
    p[1] = OSSL_PARAM_construct_end();
    TEST_CHECK(OSSL_PROVIDER_get_params(e.mlkem, p) == 1 && bi != NULL
              && strstr(bi, "; configuration error: ") != NULL
              && strstr(bi, needle) != NULL,
          "build info \"%s\" does not name the unknown key",
          bi ? bi : "(null)");
    /* Ignored: the defaults hold (retain_seed = yes). */
    EVP_PKEY *k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    TEST_CHECK(k != NULL && has_seed(&e, k), "unknown key: keygen with defaults");
    EVP_PKEY_free(k);
    close_cnf(&e);
    ERR_clear_error();
}

/* OPENSSL_CONF names another file whose mlkem section has a key that the
 * loaded configuration lacks: nothing may be reported. */
static void unknown_key_other_file(const char *moddir)
{
    char other[128];
    test_env e;
    const char *ce;

    snprintf(other, sizeof(other), "%s/other.cnf", tmpdir);
    if (!TEST_CHECK(write_cnf(other, moddir, "bogus_key = 1", NULL), "write %s",
               other))
        return;
    memset(&e, 0, sizeof(e));
    {
        char path[128];

        snprintf(path, sizeof(path), "%s/mlkem.cnf", tmpdir);
        if (!TEST_CHECK(write_cnf(path, moddir, "", NULL), "write %s", path))
            return;
        setenv("OPENSSL_CONF", other, 1);
        e.libctx = OSSL_LIB_CTX_new();
        if (!TEST_CHECK(e.libctx != NULL
                       && OSSL_LIB_CTX_load_config(e.libctx, path) == 1
                       && (e.mlkem = OSSL_PROVIDER_load(e.libctx, "mlkem"))
                              != NULL,
                   "load with OPENSSL_CONF naming another file")) {
            close_cnf(&e);
            unlink(other);
            return;
        }
    }
    ce = config_error(&e);
    TEST_CHECK(ce != NULL && ce[0] == '\0',
          "a key of another file was reported: \"%s\"", ce ? ce : "(null)");
    close_cnf(&e);
    unlink(other);
    ERR_clear_error();
}

/* output_formats decides the PKCS#8 form (the DER sizes of OpenSSL 3.5's
 * forms for ML-KEM-768: seed-only 86, priv-only 2428, seed-priv 2498;
 * docs/usage.md names the forms), and a file written as seed-only decodes
 * back (input_formats default: all). */
static void output_format(const char *moddir, const char *list, int len768)
{
    test_env e;

    if (!TEST_CHECK(load_cnf(&e, moddir, "ml-kem = mlkem_kem_sect", list),
               "\"%s\": config load", list)) {
        close_cnf(&e);
        return;
    }
    EVP_PKEY *k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    unsigned char *der = NULL;
    int n = k != NULL ? pkcs8_len(k, &der) : -1;
    TEST_CHECK(n == len768, "\"%s\": PKCS#8 of %d bytes, expected %d", list, n,
          len768);
    if (n > 0) {
        const unsigned char *q = der;
        EVP_PKEY *d = d2i_AutoPrivateKey_ex(NULL, &q, n, e.libctx,
                                            EVP_TEST_PROPQ);
        TEST_CHECK(d != NULL && EVP_PKEY_eq(d, k) == 1, "\"%s\": decode back", list);
        EVP_PKEY_free(d);
    }
    OPENSSL_free(der);
    EVP_PKEY_free(k);
    close_cnf(&e);
    ERR_clear_error();
}

/* "decoders": with `on`, the six decoders (SPKI and PKCS#8 per set) are in
 * the context and decode our SPKI back; without, none is, the KEM and the
 * encoders still work, and an SPKI decodes through nothing of ours (before
 * 3.5 through nothing at all). `needle`: the expected config-error, or
 * NULL for none. */
static void decoders_config(const char *moddir, const char *lines, int on,
                            const char *needle)
{
    test_env e;

    ERR_clear_error();
    if (!TEST_CHECK(load_cnf(&e, moddir, lines, NULL),
                    "\"%s\": config load", lines)) {
        close_cnf(&e);
        return;
    }
    const char *ce = config_error(&e);
    if (needle == NULL)
        TEST_CHECK(ce != NULL && ce[0] == '\0', "\"%s\": config-error \"%s\"",
                   lines, ce ? ce : "(null)");
    else
        TEST_CHECK(ce != NULL && strstr(ce, needle) != NULL,
                   "\"%s\": config-error \"%s\", expected '%s'", lines,
                   ce ? ce : "(null)", needle);
    const int n = test_provider_decoders(e.libctx, "mlkem");
    TEST_CHECK(n == (on ? 6 : 0), "\"%s\": %d mlkem decoders, expected %d",
               lines, n, on ? 6 : 0);

    EVP_PKEY *k = evp_keygen(&e, "ML-KEM-768", NULL, 0);
    uint8_t ct[1568], ss1[32], ss2[32];
    size_t ctlen = sizeof(ct), s1 = 32, s2 = 32;
    TEST_CHECK(k != NULL && evp_encaps(&e, k, NULL, 0, ct, &ctlen, ss1, &s1)
                   && evp_decaps(&e, k, ct, ctlen, ss2, &s2)
                   && memcmp(ss1, ss2, 32) == 0,
               "\"%s\": KEM broken", lines);
    unsigned char *der = NULL;
    int len = k != NULL ? i2d_PUBKEY(k, &der) : -1;
    TEST_CHECK(len == 1206, "\"%s\": SPKI of %d bytes, expected 1206", lines,
               len);
    if (len > 0) {
        const unsigned char *q = der;
        EVP_PKEY *d = d2i_PUBKEY_ex(NULL, &q, len, e.libctx,
                                    on ? EVP_TEST_PROPQ : NULL);
        const OSSL_PROVIDER *dp = d != NULL ? EVP_PKEY_get0_provider(d) : NULL;
        const int ours =
            dp != NULL && strcmp(OSSL_PROVIDER_get0_name(dp), "mlkem") == 0;
        const int before35 = OPENSSL_version_major() == 3
                             && OPENSSL_version_minor() < 5;
        if (on)
            TEST_CHECK(ours && EVP_PKEY_eq(d, k) == 1,
                       "\"%s\": SPKI not decoded back by mlkem", lines);
        else if (before35)
            TEST_CHECK(d == NULL && ERR_peek_error() != 0,
                       "\"%s\": an ML-KEM SPKI decoded on %u.%u without our "
                       "decoders", lines, OPENSSL_version_major(),
                       OPENSSL_version_minor());
        else
            TEST_CHECK(!ours, "\"%s\": decoded by mlkem", lines);
        EVP_PKEY_free(d);
    }
    OPENSSL_free(der);
    EVP_PKEY_free(k);
    close_cnf(&e);
    ERR_clear_error();
}

void evp_suite_config(const char *moddir)
{
    const char *conf = getenv("OPENSSL_CONF");
    char *saved_conf = conf != NULL ? strdup(conf) : NULL;

    snprintf(tmpdir, sizeof(tmpdir), "/tmp/mlkem-evp-XXXXXX");
    if (!TEST_CHECK(mkdtemp(tmpdir) != NULL, "mkdtemp"))
        return;

    retain_seed_no(moddir, "ml-kem = mlkem_kem_sect", "retain_seed = no",
                   "ml-kem.retain_seed=no");
    retain_seed_no(moddir, "retain_seed = false", NULL, "retain_seed=false");
    prefer_seed_no(moddir);

    /* Valid lists (any separator) load and work. */
    test_env e;
    TEST_CHECK(load_cnf(&e, moddir, "ml-kem = mlkem_kem_sect",
                   "output_formats = priv-only seed-only\n"
                   "input_formats = seed-priv,priv-only,\tbare-seed\n"
                   "retain_seed = YES\nprefer_seed = on"),
          "valid format lists rejected");
    close_cnf(&e);

    output_format(moddir, "output_formats = seed-only", 86);
    output_format(moddir, "output_formats = priv-only, seed-priv", 2428);
    output_format(moddir, "output_formats = seed-priv", 2498);

    bad_value(moddir, "ml-kem = mlkem_kem_sect",
              "output_formats = seed-priv, bogus",
              "ml-kem.output_formats: unknown key format name \"bogus\"", 'o');
    bad_value(moddir, "input_formats = priv-only;seed-only", NULL,
              "input_formats: unknown key format name \"priv-only;seed-only\"",
              'i');
    bad_value(moddir, "ml-kem = mlkem_kem_sect", "output_formats = ,",
              "ml-kem.output_formats: empty key format list", 'o');
    bad_value(moddir, "ml-kem = mlkem_kem_sect", "retain_seed = maybe",
              "ml-kem.retain_seed: invalid value \"maybe\"", 'b');

    unknown_key(moddir, "retain_sed = no", NULL, "retain_sed");
    unknown_key(moddir, "ml-kem = mlkem_kem_sect", "prefer_sed = yes",
                "ml-kem.prefer_sed");
    unknown_key_other_file(moddir);

    decoders_config(moddir, "", 1, NULL);
    decoders_config(moddir, "decoders = no", 0, NULL);
    decoders_config(moddir, "decoders = yes", 1, NULL);
    decoders_config(moddir, "decoders = maybe", 1,
                    "decoders: invalid value \"maybe\"");
    unknown_key(moddir, "ml-kem = mlkem_kem_sect", "decoders = no",
                "ml-kem.decoders");

    char path[128];
    snprintf(path, sizeof(path), "%s/mlkem.cnf", tmpdir);
    unlink(path);
    rmdir(tmpdir);
    if (saved_conf != NULL)
        setenv("OPENSSL_CONF", saved_conf, 1);
    else
        unsetenv("OPENSSL_CONF");
    free(saved_conf);
    ERR_clear_error();
}
