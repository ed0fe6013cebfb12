/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem_evp.c: ML-KEM through the plain OpenSSL 3 EVP API, with the mlkem
 * provider. Works the same on OpenSSL 3.0 and later; copy freely.
 *
 *   mlkem_evp [--provider-path DIR]                      demo (see below)
 *   mlkem_evp [--provider-path DIR] encap PUB.pem CT.bin SS.bin
 *   mlkem_evp [--provider-path DIR] decap PRIV.pem CT.bin SS.bin
 *
 * The provider module mlkem.so is found in DIR, else in $OPENSSL_MODULES,
 * else in OpenSSL's modules directory (`openssl version -m`).
 *
 * Demo: generate an ML-KEM-768 key pair, write it as PEM (PKCS#8 and
 * SubjectPublicKeyInfo, in memory), read both back, encapsulate to the public
 * key, decapsulate with the private key, and check both sides got the same
 * shared secret. The encap / decap modes do one side each with key files,
 * the same job as OpenSSL 3.5's `openssl pkeyutl -encap / -decap` (which 3.0
 * does not have).
 *
 * Build: cc mlkem_evp.c -lcrypto
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#define ALGORITHM "ML-KEM-768"

/* Print the OpenSSL error queue and fail. */
static int fail(const char *what)
{
    fprintf(stderr, "mlkem_evp: %s failed\n", what);
    ERR_print_errors_fp(stderr);
    return 0;
}

/*
 * Load mlkem and default into the default library context. Loading any
 * provider explicitly turns off the implicit default provider, and we need
 * it for PEM handling and random numbers, so load it too. On OpenSSL 3.5+
 * the default provider has its own ML-KEM: prefer ours with a default
 * property query ("?" = preference, so default's PEM decoders still work).
 */
static OSSL_PROVIDER *mlkem, *dflt;

static int load_providers(const char *dir)
{
    if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(NULL, dir))
        return fail("setting the provider search path");
    if ((mlkem = OSSL_PROVIDER_load(NULL, "mlkem")) == NULL)
        return fail("loading the mlkem provider");
    if ((dflt = OSSL_PROVIDER_load(NULL, "default")) == NULL)
        return fail("loading the default provider");
    if (!EVP_set_default_properties(NULL, "?provider=mlkem"))
        return fail("setting the default property query");
    printf("providers: %s, %s (OpenSSL %s)\n", OSSL_PROVIDER_get0_name(mlkem),
           OSSL_PROVIDER_get0_name(dflt), OpenSSL_version(OPENSSL_VERSION_STRING));
    return 1;
}

/* Who implements this key: "mlkem" for our provider. */
static const char *provider_of(const EVP_PKEY *pkey)
{
    const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(pkey);

    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "?";
}

static EVP_PKEY *generate(const char *alg)
{
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0
        || EVP_PKEY_generate(ctx, &pkey) <= 0)
        fail("key generation");
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* Encapsulate to pub: allocates *ct and *ss (free with OPENSSL_free /
 * OPENSSL_clear_free). */
static int encapsulate(EVP_PKEY *pub, unsigned char **ct, size_t *ctlen,
                       unsigned char **ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pub, NULL);
    int ok = 0;

    *ct = *ss = NULL;
    if (ctx == NULL || EVP_PKEY_encapsulate_init(ctx, NULL) <= 0
        /* first call: ask for the sizes */
        || EVP_PKEY_encapsulate(ctx, NULL, ctlen, NULL, sslen) <= 0
        || (*ct = OPENSSL_malloc(*ctlen)) == NULL
        || (*ss = OPENSSL_malloc(*sslen)) == NULL
        || EVP_PKEY_encapsulate(ctx, *ct, ctlen, *ss, sslen) <= 0) {
        fail("encapsulation");
        goto end;
    }
    ok = 1;
end:
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int decapsulate(EVP_PKEY *priv, const unsigned char *ct, size_t ctlen,
                       unsigned char **ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, priv, NULL);
    int ok = 0;

    *ss = NULL;
    if (ctx == NULL || EVP_PKEY_decapsulate_init(ctx, NULL) <= 0
        || EVP_PKEY_decapsulate(ctx, NULL, sslen, ct, ctlen) <= 0
        || (*ss = OPENSSL_malloc(*sslen)) == NULL
        || EVP_PKEY_decapsulate(ctx, *ss, sslen, ct, ctlen) <= 0) {
        fail("decapsulation");
        goto end;
    }
    ok = 1;
end:
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

/* ---- Demo ------------------------------------------------------------------ */

static int demo(void)
{
    EVP_PKEY *key = NULL, *pub = NULL, *priv = NULL;
    BIO *priv_pem = BIO_new(BIO_s_mem()), *pub_pem = BIO_new(BIO_s_mem());
    unsigned char *ct = NULL, *ss1 = NULL, *ss2 = NULL;
    size_t ctlen = 0, sslen1 = 0, sslen2 = 0;
    char *text;
    long len;
    int ok = 0;

    if (priv_pem == NULL || pub_pem == NULL
        || (key = generate(ALGORITHM)) == NULL)
        goto end;
    printf("generated %s key pair (provider %s, %d bits security)\n",
           EVP_PKEY_get0_type_name(key), provider_of(key),
           EVP_PKEY_get_security_bits(key));

    /* PEM out: PKCS#8 "PRIVATE KEY" and SubjectPublicKeyInfo "PUBLIC KEY". */
    if (!PEM_write_bio_PrivateKey(priv_pem, key, NULL, NULL, 0, NULL, NULL)
        || !PEM_write_bio_PUBKEY(pub_pem, key)) {
        fail("PEM writing");
        goto end;
    }
    len = BIO_get_mem_data(priv_pem, &text);
    printf("private key: %ld bytes of PEM (not shown)\n", len);
    len = BIO_get_mem_data(pub_pem, &text);
    printf("public key:\n%.*s", (int)len, text);

    /* PEM in: what a peer would do with the files. */
    if ((priv = PEM_read_bio_PrivateKey(priv_pem, NULL, NULL, NULL)) == NULL
        || (pub = PEM_read_bio_PUBKEY(pub_pem, NULL, NULL, NULL)) == NULL) {
        fail("PEM reading");
        goto end;
    }

    if (!encapsulate(pub, &ct, &ctlen, &ss1, &sslen1))
        goto end;
    printf("encapsulated to the public key: ciphertext %zu bytes, "
           "shared secret %zu bytes\n", ctlen, sslen1);
    if (!decapsulate(priv, ct, ctlen, &ss2, &sslen2))
        goto end;
    printf("decapsulated with the private key: shared secret %zu bytes\n",
           sslen2);
    if (sslen1 != sslen2 || CRYPTO_memcmp(ss1, ss2, sslen1) != 0) {
        fprintf(stderr, "mlkem_evp: the shared secrets differ\n");
        goto end;
    }
    printf("OK: both sides hold the same shared secret\n");
    ok = 1;
end:
    OPENSSL_clear_free(ss1, sslen1);
    OPENSSL_clear_free(ss2, sslen2);
    OPENSSL_free(ct);
    EVP_PKEY_free(key);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
    BIO_free(priv_pem);
    BIO_free(pub_pem);
    return ok;
}

/* ---- encap / decap with files ------------------------------------------------ */

static EVP_PKEY *read_key(const char *path, int private_key)
{
    BIO *in = BIO_new_file(path, "r");
    EVP_PKEY *pkey = NULL;

    if (in == NULL) {
        fail(path);
        return NULL;
    }
    pkey = private_key ? PEM_read_bio_PrivateKey(in, NULL, NULL, NULL)
                       : PEM_read_bio_PUBKEY(in, NULL, NULL, NULL);
    if (pkey == NULL)
        fail(private_key ? "reading the private key" : "reading the public key");
    BIO_free(in);
    return pkey;
}

static int write_file(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f != NULL && fwrite(b, 1, n, f) == n;

    if (f != NULL && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "mlkem_evp: cannot write %s\n", path);
    return ok;
}

/* Read a whole (small) file; *n is its length. */
static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long len;

    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0
        || fseek(f, 0, SEEK_SET) != 0
        || (b = OPENSSL_malloc(len > 0 ? (size_t)len : 1)) == NULL
        || fread(b, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "mlkem_evp: cannot read %s\n", path);
        OPENSSL_free(b);
        b = NULL;
    } else {
        *n = (size_t)len;
    }
    if (f != NULL)
        fclose(f);
    return b;
}

static int encap_files(const char *pub_path, const char *ct_path,
                       const char *ss_path)
{
    EVP_PKEY *pub = read_key(pub_path, 0);
    unsigned char *ct = NULL, *ss = NULL;
    size_t ctlen = 0, sslen = 0;
    int ok = pub != NULL && encapsulate(pub, &ct, &ctlen, &ss, &sslen)
             && write_file(ct_path, ct, ctlen) && write_file(ss_path, ss, sslen);

    if (ok)
        printf("encap: %s key (provider %s): %zu-byte ciphertext -> %s, "
               "%zu-byte secret -> %s\n", EVP_PKEY_get0_type_name(pub),
               provider_of(pub), ctlen, ct_path, sslen, ss_path);
    OPENSSL_clear_free(ss, sslen);
    OPENSSL_free(ct);
    EVP_PKEY_free(pub);
    return ok;
}

static int decap_files(const char *priv_path, const char *ct_path,
                       const char *ss_path)
{
    EVP_PKEY *priv = read_key(priv_path, 1);
    unsigned char *ct = NULL, *ss = NULL;
    size_t ctlen = 0, sslen = 0;
    int ok = priv != NULL && (ct = read_file(ct_path, &ctlen)) != NULL
             && decapsulate(priv, ct, ctlen, &ss, &sslen)
             && write_file(ss_path, ss, sslen);

    if (ok)
        printf("decap: %s key (provider %s): %zu-byte secret -> %s\n",
               EVP_PKEY_get0_type_name(priv), provider_of(priv), sslen,
               ss_path);
    OPENSSL_clear_free(ss, sslen);
    OPENSSL_free(ct);
    EVP_PKEY_free(priv);
    return ok;
}

static int usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [--provider-path DIR]\n"
            "       %s [--provider-path DIR] encap PUB.pem CT.bin SS.bin\n"
            "       %s [--provider-path DIR] decap PRIV.pem CT.bin SS.bin\n",
            prog, prog, prog);
    return 2;
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    int i = 1, n, ok;

    if (i + 1 < argc && strcmp(argv[i], "--provider-path") == 0) {
        dir = argv[i + 1];
        i += 2;
    }
    n = argc - i;
    if (!(n == 0 || (n == 4 && (strcmp(argv[i], "encap") == 0
                                || strcmp(argv[i], "decap") == 0))))
        return usage(argv[0]);
    if (!load_providers(dir))
        return 1;
    if (n == 0)
        ok = demo();
    else if (strcmp(argv[i], "encap") == 0)
        ok = encap_files(argv[i + 1], argv[i + 2], argv[i + 3]);
    else
        ok = decap_files(argv[i + 1], argv[i + 2], argv[i + 3]);
    /* What OSSL_PROVIDER_load gives is the caller's to unload: OpenSSL's
     * exit-time cleanup does not tear a provider down while a handle to
     * it is still held. */
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(mlkem);
    return ok ? 0 : 1;
}
