/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tls_common.h: helpers for the in-process TLS tests and the handshake
 * benchmark loop (test/tls/).
 *
 *   - a library context with the default provider and, optionally, ours
 *     (mlkem.so from a given directory);
 *   - a throw-away self-signed ECDSA P-256 certificate;
 *   - TLS 1.3-only client and server SSL_CTXs with a group list;
 *   - a client/server pair over memory BIOs and a handshake driver.
 *
 * Everything runs in one process: no sockets, no files, no timeouts needed
 * (the driver gives up after a fixed number of rounds).
 */
#ifndef MLKEM_TEST_TLS_COMMON_H
#define MLKEM_TEST_TLS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "test/common/test_util.h"

/* The six groups, in capabilities.c order. */
#define TLS_NGROUPS 6
extern const char *const tls_group_names[TLS_NGROUPS];
extern const unsigned int tls_group_ids[TLS_NGROUPS];

/* test/common's environment, plus the server's credentials. */
typedef struct {
    test_env base;  /* libctx; mlkem NULL when not loaded */
    EVP_PKEY *key;  /* server key (P-256) */
    X509 *cert;     /* self-signed, CN=localhost */
} tls_env;

/* The provider directory from argv[1] or env MLKEM_PROVIDER_DIR; skips the
 * test (exit 77) with a message when neither names a directory holding
 * mlkem.so. */
const char *tls_provider_dir(int argc, char **argv);

/* test_env_open(&env->base, provider_dir, $MLKEM_TLS_CONF): a new library
 * context with "default" and, if provider_dir != NULL, "mlkem" loaded from
 * there; plus the certificate. 0 on success, -1 after a counted failure. */
int tls_env_init(tls_env *env, const char *provider_dir);
void tls_env_free(tls_env *env);

/* TLS 1.3-only SSL_CTXs in env->libctx with propq (may be NULL), group list
 * `groups` (NULL: library default), no session tickets. NULL on error (with
 * a message). The server has env's certificate; the client does not verify
 * it (the tests are about key exchange). */
SSL_CTX *tls_server_ctx(tls_env *env, const char *propq, const char *groups);
SSL_CTX *tls_client_ctx(tls_env *env, const char *propq, const char *groups);

/* A connected pair: client writes into c2s, reads s2c; server the reverse. */
typedef struct {
    SSL *client;
    SSL *server;
    BIO *c2s;
    BIO *s2c;
} tls_pair;

int tls_pair_new(tls_pair *p, SSL_CTX *cctx, SSL_CTX *sctx);
void tls_pair_free(tls_pair *p);

/* Drive both ends until both finish (1), one fails (0), or no progress in
 * 64 rounds (0). */
int tls_pair_handshake(tls_pair *p);

/* Name of the negotiated group as libssl reports it (SSL_group_to_name of
 * SSL_get_negotiated_group), or "(none)". */
const char *tls_negotiated_group(SSL *s);

/* Print and clear the OpenSSL error queue, prefixed by `what`. */
void tls_print_errors(const char *what);

#endif /* MLKEM_TEST_TLS_COMMON_H */
