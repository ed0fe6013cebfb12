/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_tls.c: libFuzzer targets for a TLS 1.3 server and a client, over
 * memory BIOs, fed arbitrary handshake bytes with the post-quantum groups
 * configured (X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024,
 * MLKEM512, MLKEM768, MLKEM1024; OpenSSL 3.0 has them only through mlkem).
 *
 * Compiled twice (CMake): FUZZ_TLS_SERVER builds fuzz_tls_server, else
 * fuzz_tls_client.
 *
 *   fuzz_tls_server  the input is what a client sends: it goes into a fresh
 *                    server's read BIO and the server runs its handshake
 *                    (ClientHello parsing, key share = encapsulation to an
 *                    attacker-chosen public key, alerts).
 *   fuzz_tls_client  byte 0 picks the group the client offers first (it
 *                    sends a key share for that one, the other five are
 *                    also supported, so a HelloRetryRequest can move it);
 *                    the client writes its ClientHello, then the rest of
 *                    the input arrives as the server's flight (ServerHello
 *                    key share = decapsulation of an attacker-chosen
 *                    ciphertext, and the classical share's validation).
 *
 * Proof that mlkem serves these handshakes: at start-up each group
 * completes a real handshake between the harness's own client and server
 * contexts and both ends report that group (fuzz_count "handshake ok");
 * on OpenSSL 3.0 that is only possible through the provider.
 * Oracles: no crash, leak, hang or sanitizer report.
 */
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "test/fuzz/fuzz_common.h"
#include "test/tls/tls_common.h"

#define ALL_GROUPS                                                             \
    "X25519MLKEM768:SecP256r1MLKEM768:SecP384r1MLKEM1024:MLKEM512:MLKEM768:"   \
    "MLKEM1024"

static tls_env env;
static SSL_CTX *sctx, *cctx[TLS_NGROUPS];

static void init_tls(void)
{
    static int done;
    if (done)
        return;
    TEST_REQUIRE(tls_env_init(&env, fuzz_provider_dir()) == 0, "tls_env_init");
    sctx = tls_server_ctx(&env, NULL, ALL_GROUPS);
    TEST_REQUIRE(sctx != NULL, "server SSL_CTX with %s", ALL_GROUPS);
    for (int g = 0; g < TLS_NGROUPS; g++) {
        char list[256];
        tls_pair p;
        /* g first (it gets the key share), then the other five. */
        snprintf(list, sizeof(list), "%s", tls_group_names[g]);
        for (int o = 0; o < TLS_NGROUPS; o++)
            if (o != g) {
                strcat(list, ":");
                strcat(list, tls_group_names[o]);
            }
        cctx[g] = tls_client_ctx(&env, NULL, list);
        TEST_REQUIRE(cctx[g] != NULL, "client SSL_CTX with %s", list);
        TEST_REQUIRE(tls_pair_new(&p, cctx[g], sctx) == 0
                             && tls_pair_handshake(&p)
                             && strcmp(tls_negotiated_group(p.client),
                                       tls_group_names[g]) == 0
                             && strcmp(tls_negotiated_group(p.server),
                                       tls_group_names[g]) == 0,
                         "start-up handshake over %s", tls_group_names[g]);
        tls_pair_free(&p);
        fuzz_count("handshake ok");
    }
    done = 1;
}

/* Run one end's handshake on the bytes pending in its read BIO: a few
 * steps, as many as a real flight can need; the outcome does not matter. */
static void run(SSL *s)
{
    for (int i = 0; i < 4; i++)
        if (SSL_do_handshake(s) == 1)
            break;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    BIO *rbio, *wbio;
    SSL *s;
    fuzz_in in = { data, size };

    fuzz_env();
    init_tls();
#ifdef FUZZ_TLS_SERVER
    s = SSL_new(sctx);
#else
    s = SSL_new(cctx[fuzz_byte(&in) % TLS_NGROUPS]);
#endif
    rbio = BIO_new(BIO_s_mem());
    wbio = BIO_new(BIO_s_mem());
    TEST_REQUIRE(s != NULL && rbio != NULL && wbio != NULL, "SSL objects");
    BIO_set_mem_eof_return(rbio, -1); /* empty: "retry", not EOF */
    SSL_set_bio(s, rbio, wbio);
#ifdef FUZZ_TLS_SERVER
    SSL_set_accept_state(s);
#else
    SSL_set_connect_state(s);
    SSL_do_handshake(s); /* writes the ClientHello */
#endif
    if (in.n > 0)
        BIO_write(rbio, in.p, (int)in.n);
    run(s);
    /* A flight written back means the input got past ClientHello /
     * ServerHello processing (the key share was used). */
    fuzz_count(SSL_is_init_finished(s) ? "finished"
               : BIO_pending(wbio) > 0 ? "answered"
                                       : "stopped");
    SSL_free(s);
    ERR_clear_error();
    return 0;
}
