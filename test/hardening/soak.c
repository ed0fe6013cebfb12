/* SPDX-License-Identifier: Apache-2.0 */
/*
 * soak.c: the bounded loopback soak of issue 11.
 *
 *   hardening_soak tls <port> <handshakes> <server pid>
 *       full TLS 1.3 handshakes over TCP to 127.0.0.1:<port> (openssl
 *       s_server -www with the provider, started by soak_tls.sh for
 *       <handshakes> + 1 connections: one more closes it), each on a
 *       new connection with a new session, offering X25519MLKEM768 only; each
 *       must negotiate X25519MLKEM768 (0x11EC) and fetch the s_server status
 *       page ("HTTP/1.0 200"). The client loads mlkem too (libssl 3.0 + the
 *       provider on both ends).
 *   hardening_soak evp <provider dir> <rounds>
 *       keygen, encapsulation and decapsulation through EVP, rotating over
 *       ML-KEM-512/768/1024 and the three hybrids (libssl's calls); each
 *       round's secrets must agree.
 * Both print resident memory (VmRSS) after 1,000 iterations and at the end,
 * for this process and, in tls mode, for the server; the end value may
 * exceed the 1k value by at most RSS_SLACK_KB (plus 2 %): the process
 * state must be flat, not growing with the number of operations
 * (MLKEM_SOAK_RSS_CHECK=0, set in sanitizer builds whose allocators keep
 * freed memory in quarantine, reports RSS without judging it). Any
 * failed iteration fails the run (the first few are printed).
 * LeakSanitizer (the asan preset) checks this process at exit;
 * soak_tls.sh checks the server's.
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "test/common/test_util.h"
#include "test/hardening/hard_util.h"

#define RSS_SLACK_KB 4096
#define MARK 1000

/* VmRSS of a process in KiB, or -1. */
static long rss_kb(const char *pid)
{
    char path[64], line[256];
    FILE *f;
    long kb = -1;
    snprintf(path, sizeof(path), "/proc/%s/status", pid);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

static int flat(const char *who, long at_mark, long at_end)
{
    long allowed = at_mark + RSS_SLACK_KB + at_mark / 50;
    const char *judge = getenv("MLKEM_SOAK_RSS_CHECK");
    printf("RSS %s: %ld KiB after %d, %ld KiB at the end (%+ld KiB)\n", who,
           at_mark, MARK, at_end, at_end - at_mark);
    /* Sanitizer builds keep freed memory in quarantine: RSS is reported
     * there, judged in the plain build. */
    if (judge != NULL && strcmp(judge, "0") == 0)
        return 1;
    return TEST_CHECK(at_mark > 0 && at_end > 0 && at_end <= allowed,
                      "%s: resident memory grew from %ld to %ld KiB (allowed "
                      "%ld)", who, at_mark, at_end, allowed);
}

/* ---- TLS ------------------------------------------------------------------- */

static int one_handshake(SSL_CTX *ctx, int port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), ok = 0, one = 1;
    SSL *s = NULL;
    char buf[4096];
    size_t got = 0;

    if (fd < 0)
        return 0;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
        goto end;
    if ((s = SSL_new(ctx)) == NULL || SSL_set_fd(s, fd) != 1
        || SSL_connect(s) != 1)
        goto end;
    if ((SSL_get_negotiated_group(s) & 0xffff) != 0x11ec)
        goto end;
    if (SSL_write(s, "GET / HTTP/1.0\r\n\r\n", 18) != 18)
        goto end;
    for (;;) { /* the server closes after its page */
        int n = SSL_read(s, buf + got, (int)(sizeof(buf) - 1 - got));
        if (n <= 0)
            break;
        got += (size_t)n;
        if (got == sizeof(buf) - 1)
            got = 16; /* keep the status line only */
    }
    buf[got] = '\0';
    ok = strncmp(buf, "HTTP/1.0 200", 12) == 0;
end:
    SSL_free(s);
    close(fd);
    return ok;
}

static int soak_tls(int port, long n, const char *server_pid)
{
    char self[32];
    long c_mark = -1, s_mark = -1, bad = 0;
    double t0 = test_now();
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    snprintf(self, sizeof(self), "%ld", (long)getpid());

    if (!TEST_CHECK(ctx != NULL
                        && SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) == 1
                        && SSL_CTX_set1_groups_list(ctx, "X25519MLKEM768") == 1,
                    "client SSL_CTX with X25519MLKEM768 (is the provider "
                    "configured through OPENSSL_CONF?)"))
        return test_finish("soak tls");
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    for (long i = 1; i <= n; i++) {
        if (!one_handshake(ctx, port)) {
            if (bad++ < 5)
                TEST_CHECK(0, "handshake %ld failed", i);
            ERR_clear_error();
        }
        if (i == MARK) {
            c_mark = rss_kb(self);
            s_mark = rss_kb(server_pid);
        }
    }
    TEST_CHECK(bad == 0, "%ld of %ld handshakes failed", bad, n);
    printf("%ld TLS 1.3 handshakes (X25519MLKEM768, new connection and "
           "session each): %.1f s, %.0f per second\n", n, test_now() - t0,
           (double)n / (test_now() - t0));
    if (n >= MARK) {
        flat("client", c_mark, rss_kb(self));
        flat("s_server", s_mark, rss_kb(server_pid));
    }
    /* The server was started for n + 1 connections (so that it is still
     * there to be measured): the last one lets it leave. */
    TEST_CHECK(one_handshake(ctx, port), "the closing handshake failed");
    SSL_CTX_free(ctx);
    return test_finish("soak tls");
}

/* ---- EVP ------------------------------------------------------------------- */

static int soak_evp(const char *moddir, long n)
{
    test_env e;
    char self[32];
    long mark = -1, bad = 0;
    double t0 = test_now();
    snprintf(self, sizeof(self), "%ld", (long)getpid());

    if (!test_env_open(&e, moddir, NULL))
        return 1;
    for (long i = 1; i <= n; i++) {
        const hard_alg *a = &hard_algs[i % HARD_NALGS];
        uint8_t pub[1700], ct[1700], ss1[80], ss2[80];
        size_t publen = 0, ctlen = sizeof(ct), s1 = sizeof(ss1),
               s2 = sizeof(ss2);
        EVP_PKEY *k = hard_keygen(&e, a, NULL), *peer = NULL;
        int ok = k != NULL && hard_get_pub(k, pub, sizeof(pub), &publen)
                 && (peer = hard_pub_from(&e, a, pub, publen)) != NULL
                 && hard_encaps(&e, peer, NULL, ct, &ctlen, ss1, &s1)
                 && hard_decaps(&e, k, ct, ctlen, ss2, &s2) && s1 == s2
                 && s1 == a->ss && memcmp(ss1, ss2, s1) == 0;
        if (!ok && bad++ < 5)
            TEST_CHECK(0, "round %ld (%s) failed", i, a->name);
        ERR_clear_error();
        EVP_PKEY_free(k);
        EVP_PKEY_free(peer);
        if (i == MARK)
            mark = rss_kb(self);
    }
    TEST_CHECK(bad == 0, "%ld of %ld rounds failed", bad, n);
    printf("%ld rounds of keygen + encaps + decaps through EVP (ML-KEM-512/"
           "768/1024 and the three hybrids in turn): %.1f s\n", n,
           test_now() - t0);
    if (n >= MARK)
        flat("EVP soak", mark, rss_kb(self));
    test_env_close(&e);
    return test_finish("soak evp");
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "tls") == 0)
        return soak_tls(atoi(argv[2]), atol(argv[3]), argv[4]);
    if (argc == 4 && strcmp(argv[1], "evp") == 0)
        return soak_evp(argv[2], atol(argv[3]));
    fprintf(stderr, "usage: %s tls <port> <handshakes> <server pid>\n"
            "       %s evp <provider dir> <rounds>\n", argv[0], argv[0]);
    return 2;
}
