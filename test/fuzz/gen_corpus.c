/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_corpus.c: writes the seed corpora of test/fuzz/corpus/ from valid
 * encodings made by the provider (a key from the fixed seed d || z =
 * 00 01 .. 3f, the one test/provider checks against OpenSSL 3.5's own
 * encoders, and the start-up keys of fuzz_kem), in each target's input
 * layout (see the target's file comment).
 *
 *   decode/     SPKI DER of each set; PKCS#8 DER in all six private forms
 *               for each set; PEM, encrypted PEM and encrypted DER
 *               (passphrase "fuzz") of ML-KEM-768
 *   fromdata/   seed, pub, priv, seed+priv, all three, for each set
 *   kem/        each algorithm's public key (encapsulation input) and a
 *               ciphertext (decapsulation input)
 *   tls_server/ a client's first flight (ClientHello) for each group
 *   tls_client/ a server's first flight for each group
 *
 * Usage: fuzz_gen_corpus <directory holding mlkem.so> <corpus directory>
 * (the directories must exist). Regenerate with the `fuzz_corpus` target.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "test/hardening/hard_util.h"
#include "test/tls/tls_common.h"

static const char *outdir, *moddir;

static void put(const char *sub, const char *name, uint8_t tag0, int ntag,
                uint8_t tag1, const uint8_t *data, size_t len)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s", outdir, sub);
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/%s/%s", outdir, sub, name);
    if (!TEST_CHECK((f = fopen(path, "wb")) != NULL, "cannot write %s", path))
        return;
    if (ntag >= 1)
        fputc(tag0, f);
    if (ntag >= 2)
        fputc(tag1, f);
    fwrite(data, 1, len, f);
    TEST_CHECK(fclose(f) == 0, "%s: write error", path);
}

/* A library context whose mlkem section has the given extra line. */
static OSSL_LIB_CTX *ctx_with(const char *line)
{
    char path[1024];
    FILE *f;
    OSSL_LIB_CTX *ctx;
    snprintf(path, sizeof(path), "%s/gen-corpus.cnf", outdir);
    if ((f = fopen(path, "w")) == NULL)
        return NULL;
    fprintf(f, "openssl_conf = openssl_init\n[openssl_init]\n"
            "providers = provider_sect\n[provider_sect]\n"
            "default = default_sect\nmlkem = mlkem_sect\n"
            "[default_sect]\nactivate = 1\n[mlkem_sect]\n"
            "module = %s/mlkem.so\nactivate = 1\n%s\n", moddir, line);
    fclose(f);
    ctx = OSSL_LIB_CTX_new();
    if (ctx == NULL || !OSSL_LIB_CTX_load_config(ctx, path)) {
        OSSL_LIB_CTX_free(ctx);
        ctx = NULL;
    }
    unlink(path);
    return ctx;
}

static const char *const forms[6] = { "seed-priv", "seed-only", "priv-only",
                                      "oqskeypair", "bare-seed", "bare-priv" };

static void gen_decode(void)
{
    uint8_t seed[64];
    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)i;
    for (int f = 0; f < 6; f++) {
        char line[128], name[128];
        test_env e = { 0 };
        snprintf(line, sizeof(line), "ml-kem.output_formats = %s", forms[f]);
        if ((e.libctx = ctx_with(line)) == NULL) {
            TEST_FAIL("%s", line);
            continue;
        }
        for (int v = 0; v < 3; v++) {
            const hard_alg *a = &hard_algs[v];
            EVP_PKEY *k = hard_keygen(&e, a, seed);
            uint8_t *out;
            size_t len;
            if (k == NULL) {
                TEST_FAIL("%s", a->name);
                continue;
            }
            if (hard_encode(k, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", NULL,
                            &out, &len)) {
                snprintf(name, sizeof(name), "pkcs8-%s-%s.der", forms[f],
                         a->name);
                put("decode", name, 1, 1, 0, out, len);
                OPENSSL_clear_free(out, len);
            } else {
                TEST_FAIL("%s", name);
            }
            if (f != 0) {
                EVP_PKEY_free(k);
                continue;
            }
            /* The default form: the other structures and entry points. */
            if (hard_encode(k, EVP_PKEY_PUBLIC_KEY, "DER",
                            "SubjectPublicKeyInfo", NULL, &out, &len)) {
                snprintf(name, sizeof(name), "spki-%s.der", a->name);
                put("decode", name, 0, 1, 0, out, len);
                OPENSSL_free(out);
            }
            if (v == 1
                && hard_encode(k, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo",
                               NULL, &out, &len)) {
                put("decode", "pkcs8-ML-KEM-768.pem", 3, 1, 0, out, len);
                OPENSSL_clear_free(out, len);
            }
            if (v == 1
                && hard_encode(k, EVP_PKEY_KEYPAIR, "PEM",
                               "EncryptedPrivateKeyInfo", "fuzz", &out, &len)) {
                put("decode", "epki-ML-KEM-768.pem", 4, 1, 0, out, len);
                OPENSSL_free(out);
            }
            if (v == 1
                && hard_encode(k, EVP_PKEY_KEYPAIR, "DER",
                               "EncryptedPrivateKeyInfo", "fuzz", &out, &len)) {
                put("decode", "epki-ML-KEM-768.der", 5, 1, 0, out, len);
                OPENSSL_free(out);
            }
            if (v == 0
                && hard_encode(k, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo",
                               NULL, &out, &len)) {
                put("decode", "any-ML-KEM-512.der", 2, 1, 0, out, len);
                OPENSSL_clear_free(out, len);
            }
            EVP_PKEY_free(k);
        }
        OSSL_LIB_CTX_free(e.libctx);
    }
}

static void put_params(const char *name, int v, unsigned flags,
                       const uint8_t *pub, size_t publen, const uint8_t *priv,
                       size_t privlen, const uint8_t *seed)
{
    uint8_t buf[8192];
    size_t n = 0;
    const uint8_t *vals[3] = { pub, priv, seed };
    size_t lens[3] = { publen, privlen, 64 };
    for (int i = 0; i < 3; i++) {
        if (!(flags & (1u << i)))
            continue;
        buf[n++] = (uint8_t)(lens[i] >> 8);
        buf[n++] = (uint8_t)lens[i];
        memcpy(buf + n, vals[i], lens[i]);
        n += lens[i];
    }
    put("fromdata", name, (uint8_t)v, 2, (uint8_t)flags, buf, n);
}

static void gen_fromdata_kem(test_env *e)
{
    static const uint8_t kem_seed[64] = { 0xf0, 0x0d };
    static const uint8_t kem_ikme[32] = { 0x1c, 0xe0 };
    uint8_t seed[64];
    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)i;
    for (int v = 0; v < HARD_NALGS; v++) {
        const hard_alg *a = &hard_algs[v];
        EVP_PKEY *k = hard_keygen(e, a, a->hybrid ? NULL : seed);
        EVP_PKEY *kk = hard_keygen(e, a, a->hybrid ? NULL : kem_seed);
        uint8_t pub[1700], dk[3168], ct[1700], ss[80];
        size_t publen = 0, dklen = 0, ctlen = sizeof(ct), sslen = sizeof(ss);
        char name[128];
        if (k == NULL || kk == NULL || !hard_get_pub(k, pub, sizeof(pub), &publen)) {
            TEST_FAIL("%s", a->name);
            EVP_PKEY_free(k);
            EVP_PKEY_free(kk);
            continue;
        }
        if (!a->hybrid
            && EVP_PKEY_get_octet_string_param(k, "priv", dk, sizeof(dk),
                                               &dklen) == 1) {
            snprintf(name, sizeof(name), "seed-%s", a->name);
            put_params(name, v, 4, NULL, 0, NULL, 0, seed);
            snprintf(name, sizeof(name), "pub-%s", a->name);
            put_params(name, v, 1 | 8, pub, publen, NULL, 0, NULL);
            snprintf(name, sizeof(name), "priv-%s", a->name);
            put_params(name, v, 2, NULL, 0, dk, dklen, NULL);
            snprintf(name, sizeof(name), "seed-priv-%s", a->name);
            put_params(name, v, 6, NULL, 0, dk, dklen, seed);
            snprintf(name, sizeof(name), "all-%s", a->name);
            put_params(name, v, 7, pub, publen, dk, dklen, seed);
        }
        /* kem/: encapsulation to this public key; decapsulation of the
         * fuzz target's own valid ciphertext (pure sets) or of a
         * ciphertext to another key pair (hybrids). */
        snprintf(name, sizeof(name), "encaps-%s", a->name);
        put("kem", name, (uint8_t)v, 2, 0, pub, publen);
        if (hard_encaps(e, kk, a->hybrid ? NULL : kem_ikme, ct, &ctlen, ss,
                        &sslen)) {
            snprintf(name, sizeof(name), "decaps-%s", a->name);
            put("kem", name, (uint8_t)v, 2, 1, ct, ctlen);
        } else {
            TEST_FAIL("%s", a->name);
        }
        OPENSSL_cleanse(dk, sizeof(dk));
        EVP_PKEY_free(k);
        EVP_PKEY_free(kk);
    }
}

/* Move what is pending in a memory BIO into buf; returns its length. */
static size_t drain(BIO *b, uint8_t *buf, size_t cap)
{
    int n = BIO_read(b, buf, (int)cap);
    return n > 0 ? (size_t)n : 0;
}

static void gen_tls(void)
{
    tls_env env;
    SSL_CTX *sctx;
    static uint8_t buf[1 << 16];

    if (tls_env_init(&env, moddir) != 0) {
        TEST_FAIL("%s", "tls_env_init");
        return;
    }
    sctx = tls_server_ctx(&env, NULL,
                          "X25519MLKEM768:SecP256r1MLKEM768:SecP384r1MLKEM1024:"
                          "MLKEM512:MLKEM768:MLKEM1024");
    for (int g = 0; g < TLS_NGROUPS; g++) {
        SSL_CTX *cctx = tls_client_ctx(&env, NULL, tls_group_names[g]);
        tls_pair p;
        size_t n;
        char name[64];
        if (sctx == NULL || cctx == NULL || tls_pair_new(&p, cctx, sctx) != 0) {
            TEST_FAIL("%s", "tls setup");
            SSL_CTX_free(cctx);
            continue;
        }
        /* Client's first flight, then the server's answer to it. */
        SSL_do_handshake(p.client);
        n = drain(p.c2s, buf, sizeof(buf));
        snprintf(name, sizeof(name), "clienthello-%s", tls_group_names[g]);
        put("tls_server", name, 0, 0, 0, buf, n);
        BIO_write(p.c2s, buf, (int)n);
        SSL_do_handshake(p.server);
        n = drain(p.s2c, buf, sizeof(buf));
        snprintf(name, sizeof(name), "serverflight-%s", tls_group_names[g]);
        put("tls_client", name, (uint8_t)g, 1, 0, buf, n);
        if (n == 0)
            TEST_FAIL("%s", name);
        tls_pair_free(&p);
        SSL_CTX_free(cctx);
    }
    SSL_CTX_free(sctx);
    tls_env_free(&env);
}

int main(int argc, char **argv)
{
    test_env e;
    if (argc != 3) {
        fprintf(stderr, "usage: %s <provider dir> <corpus dir>\n", argv[0]);
        return 2;
    }
    moddir = argv[1];
    outdir = argv[2];
    if (!test_env_open(&e, moddir, NULL))
        return test_finish("gen_corpus");
    gen_decode();
    gen_fromdata_kem(&e);
    gen_tls();
    test_env_close(&e);
    printf("corpus written to %s\n", outdir);
    return test_finish("gen_corpus");
}
