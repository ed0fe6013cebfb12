/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evp_op_loop.c: one EVP operation repeated N times, for counting what
 * libcrypto and the provider spend per call (bench/evp_instructions.sh runs
 * it under valgrind's callgrind, collecting only the op_* functions).
 *
 * Usage: evp_op_loop MODULE_DIR|- PROVIDER ALG OP N [VERSION]
 *   MODULE_DIR  folder holding mlkem.so ("-": do not load it)
 *   PROVIDER    the property query's provider ("mlkem", "default")
 *   ALG         ML-KEM-512/768/1024, a hybrid, or X25519 (a comparison
 *               point: its "encaps" ops are derive_init / derive)
 *   OP          ctx_pkey   EVP_PKEY_CTX_new_from_pkey + _free
 *               ctx_name   EVP_PKEY_CTX_new_from_name + _free
 *               encaps_init  ctx_pkey + EVP_PKEY_encapsulate_init
 *               decaps_init  ctx_pkey + EVP_PKEY_decapsulate_init
 *               encaps     ctx_pkey + init + EVP_PKEY_encapsulate
 *               decaps     ctx_pkey + init + EVP_PKEY_decapsulate
 *               keygen     ctx_name + keygen_init (+ seed) + keygen + free
 *               pub_from   the peer's public key: ctx_name + fromdata
 *               roundtrip  keygen + pub_from + encaps + decaps + 2 frees
 *                          (bench_kem.cc's evp_*\/kem_roundtrip); for
 *                          X25519 both sides' keygen + pub_from + derive
 *               all        each of the above once per round (a smoke test)
 *   VERSION     "3.0", "3.5", ...: the libcrypto this run must be on (exit
 *               77, a skip, when it is another: the 3.5 run takes its
 *               library from LD_LIBRARY_PATH)
 * Every op is the same sequence of calls as bench/bench_kem.cc's evp_*
 * benchmarks. Exit status 0, or 1 with a message when a call fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov_default, *prov_mlkem;
static char propq[64];
static const char *alg;
static int is_kem; /* ML-KEM or a hybrid: encapsulate; else derive */
static unsigned char seed[64];

#define NOINLINE __attribute__((noinline))

static void die(const char *what)
{
    fprintf(stderr, "evp_op_loop: %s failed\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

static NOINLINE EVP_PKEY *keygen(void)
{
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, propq);
    OSSL_PARAM params[2];

    params[0] = OSSL_PARAM_construct_octet_string("seed", seed, 64);
    params[1] = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0
        || (strncmp(alg, "ML-KEM", 6) == 0
            && EVP_PKEY_CTX_set_params(ctx, params) <= 0)
        || EVP_PKEY_keygen(ctx, &pkey) <= 0)
        die("keygen");
    EVP_PKEY_CTX_free(ctx);
    seed[0]++;
    return pkey;
}

static NOINLINE EVP_PKEY *pub_from(EVP_PKEY *priv)
{
    unsigned char ek[2048];
    size_t eklen = 0;
    EVP_PKEY *pub = NULL;
    EVP_PKEY_CTX *ctx;
    OSSL_PARAM params[2];

    if (!EVP_PKEY_get_octet_string_param(priv, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
                                         ek, sizeof(ek), &eklen))
        die("get encoded-pub-key");
    ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, propq);
    params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, ek,
                                                  eklen);
    params[1] = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0
        || EVP_PKEY_fromdata(ctx, &pub, EVP_PKEY_PUBLIC_KEY, params) <= 0)
        die("fromdata");
    EVP_PKEY_CTX_free(ctx);
    return pub;
}

static NOINLINE void op_ctx_pkey(EVP_PKEY *k)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, k, propq);

    if (ctx == NULL)
        die("EVP_PKEY_CTX_new_from_pkey");
    EVP_PKEY_CTX_free(ctx);
}

static NOINLINE void op_ctx_name(void)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, propq);

    if (ctx == NULL)
        die("EVP_PKEY_CTX_new_from_name");
    EVP_PKEY_CTX_free(ctx);
}

static NOINLINE void op_init(EVP_PKEY *k, int encaps)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, k, propq);
    int ok;

    if (ctx == NULL)
        die("EVP_PKEY_CTX_new_from_pkey");
    if (!is_kem)
        ok = EVP_PKEY_derive_init(ctx);
    else if (encaps)
        ok = EVP_PKEY_encapsulate_init(ctx, NULL);
    else
        ok = EVP_PKEY_decapsulate_init(ctx, NULL);
    if (ok <= 0)
        die("init");
    EVP_PKEY_CTX_free(ctx);
}

static NOINLINE void op_encaps(EVP_PKEY *pub, EVP_PKEY *priv,
                               unsigned char *c, size_t *clen,
                               unsigned char *K)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, pub, propq);
    size_t kl = 64;

    if (ctx == NULL)
        die("EVP_PKEY_CTX_new_from_pkey");
    if (is_kem) {
        if (EVP_PKEY_encapsulate_init(ctx, NULL) <= 0
            || EVP_PKEY_encapsulate(ctx, c, clen, K, &kl) <= 0)
            die("encapsulate");
    } else if (EVP_PKEY_derive_init(ctx) <= 0
               || EVP_PKEY_derive_set_peer(ctx, priv) <= 0
               || EVP_PKEY_derive(ctx, K, &kl) <= 0) {
        die("derive");
    }
    EVP_PKEY_CTX_free(ctx);
}

static NOINLINE void op_decaps(EVP_PKEY *priv, EVP_PKEY *pub,
                               const unsigned char *c, size_t clen,
                               unsigned char *K)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, priv, propq);
    size_t kl = 64;

    if (ctx == NULL)
        die("EVP_PKEY_CTX_new_from_pkey");
    if (is_kem) {
        if (EVP_PKEY_decapsulate_init(ctx, NULL) <= 0
            || EVP_PKEY_decapsulate(ctx, K, &kl, c, clen) <= 0)
            die("decapsulate");
    } else if (EVP_PKEY_derive_init(ctx) <= 0
               || EVP_PKEY_derive_set_peer(ctx, pub) <= 0
               || EVP_PKEY_derive(ctx, K, &kl) <= 0) {
        die("derive");
    }
    EVP_PKEY_CTX_free(ctx);
}

static NOINLINE void op_keygen(void)
{
    EVP_PKEY_free(keygen());
}

static NOINLINE void op_pub_from(EVP_PKEY *priv)
{
    EVP_PKEY_free(pub_from(priv));
}

static NOINLINE void op_roundtrip(void)
{
    unsigned char c[2048], K[64], K2[64];
    size_t clen = sizeof(c);
    EVP_PKEY *k = keygen(), *kp = pub_from(k);

    if (is_kem) {
        op_encaps(kp, k, c, &clen, K);
        op_decaps(k, kp, c, clen, K2);
    } else {
        /* Both sides' keys, each received as a public key, two derives. */
        EVP_PKEY *s = keygen(), *sp = pub_from(s);

        op_encaps(s, kp, c, &clen, K);
        op_decaps(k, sp, c, clen, K2);
        EVP_PKEY_free(sp);
        EVP_PKEY_free(s);
    }
    if (memcmp(K, K2, 32) != 0)
        die("shared secret comparison");
    EVP_PKEY_free(kp);
    EVP_PKEY_free(k);
}

int main(int argc, char **argv)
{
    EVP_PKEY *priv, *pub;
    unsigned char c[2048], K[64];
    size_t clen = sizeof(c), ctlen;
    const char *op;
    long n;

    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: evp_op_loop MODULE_DIR|- PROVIDER ALG OP N "
                        "[VERSION]\n");
        return 2;
    }
    if (argc == 7) {
        unsigned long v = OpenSSL_version_num();
        char running[16];

        snprintf(running, sizeof(running), "%lu.%lu", (v >> 28) & 0xF,
                 (v >> 20) & 0xFF);
        if (strcmp(running, argv[6]) != 0) {
            fprintf(stderr, "evp_op_loop: running on OpenSSL %s, not %s\n",
                    running, argv[6]);
            return 77;
        }
    }
    alg = argv[3];
    op = argv[4];
    n = strtol(argv[5], NULL, 10);
    is_kem = strcmp(alg, "X25519") != 0 && strcmp(alg, "X448") != 0;
    snprintf(propq, sizeof(propq), "provider=%s", argv[2]);
    for (int i = 0; i < 64; i++)
        seed[i] = (unsigned char)i;
    if ((libctx = OSSL_LIB_CTX_new()) == NULL)
        die("OSSL_LIB_CTX_new");
    if (strcmp(argv[1], "-") != 0)
        OSSL_PROVIDER_set_default_search_path(libctx, argv[1]);
    if ((prov_default = OSSL_PROVIDER_load(libctx, "default")) == NULL)
        die("loading default");
    if (strcmp(argv[1], "-") != 0
        && (prov_mlkem = OSSL_PROVIDER_load(libctx, "mlkem")) == NULL)
        die("loading mlkem");

    /* Warm-up, outside the counted functions: first fetches, the DRBGs. */
    priv = keygen();
    pub = is_kem ? pub_from(priv) : keygen();
    op_encaps(pub, priv, c, &clen, K);
    ctlen = clen; /* the ciphertext that decaps takes */
    op_roundtrip();

    for (long i = 0; i < n; i++) {
        int all = strcmp(op, "all") == 0;

        if (all) {
            op_ctx_pkey(priv);
            op_ctx_name();
            op_init(pub, 1);
            op_init(priv, 0);
            op_encaps(pub, priv, c, &clen, K);
            op_decaps(priv, pub, c, ctlen, K);
            op_keygen();
            op_pub_from(priv);
            op_roundtrip();
        } else if (strcmp(op, "ctx_pkey") == 0)
            op_ctx_pkey(priv);
        else if (strcmp(op, "ctx_name") == 0)
            op_ctx_name();
        else if (strcmp(op, "encaps_init") == 0)
            op_init(pub, 1);
        else if (strcmp(op, "decaps_init") == 0)
            op_init(priv, 0);
        else if (strcmp(op, "encaps") == 0)
            op_encaps(pub, priv, c, &clen, K);
        else if (strcmp(op, "decaps") == 0)
            op_decaps(priv, pub, c, ctlen, K);
        else if (strcmp(op, "keygen") == 0)
            op_keygen();
        else if (strcmp(op, "pub_from") == 0)
            op_pub_from(priv);
        else if (strcmp(op, "roundtrip") == 0)
            op_roundtrip();
        else {
            fprintf(stderr, "evp_op_loop: unknown op %s\n", op);
            return 2;
        }
        clen = sizeof(c);
    }
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
    if (prov_mlkem != NULL)
        OSSL_PROVIDER_unload(prov_mlkem);
    OSSL_PROVIDER_unload(prov_default);
    OSSL_LIB_CTX_free(libctx);
    return 0;
}
