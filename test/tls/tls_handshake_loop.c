/*
 * tls_handshake_loop.c: full TLS 1.3 handshakes per second, client and
 * server in one thread over memory BIOs (no session resumption, no
 * tickets, a fresh SSL pair per handshake, the same ECDSA P-256
 * certificate for every configuration). Used by bench/tls_handshakes.sh.
 *
 * Each handshake costs both ends' work: the client's keygen + decaps and
 * the server's encaps, plus the certificate signature and verification
 * (no chain verification: SSL_VERIFY_NONE), the transcript and the record
 * layer. Run the same binary with LD_LIBRARY_PATH pointing at OpenSSL 3.5
 * to measure 3.5's built-in groups.
 *
 * Usage: tls_handshake_loop GROUP SECONDS [PROVIDER_DIR]
 *   Prints one line: "<group> <handshakes> <seconds> <handshakes/s>".
 *   Without PROVIDER_DIR only the default provider is loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/common/test_util.h"
#include "test/tls/tls_common.h"

int main(int argc, char **argv)
{
    tls_env env;
    SSL_CTX *cctx, *sctx;
    double secs, t0, t;
    long n = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s GROUP SECONDS [PROVIDER_DIR]\n", argv[0]);
        return 2;
    }
    secs = atof(argv[2]);
    if (tls_env_init(&env, argc > 3 ? argv[3] : NULL) != 0)
        return 1;
    cctx = tls_client_ctx(&env, NULL, argv[1]);
    sctx = tls_server_ctx(&env, NULL, argv[1]);
    if (cctx == NULL || sctx == NULL)
        return 1;
    t0 = test_now();
    do {
        tls_pair p;
        int ok = tls_pair_new(&p, cctx, sctx) == 0 && tls_pair_handshake(&p)
                 && strcmp(tls_negotiated_group(p.client), argv[1]) == 0;

        tls_pair_free(&p);
        if (!ok) {
            fprintf(stderr, "handshake %ld failed for %s\n", n, argv[1]);
            tls_print_errors("handshake");
            return 1;
        }
        n++;
        t = test_now() - t0;
    } while (t < secs);
    printf("%s %ld %.3f %.1f\n", argv[1], n, t, (double)n / t);
    SSL_CTX_free(cctx);
    SSL_CTX_free(sctx);
    tls_env_free(&env);
    return 0;
}
