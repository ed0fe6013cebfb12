/* SPDX-License-Identifier: Apache-2.0 */
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
 * The machine may be shared: the loop runs until the process has used
 * SECONDS of CPU time (wall time capped at 20 x SECONDS) and reports
 * handshakes per CPU second, which other processes' load does not dilute
 * (it still suffers from their cache pressure: compare runs interleaved).
 *
 * With env MLKEM_HANDSHAKES=N the loop runs exactly N handshakes instead
 * (bench/tls_instructions.sh counts instructions per handshake that way).
 *
 * Usage: tls_handshake_loop GROUP SECONDS [PROVIDER_DIR [PROPQ]]
 *   Prints one line:
 *   "<group> <handshakes> <cpu s> <wall s> <handshakes per cpu s>".
 *   Without PROVIDER_DIR (or with "-") only the default provider is loaded;
 *   PROPQ is the SSL_CTX property query (e.g. "?provider=mlkem").
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_PROCESS_CPUTIME_ID */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test/common/test_util.h"
#include "test/tls/tls_common.h"

static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    tls_env env;
    SSL_CTX *cctx, *sctx;
    const char *dir = argc > 3 && strcmp(argv[3], "-") != 0 ? argv[3] : NULL;
    const char *propq = argc > 4 ? argv[4] : NULL;
    const char *fixed = getenv("MLKEM_HANDSHAKES");
    const long want = fixed != NULL ? atol(fixed) : 0;
    double secs, t0, c0, t, c;
    long n = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s GROUP SECONDS [PROVIDER_DIR [PROPQ]]\n", argv[0]);
        return 2;
    }
    secs = atof(argv[2]);
    if (tls_env_init(&env, dir) != 0)
        return 1;
    cctx = tls_client_ctx(&env, propq, argv[1]);
    sctx = tls_server_ctx(&env, propq, argv[1]);
    if (cctx == NULL || sctx == NULL)
        return 1;
    t0 = test_now();
    c0 = cpu_now();
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
        c = cpu_now() - c0;
    } while (want > 0 ? n < want : c < secs && t < 20 * secs);
    printf("%s %ld %.3f %.3f %.1f\n", argv[1], n, c, t, (double)n / c);
    SSL_CTX_free(cctx);
    SSL_CTX_free(sctx);
    tls_env_free(&env);
    return 0;
}
