/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_tls_inproc.c: full TLS 1.3 handshakes in one process (client and
 * server SSL over memory BIOs, both in a library context with the default
 * provider and ours), one per group, each side configured with that group
 * only. Both ends must report the group by name (SSL_group_to_name of
 * SSL_get_negotiated_group) and, on 3.0, by codepoint; application data must
 * then flow both ways (proves both sides derived the same keys).
 *
 * Also: a HelloRetryRequest path (client key share for MLKEM768 first,
 * server accepts only X25519MLKEM768), a client that prefers X25519MLKEM768
 * talking to a server that lists x25519 first, and plain x25519.
 *
 * With "prefer-ours" as argv[2], every SSL_CTX uses the property query
 * "?provider=mlkem" (on OpenSSL 3.5+ this steers libssl to our keymgmt and
 * KEM instead of the built-in ones, which must still interoperate).
 *
 * Usage: test_tls_inproc <provider dir> [prefer-ours]
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

#include "test/common/test_util.h"
#include "test/tls/tls_common.h"

/* One handshake: client offers cgroups, server accepts sgroups; both must
 * agree on `want` (name; id 0 = do not check the codepoint). */
static void handshake(tls_env *env, const char *propq, const char *cgroups,
                      const char *sgroups, const char *want, unsigned int want_id)
{
    SSL_CTX *cctx = tls_client_ctx(env, propq, cgroups);
    SSL_CTX *sctx = tls_server_ctx(env, propq, sgroups);
    tls_pair p;
    const char *cg, *sg;
    char buf[16];
    int ok = 0;

    if (!TEST_CHECK(cctx != NULL && sctx != NULL && tls_pair_new(&p, cctx, sctx) == 0,
                    "%s: setup", want))
        goto end;
    if (!TEST_CHECK(tls_pair_handshake(&p), "client [%s] / server [%s]: handshake failed",
                    cgroups, sgroups)) {
        tls_pair_free(&p);
        goto end;
    }
    cg = tls_negotiated_group(p.client);
    sg = tls_negotiated_group(p.server);
    ok = TEST_CHECK(strcmp(cg, want) == 0 && strcmp(sg, want) == 0,
                    "client [%s] / server [%s]: negotiated %s / %s, want %s", cgroups,
                    sgroups, cg, sg, want)
         && TEST_CHECK(want_id == 0
                           || ((SSL_get_negotiated_group(p.client) & 0xFFFF) == (int)want_id
                               && (SSL_get_negotiated_group(p.server) & 0xFFFF)
                                      == (int)want_id),
                       "%s: codepoint 0x%04X / 0x%04X, want 0x%04X", want,
                       (unsigned)(SSL_get_negotiated_group(p.client) & 0xFFFF),
                       (unsigned)(SSL_get_negotiated_group(p.server) & 0xFFFF), want_id)
         && TEST_CHECK(SSL_write(p.client, "ping", 4) == 4 && SSL_read(p.server, buf, 16) == 4
                           && memcmp(buf, "ping", 4) == 0
                           && SSL_write(p.server, "pong", 4) == 4
                           && SSL_read(p.client, buf, 16) == 4
                           && memcmp(buf, "pong", 4) == 0,
                       "%s: application data did not flow", want);
    if (ok)
        printf("ok   client [%s] server [%s] -> %s\n", cgroups, sgroups, want);
    tls_pair_free(&p);
end:
    SSL_CTX_free(cctx);
    SSL_CTX_free(sctx);
}

int main(int argc, char **argv)
{
    const char *dir = tls_provider_dir(argc, argv);
    int prefer_ours = argc > 2 && strcmp(argv[2], "prefer-ours") == 0;
    const char *propq = prefer_ours ? "?provider=mlkem" : NULL;
    int is35 = OpenSSL_version_num() >= 0x30500000UL;
    tls_env env;
    int i;

    printf("runtime %s, property query %s\n", OpenSSL_version(OPENSSL_VERSION),
           propq != NULL ? propq : "(none)");
    if (!TEST_CHECK(tls_env_init(&env, dir) == 0, "tls_env_init"))
        return test_finish("tls_inproc");

    if (prefer_ours) {
        /* What libssl will fetch for each group's algorithm under this
         * query: ours. */
        static const char *const algs[] = {"X25519MLKEM768", "SecP256r1MLKEM768",
                                           "SecP384r1MLKEM1024", "ML-KEM-512",
                                           "ML-KEM-768", "ML-KEM-1024"};
        for (i = 0; i < TLS_NGROUPS; i++) {
            EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(env.base.libctx, algs[i], propq);
            const char *pn = km != NULL
                                 ? OSSL_PROVIDER_get0_name(EVP_KEYMGMT_get0_provider(km))
                                 : "(none)";

            TEST_CHECK(strcmp(pn, "mlkem") == 0, "%s fetched from %s, want mlkem", algs[i],
                       pn);
            EVP_KEYMGMT_free(km);
        }
    }

    for (i = 0; i < TLS_NGROUPS; i++)
        handshake(&env, propq, tls_group_names[i], tls_group_names[i], tls_group_names[i],
                  is35 ? 0 : tls_group_ids[i]);
    /* HelloRetryRequest: the client's only key share is MLKEM768. */
    handshake(&env, propq, "MLKEM768:X25519MLKEM768", "X25519MLKEM768", "X25519MLKEM768",
              0);
    /* The client's key share (X25519MLKEM768) is taken although the
     * server lists x25519 first: no extra round trip. */
    handshake(&env, propq, "X25519MLKEM768:x25519", "x25519:X25519MLKEM768",
              "X25519MLKEM768", 0);
    /* Classical groups still work with the provider loaded. */
    handshake(&env, propq, "x25519", "x25519", "x25519", 0);

    tls_env_free(&env);
    return test_finish("tls_inproc");
}
