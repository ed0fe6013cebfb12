/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_capabilities.c: the TLS-GROUP capability table, read the way libssl
 * reads it (OSSL_PROVIDER_get_capabilities), checked parameter by parameter:
 * name, exact type, value. A single wrong type makes every SSL_CTX_new fail
 * on OpenSSL 3.0 (ssl/t1_lib.c add_provider_groups), hence this test.
 *
 * On a 3.5+ runtime (the same binary run with LD_LIBRARY_PATH pointing at
 * OpenSSL 3.5) the provider must announce no group (capabilities.c explains
 * why) while libssl still knows all six names from its built-in groups.
 *
 * Usage: test_capabilities <provider dir>
 */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

#include "test/common/test_util.h"
#include "test/tls/tls_common.h"

typedef struct {
    const char *name, *alg;
    unsigned int id, secbits;
} expected_group;

/* The specification of the table: IANA codepoints (docs/tls.md, "The
 * groups"), OpenSSL 3.5's algorithm names and security bits (3.5's
 * include/internal/tlsgroups.h and its TLS-GROUP capability: 128 for
 * MLKEM512, 192 for the 768 groups, 256 for the 1024 ones). */
static const expected_group expected[TLS_NGROUPS] = {
    {"X25519MLKEM768", "X25519MLKEM768", 0x11EC, 192},
    {"SecP256r1MLKEM768", "SecP256r1MLKEM768", 0x11EB, 192},
    {"SecP384r1MLKEM1024", "SecP384r1MLKEM1024", 0x11ED, 256},
    {"MLKEM512", "ML-KEM-512", 0x0200, 128},
    {"MLKEM768", "ML-KEM-768", 0x0201, 192},
    {"MLKEM1024", "ML-KEM-1024", 0x0202, 256},
};

typedef struct {
    int count;
} cb_state;

static const OSSL_PARAM *find(const OSSL_PARAM *params, const char *key, int *n)
{
    const OSSL_PARAM *p, *hit = NULL;

    *n = 0;
    for (p = params; p->key != NULL; p++)
        if (strcmp(p->key, key) == 0) {
            (*n)++;
            hit = p;
        }
    return hit;
}

static int check_utf8(const OSSL_PARAM *params, const char *key, const char *want,
                      const char *group)
{
    int n;
    const OSSL_PARAM *p = find(params, key, &n);

    if (n != 1 || p->data_type != OSSL_PARAM_UTF8_STRING || p->data == NULL
        || strlen((const char *)p->data) != p->data_size
        || strcmp((const char *)p->data, want) != 0) {
        TEST_CHECK(0, "%s: %s: want UTF8 \"%s\" once; got %d entries, type %u, value \"%s\"",
                   group, key, want, n, p != NULL ? p->data_type : 0,
                   p != NULL && p->data_type == OSSL_PARAM_UTF8_STRING && p->data != NULL
                      ? (const char *)p->data : "?");
        return 0;
    }
    return 1;
}

static int check_uint(const OSSL_PARAM *params, const char *key, unsigned int want,
                      const char *group)
{
    int n;
    const OSSL_PARAM *p = find(params, key, &n);

    if (n != 1 || p->data_type != OSSL_PARAM_UNSIGNED_INTEGER
        || p->data_size != sizeof(unsigned int)
        || *(const unsigned int *)p->data != want) {
        TEST_CHECK(0, "%s: %s: want unsigned int %u once; got %d entries, type %u, size %zu, value %u",
                   group, key, want, n, p != NULL ? p->data_type : 0,
                   p != NULL ? p->data_size : 0,
                   p != NULL && p->data_size == sizeof(unsigned int)
                      ? *(const unsigned int *)p->data : 0);
        return 0;
    }
    return 1;
}

static int check_int(const OSSL_PARAM *params, const char *key, int want,
                     const char *group)
{
    int n;
    const OSSL_PARAM *p = find(params, key, &n);

    if (n != 1 || p->data_type != OSSL_PARAM_INTEGER || p->data_size != sizeof(int)
        || *(const int *)p->data != want) {
        TEST_CHECK(0, "%s: %s: want int %d once; got %d entries, type %u, size %zu, value %d",
                   group, key, want, n, p != NULL ? p->data_type : 0,
                   p != NULL ? p->data_size : 0,
                   p != NULL && p->data_size == sizeof(int) ? *(const int *)p->data : 0);
        return 0;
    }
    return 1;
}

static int group_cb(const OSSL_PARAM params[], void *arg)
{
    cb_state *st = arg;
    const expected_group *e;
    const OSSL_PARAM *p;
    int nparams = 0, ok = 1;

    if (!TEST_CHECK(st->count < TLS_NGROUPS, "more than %d groups reported", TLS_NGROUPS)) {
        st->count++;
        return 1;
    }
    e = &expected[st->count++];
    for (p = params; p->key != NULL; p++)
        nparams++;
    ok &= TEST_CHECK(nparams == 10, "%s: %d parameters, want exactly 10", e->name, nparams);
    ok &= check_utf8(params, OSSL_CAPABILITY_TLS_GROUP_NAME, e->name, e->name);
    ok &= check_utf8(params, OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, "", e->name);
    ok &= check_uint(params, OSSL_CAPABILITY_TLS_GROUP_ID, e->id, e->name);
    ok &= check_utf8(params, OSSL_CAPABILITY_TLS_GROUP_ALG, e->alg, e->name);
    ok &= check_uint(params, OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, e->secbits, e->name);
    ok &= check_uint(params, OSSL_CAPABILITY_TLS_GROUP_IS_KEM, 1, e->name);
    ok &= check_int(params, OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, TLS1_3_VERSION, e->name);
    ok &= check_int(params, OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, 0, e->name);
    ok &= check_int(params, OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, -1, e->name);
    ok &= check_int(params, OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, -1, e->name);
    if (ok)
        printf("ok   TLS-GROUP %-19s id 0x%04X alg %-19s sec %u\n", e->name, e->id,
               e->alg, e->secbits);
    return 1;
}

static int other_cb(const OSSL_PARAM params[], void *arg)
{
    (void)params;
    ++*(int *)arg;
    return 1;
}

int main(int argc, char **argv)
{
    const char *dir = tls_provider_dir(argc, argv);
    unsigned long v = OpenSSL_version_num();
    int is35 = v >= 0x30500000UL;
    cb_state st = {0};
    tls_env env;
    int i, others = 0;

    printf("runtime %s\n", OpenSSL_version(OPENSSL_VERSION));
    if (!TEST_CHECK(tls_env_init(&env, dir) == 0, "tls_env_init"))
        return test_finish("tls_capabilities");

    TEST_CHECK(OSSL_PROVIDER_get_capabilities(env.base.mlkem, "TLS-GROUP", group_cb, &st) == 1,
               "get_capabilities(TLS-GROUP) did not return 1");
    if (is35) {
        if (TEST_CHECK(st.count == 0,
                       "OpenSSL >= 3.5: %d groups announced, want 0 (built-in groups serve "
                       "them)", st.count))
            printf("ok   OpenSSL >= 3.5: no TLS-GROUP announced\n");
    } else {
        TEST_CHECK(st.count == TLS_NGROUPS, "%d groups announced, want %d", st.count,
                   TLS_NGROUPS);
    }
    /* Unknown capabilities: answered 0 with no callback, as the default
     * provider does (3.5's libssl asks for TLS-SIGALG and ignores that). */
    TEST_CHECK(OSSL_PROVIDER_get_capabilities(env.base.mlkem, "TLS-SIGALG", other_cb, &others) == 0
                   && others == 0,
               "TLS-SIGALG: want return 0 and no callback");

    /* libssl keeps a group only if its algorithm can be fetched; ours must
     * be fetchable from our provider. */
    for (i = 0; i < TLS_NGROUPS; i++) {
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(env.base.libctx, expected[i].alg, "provider=mlkem");
        EVP_KEM *kem = EVP_KEM_fetch(env.base.libctx, expected[i].alg, "provider=mlkem");

        TEST_CHECK(km != NULL && kem != NULL, "%s: keymgmt/KEM %s not fetchable from "
                   "provider=mlkem", expected[i].name, expected[i].alg);
        EVP_KEYMGMT_free(km);
        EVP_KEM_free(kem);
    }

    /* X448MLKEM1024 is a KEM of ours (keymgmt + KEM), but no TLS group, as
     * in OpenSSL 3.5 and 4.0: libssl must not know the name. */
    {
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(env.base.libctx, "X448MLKEM1024", "provider=mlkem");
        EVP_KEM *kem = EVP_KEM_fetch(env.base.libctx, "X448MLKEM1024", "provider=mlkem");
        SSL_CTX *ctx = SSL_CTX_new_ex(env.base.libctx, NULL, TLS_method());

        TEST_CHECK(km != NULL && kem != NULL,
                   "X448MLKEM1024: keymgmt/KEM not fetchable from provider=mlkem");
        if (TEST_CHECK(ctx != NULL && SSL_CTX_set1_groups_list(ctx, "X448MLKEM1024") != 1,
                       "X448MLKEM1024 is accepted as a TLS group"))
            printf("ok   X448MLKEM1024: KEM, not a TLS group\n");
        ERR_clear_error();
        SSL_CTX_free(ctx);
        EVP_KEYMGMT_free(km);
        EVP_KEM_free(kem);
    }

    /* The table loads into libssl: SSL_CTX_new succeeds and every group
     * name is accepted alone (a config Groups line would drop it silently;
     * SSL_CTX_set1_groups_list fails loudly). */
    for (i = 0; i < TLS_NGROUPS; i++) {
        SSL_CTX *ctx = SSL_CTX_new_ex(env.base.libctx, NULL, TLS_method());

        if (!TEST_CHECK(ctx != NULL, "SSL_CTX_new_ex failed"))
            break;
        TEST_CHECK(SSL_CTX_set1_groups_list(ctx, expected[i].name) == 1,
                   "SSL_CTX_set1_groups_list(%s) failed", expected[i].name);
        SSL_CTX_free(ctx);
    }

    tls_env_free(&env);
    return test_finish("tls_capabilities");
}
