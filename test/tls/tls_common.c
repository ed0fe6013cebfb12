/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tls_common.c: see tls_common.h.
 */
#include "test/tls/tls_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

#include "test/common/test_util.h"

const char *const tls_group_names[TLS_NGROUPS] = {
    "X25519MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024",
    "MLKEM512",       "MLKEM768",          "MLKEM1024",
};
const unsigned int tls_group_ids[TLS_NGROUPS] = {
    0x11EC, 0x11EB, 0x11ED, 0x0200, 0x0201, 0x0202,
};

void tls_print_errors(const char *what)
{
    unsigned long e;
    const char *file, *func, *data;
    int line, flags;
    char buf[256];

    while ((e = ERR_get_error_all(&file, &line, &func, &data, &flags)) != 0) {
        ERR_error_string_n(e, buf, sizeof(buf));
        fprintf(stderr, "  %s: %s (%s:%d %s)%s%s\n", what, buf, file, line,
                func, (flags & ERR_TXT_STRING) ? " " : "",
                (flags & ERR_TXT_STRING) ? data : "");
    }
}

const char *tls_provider_dir(int argc, char **argv)
{
    static char path[4096];
    const char *dir = argc > 1 ? argv[1] : getenv("MLKEM_PROVIDER_DIR");
    struct stat st;

    if (dir == NULL || *dir == '\0')
        test_skip("no provider directory (argv[1] or MLKEM_PROVIDER_DIR)");
    snprintf(path, sizeof(path), "%s/mlkem.so", dir);
    if (stat(path, &st) != 0)
        test_skip("%s does not exist (provider not built)", path);
    return dir;
}

/* The name is built separately and set as subject and issuer: OpenSSL 4.0's
 * X509_get_subject_name returns a const name that cannot be edited in
 * place. */
static X509 *self_signed(OSSL_LIB_CTX *libctx, EVP_PKEY *key)
{
    X509 *x = X509_new_ex(libctx, NULL);
    X509_NAME *name = X509_NAME_new();

    if (x == NULL || name == NULL
        || !X509_set_version(x, X509_VERSION_3)
        || !ASN1_INTEGER_set(X509_get_serialNumber(x), 1)
        || X509_gmtime_adj(X509_getm_notBefore(x), -3600) == NULL
        || X509_gmtime_adj(X509_getm_notAfter(x), 86400) == NULL
        || !X509_set_pubkey(x, key)
        || !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                       (const unsigned char *)"localhost", -1, -1, 0)
        || !X509_set_subject_name(x, name)
        || !X509_set_issuer_name(x, name)
        || X509_sign(x, key, EVP_sha256()) <= 0) {
        X509_NAME_free(name);
        X509_free(x);
        return NULL;
    }
    X509_NAME_free(name);
    return x;
}

int tls_env_init(tls_env *env, const char *provider_dir)
{
    /* MLKEM_TLS_CONF: an openssl.cnf loaded into the context first, so that
     * the mlkem instance loaded after it is the one it configured (OpenSSL
     * finds a provider by name before it creates one): the provider's
     * options (decoders = no) under the same handshakes. */
    const char *conf = getenv("MLKEM_TLS_CONF");
    const char *want = getenv("MLKEM_TLS_EXPECT_DECODERS");

    memset(env, 0, sizeof(*env));
    if (!test_env_open(&env->base, provider_dir,
                       conf != NULL && conf[0] != '\0' ? conf : NULL))
        return -1;
    /* MLKEM_TLS_EXPECT_DECODERS=N: fail unless mlkem offers N decoders in
     * this context (the configuration above took effect). */
    if (want != NULL && want[0] != '\0') {
        const int n = test_provider_decoders(env->base.libctx, "mlkem");
        if (!TEST_CHECK(n == atoi(want),
                        "mlkem offers %d decoders here, expected %s", n, want))
            return -1;
        printf("mlkem decoders in this context: %d, as expected\n", n);
    }
    if ((env->key = EVP_PKEY_Q_keygen(env->base.libctx, NULL, "EC", "P-256")) == NULL
        || (env->cert = self_signed(env->base.libctx, env->key)) == NULL) {
        tls_print_errors("certificate");
        return -1;
    }
    return 0;
}

void tls_env_free(tls_env *env)
{
    X509_free(env->cert);
    EVP_PKEY_free(env->key);
    test_env_close(&env->base);
    memset(env, 0, sizeof(*env));
}

static SSL_CTX *ctx_common(tls_env *env, const char *propq, const char *groups,
                           const SSL_METHOD *method)
{
    SSL_CTX *ctx = SSL_CTX_new_ex(env->base.libctx, propq, method);

    if (ctx == NULL) {
        tls_print_errors("SSL_CTX_new_ex");
        return NULL;
    }
    if (!SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION)
        || !SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION)
        || (groups != NULL && !SSL_CTX_set1_groups_list(ctx, groups))) {
        fprintf(stderr, "cannot configure SSL_CTX (groups %s)\n",
                groups != NULL ? groups : "(default)");
        tls_print_errors("SSL_CTX");
        SSL_CTX_free(ctx);
        return NULL;
    }
    SSL_CTX_set_num_tickets(ctx, 0);
    return ctx;
}

SSL_CTX *tls_server_ctx(tls_env *env, const char *propq, const char *groups)
{
    SSL_CTX *ctx = ctx_common(env, propq, groups, TLS_server_method());

    if (ctx != NULL
        && (SSL_CTX_use_certificate(ctx, env->cert) != 1
            || SSL_CTX_use_PrivateKey(ctx, env->key) != 1)) {
        tls_print_errors("server certificate");
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

SSL_CTX *tls_client_ctx(tls_env *env, const char *propq, const char *groups)
{
    SSL_CTX *ctx = ctx_common(env, propq, groups, TLS_client_method());

    if (ctx != NULL)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    return ctx;
}

int tls_pair_new(tls_pair *p, SSL_CTX *cctx, SSL_CTX *sctx)
{
    memset(p, 0, sizeof(*p));
    if ((p->client = SSL_new(cctx)) == NULL || (p->server = SSL_new(sctx)) == NULL
        || (p->c2s = BIO_new(BIO_s_mem())) == NULL
        || (p->s2c = BIO_new(BIO_s_mem())) == NULL) {
        tls_print_errors("SSL_new");
        SSL_free(p->client);
        SSL_free(p->server);
        BIO_free(p->c2s);
        BIO_free(p->s2c);
        memset(p, 0, sizeof(*p));
        return -1;
    }
    /* Empty reads are "retry", not EOF. */
    BIO_set_mem_eof_return(p->c2s, -1);
    BIO_set_mem_eof_return(p->s2c, -1);
    /* Each BIO has two users; SSL_set_bio takes one reference per call. */
    BIO_up_ref(p->c2s);
    BIO_up_ref(p->s2c);
    SSL_set_bio(p->client, p->s2c, p->c2s);
    SSL_set_bio(p->server, p->c2s, p->s2c);
    SSL_set_connect_state(p->client);
    SSL_set_accept_state(p->server);
    return 0;
}

void tls_pair_free(tls_pair *p)
{
    /* SSL_free releases the BIO references taken by SSL_set_bio. */
    SSL_free(p->client);
    SSL_free(p->server);
    memset(p, 0, sizeof(*p));
}

static int step(SSL *s, int *done)
{
    int r, e;

    if (*done)
        return 1;
    r = SSL_do_handshake(s);
    if (r == 1) {
        *done = 1;
        return 1;
    }
    e = SSL_get_error(s, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
}

int tls_pair_handshake(tls_pair *p)
{
    int cdone = 0, sdone = 0, round;

    for (round = 0; round < 64 && !(cdone && sdone); round++) {
        if (!step(p->client, &cdone) || !step(p->server, &sdone))
            return 0;
    }
    return cdone && sdone;
}

const char *tls_negotiated_group(SSL *s)
{
    int nid = SSL_get_negotiated_group(s);
    const char *name;

    if (nid == NID_undef)
        return "(none)";
    name = SSL_group_to_name(s, nid);
    return name != NULL ? name : "(unnamed)";
}
