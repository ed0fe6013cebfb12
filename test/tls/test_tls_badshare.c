/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_tls_badshare.c: malformed and unknown key shares must abort the
 * handshake with an alert, and the server must go on serving.
 *
 * A real client (our provider, one group) writes its ClientHello into a
 * memory BIO; this program rewrites the key_share entry in that record
 * (fixing every enclosing length) and delivers it to a server:
 *   short   the share one byte short            -> illegal_parameter (47)
 *   long    the share one byte long             -> illegal_parameter (47)
 *   ek      first ek coefficient = 4095 >= q    -> illegal_parameter (47)
 *           (FIPS 203 §7.2 modulus check)
 *   point   SecP*: point off the curve; X25519: u = 0 (small order)
 *                                               -> illegal_parameter (47)
 *   group   key_share and supported_groups renamed to an unassigned
 *           codepoint (0x0CAF): the client offers only an unknown group
 *                                               -> handshake_failure (40)
 *   none    unmodified (checks the harness: a ServerHello comes back)
 * In-process, the server's error queue must also name our reason (e.g.
 * "encapsulation key not reduced mod q"), and a normal client must then
 * complete a handshake on the same SSL_CTX.
 *
 * Usage:
 *   test_tls_badshare <provider dir>
 *       every group x every mutation, in process
 *   test_tls_badshare <provider dir> --connect PORT GROUP KIND ALERT
 *       send one mutated ClientHello to 127.0.0.1:PORT (an s_server), and
 *       check the alert number that comes back (10 s receive timeout)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "test/common/test_util.h"
#include "test/tls/tls_common.h"

#define R_EK_NOT_REDUCED 101 /* provider/prov.h reason codes */
#define R_BAD_KEY_LENGTH 104
#define R_BAD_POINT 118
#define R_ZERO_SHARED_SECRET 119

#define ALERT_HANDSHAKE_FAILURE 40
#define ALERT_ILLEGAL_PARAMETER 47
#define UNKNOWN_GROUP 0x0CAF

typedef struct {
    const char *name;
    unsigned int id;
    size_t ek_off; /* offset of ek in the client share */
    size_t ec_off; /* offset of the classical part, ec_len bytes */
    size_t ec_len; /* 0: pure ML-KEM */
} group_layout;

static const group_layout layouts[TLS_NGROUPS] = {
    {"X25519MLKEM768", 0x11EC, 0, 1184, 32},
    {"SecP256r1MLKEM768", 0x11EB, 65, 0, 65},
    {"SecP384r1MLKEM1024", 0x11ED, 97, 0, 97},
    {"MLKEM512", 0x0200, 0, 0, 0},
    {"MLKEM768", 0x0201, 0, 0, 0},
    {"MLKEM1024", 0x0202, 0, 0, 0},
};

typedef struct {
    uint8_t b[16384];
    size_t n;
} buf;

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static void put16(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* Where the key share lives in a ClientHello record. */
typedef struct {
    size_t lens[6];   /* offsets of enclosing length fields */
    int widths[6];    /* their widths (2 or 3 bytes) */
    size_t group_off; /* the key_share entry's group */
    size_t key_off, key_len;
    size_t sg_off, sg_len; /* supported_groups list */
} ch_map;

static int parse_ch(const buf *m, ch_map *c)
{
    const uint8_t *b = m->b;
    size_t p, end, exts_end;

    memset(c, 0, sizeof(*c));
    if (m->n < 9 || b[0] != 0x16 || 5 + get16(b + 3) != m->n || b[5] != 1)
        return -1;
    c->lens[0] = 3, c->widths[0] = 2; /* record */
    c->lens[1] = 6, c->widths[1] = 3; /* handshake */
    p = 9 + 2 + 32;                     /* legacy_version, random */
    p += 1 + b[p];                      /* session id */
    p += 2 + get16(b + p);              /* cipher suites */
    p += 1 + b[p];                      /* compression */
    c->lens[2] = p, c->widths[2] = 2;   /* extensions */
    exts_end = p + 2 + get16(b + p);
    if (exts_end != m->n)
        return -1;
    for (p += 2; p + 4 <= exts_end; p = end) {
        unsigned type = get16(b + p);

        end = p + 4 + get16(b + p + 2);
        if (type == 10) { /* supported_groups */
            c->sg_off = p + 6;
            c->sg_len = get16(b + p + 4);
        } else if (type == 51) { /* key_share: one entry expected */
            c->lens[3] = p + 2, c->widths[3] = 2;
            c->lens[4] = p + 4, c->widths[4] = 2; /* client_shares */
            c->group_off = p + 6;
            c->lens[5] = p + 8, c->widths[5] = 2;
            c->key_off = p + 10;
            c->key_len = get16(b + p + 8);
            if (c->key_off + c->key_len != end)
                return -1; /* more than one share */
        }
    }
    return c->key_off != 0 && c->sg_off != 0 ? 0 : -1;
}

/* Change the share's length by delta (+1: append a zero byte, -1: drop the
 * last byte), fixing every enclosing length. */
static void resize_share(buf *m, const ch_map *c, int delta)
{
    size_t at = c->key_off + c->key_len, i;

    if (delta > 0) {
        memmove(m->b + at + 1, m->b + at, m->n - at);
        m->b[at] = 0;
    } else {
        memmove(m->b + at - 1, m->b + at, m->n - at);
    }
    m->n = (size_t)((long)m->n + delta);
    for (i = 0; i < 6; i++) {
        uint8_t *f = m->b + c->lens[i];
        size_t v = c->widths[i] == 3 ? (size_t)f[0] << 16 | get16(f + 1) : get16(f);

        v = (size_t)((long)v + delta);
        if (c->widths[i] == 3) {
            f[0] = (uint8_t)(v >> 16);
            put16(f + 1, v);
        } else {
            put16(f, v);
        }
    }
}

/* Apply a mutation; 0, or -1 if it does not apply to this group. */
static int mutate(buf *m, const group_layout *g, const char *kind)
{
    ch_map c;
    size_t i;

    if (!TEST_CHECK(parse_ch(m, &c) == 0, "cannot parse the ClientHello")
        || !TEST_CHECK(get16(m->b + c.group_off) == g->id, "%s: key share for 0x%04X",
                       g->name, get16(m->b + c.group_off)))
        return -1;
    if (strcmp(kind, "none") == 0)
        return 0;
    if (strcmp(kind, "short") == 0 || strcmp(kind, "long") == 0) {
        resize_share(m, &c, kind[0] == 's' ? -1 : 1);
        return 0;
    }
    if (strcmp(kind, "ek") == 0) {
        /* ByteEncode_12: coefficient 0 = byte0 | (byte1 & 0x0f) << 8. */
        m->b[c.key_off + g->ek_off] = 0xff;
        m->b[c.key_off + g->ek_off + 1] |= 0x0f;
        return 0;
    }
    if (strcmp(kind, "point") == 0) {
        if (!TEST_CHECK(g->ec_len != 0, "%s has no classical part", g->name))
            return -1;
        if (g->ec_len == 32)
            memset(m->b + c.key_off + g->ec_off, 0, 32);
        else
            m->b[c.key_off + g->ec_off + g->ec_len - 1] ^= 1;
        return 0;
    }
    if (strcmp(kind, "group") == 0) {
        put16(m->b + c.group_off, UNKNOWN_GROUP);
        for (i = 0; i + 1 < c.sg_len; i += 2)
            put16(m->b + c.sg_off + i, UNKNOWN_GROUP);
        return 0;
    }
    TEST_CHECK(0, "unknown mutation %s", kind);
    return -1;
}

static int expected_alert(const char *kind)
{
    return strcmp(kind, "group") == 0 ? ALERT_HANDSHAKE_FAILURE : ALERT_ILLEGAL_PARAMETER;
}

static int expected_reason(const group_layout *g, const char *kind)
{
    if (strcmp(kind, "short") == 0 || strcmp(kind, "long") == 0)
        return R_BAD_KEY_LENGTH;
    if (strcmp(kind, "ek") == 0)
        return R_EK_NOT_REDUCED;
    if (strcmp(kind, "point") == 0)
        return g->ec_len == 32 ? R_ZERO_SHARED_SECRET : R_BAD_POINT;
    return 0;
}

/* The client's first flight for `group` (a real ClientHello). */
static int client_hello(tls_env *env, const char *group, buf *out)
{
    SSL_CTX *ctx = tls_client_ctx(env, NULL, group);
    SSL *s = ctx != NULL ? SSL_new(ctx) : NULL;
    BIO *rb = BIO_new(BIO_s_mem()), *wb = BIO_new(BIO_s_mem());
    int n, ok = -1;

    if (s == NULL || rb == NULL || wb == NULL) {
        BIO_free(rb);
        BIO_free(wb);
        goto end;
    }
    BIO_set_mem_eof_return(rb, -1);
    SSL_set_bio(s, rb, wb);
    SSL_set_connect_state(s);
    if (SSL_do_handshake(s) == 1)
        goto end;
    n = BIO_read(wb, out->b, sizeof(out->b));
    if (n > 0 && BIO_pending(wb) == 0) {
        out->n = (size_t)n;
        ok = 0;
    }
end:
    if (ok != 0)
        tls_print_errors("client hello");
    SSL_free(s);
    SSL_CTX_free(ctx);
    return ok;
}

/* The first alert in a stream of records: its description, -2 if the first
 * record is a ServerHello (handshake), -1 if none. */
static int first_alert(const uint8_t *b, size_t n)
{
    if (n >= 7 && b[0] == 0x15)
        return b[6];
    if (n >= 6 && b[0] == 0x16 && b[5] == 2)
        return -2;
    return -1;
}

/* 1 if the error queue names our `reason`; clears the queue. */
static int saw_reason(int reason)
{
    unsigned long e;
    int hit = 0;

    while ((e = ERR_get_error()) != 0)
        if (ERR_GET_LIB(e) >= ERR_LIB_USER && ERR_GET_REASON(e) == reason)
            hit = 1;
    return hit;
}

static int inproc_case(tls_env *env, SSL_CTX *sctx, const group_layout *g,
                       const char *kind)
{
    buf m, resp;
    SSL *srv = NULL;
    BIO *rb = NULL, *wb = NULL;
    int r, alert, reason, ok = 0;

    if (!TEST_CHECK(client_hello(env, g->name, &m) == 0, "%s: ClientHello", g->name)
        || mutate(&m, g, kind) != 0)
        return 0;
    if (!TEST_CHECK((srv = SSL_new(sctx)) != NULL && (rb = BIO_new(BIO_s_mem())) != NULL
                        && (wb = BIO_new(BIO_s_mem())) != NULL,
                    "%s/%s: server setup", g->name, kind)) {
        BIO_free(rb);
        BIO_free(wb);
        goto end;
    }
    BIO_set_mem_eof_return(rb, -1);
    SSL_set_bio(srv, rb, wb);
    SSL_set_accept_state(srv);
    BIO_write(rb, m.b, (int)m.n);
    ERR_clear_error();
    r = SSL_do_handshake(srv);
    resp.n = (size_t)(BIO_pending(wb) > 0 ? BIO_read(wb, resp.b, sizeof(resp.b)) : 0);
    alert = first_alert(resp.b, resp.n);
    if (strcmp(kind, "none") == 0) {
        ERR_clear_error();
        ok = TEST_CHECK(alert == -2, "%s/none: no ServerHello from an unmodified ClientHello",
                        g->name);
        goto end;
    }
    reason = expected_reason(g, kind);
    ok = TEST_CHECK(r != 1 && SSL_get_error(srv, r) == SSL_ERROR_SSL,
                    "%s/%s: server did not fail", g->name, kind)
         && TEST_CHECK(alert == expected_alert(kind), "%s/%s: alert %d, want %d", g->name,
                       kind, alert, expected_alert(kind))
         && TEST_CHECK(reason == 0 || saw_reason(reason),
                       "%s/%s: our reason %d not in the error queue", g->name, kind, reason);
end:
    ERR_clear_error();
    SSL_free(srv);
    return ok;
}

/* A normal client afterwards, on the same server SSL_CTX. */
static int normal_client(tls_env *env, SSL_CTX *sctx, const char *group)
{
    SSL_CTX *cctx = tls_client_ctx(env, NULL, group);
    tls_pair p;
    int ok = 0;

    if (cctx != NULL && tls_pair_new(&p, cctx, sctx) == 0) {
        ok = tls_pair_handshake(&p) && strcmp(tls_negotiated_group(p.server), group) == 0;
        tls_pair_free(&p);
    }
    SSL_CTX_free(cctx);
    if (!ok)
        tls_print_errors("normal client");
    return ok;
}

static void run_inproc(tls_env *env)
{
    static const char *const kinds[] = {"none", "short", "long", "ek", "point", "group"};
    int i;
    size_t k;

    for (i = 0; i < TLS_NGROUPS; i++) {
        const group_layout *g = &layouts[i];
        SSL_CTX *sctx = tls_server_ctx(env, NULL, g->name);

        if (!TEST_CHECK(sctx != NULL, "%s: server SSL_CTX", g->name))
            continue;
        for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            if (strcmp(kinds[k], "point") == 0 && g->ec_len == 0)
                continue; /* pure ML-KEM: no point */
            if (!inproc_case(env, sctx, g, kinds[k])
                || !TEST_CHECK(normal_client(env, sctx, g->name),
                               "%s: server SSL_CTX unusable after %s", g->name, kinds[k]))
                continue;
            printf("ok   %-19s %-6s -> %s, next client served\n", g->name, kinds[k],
                   strcmp(kinds[k], "none") == 0 ? "ServerHello"
                   : expected_alert(kinds[k]) == ALERT_HANDSHAKE_FAILURE
                       ? "alert handshake_failure"
                       : "alert illegal_parameter");
        }
        SSL_CTX_free(sctx);
    }
    /* An unknown name in a group list fails loudly (the config-file path
     * drops it silently on 3.0, which is why every test proves its group). */
    {
        SSL_CTX *ctx = SSL_CTX_new_ex(env->base.libctx, NULL, TLS_client_method());

        if (TEST_CHECK(ctx != NULL && SSL_CTX_set1_groups_list(ctx, "NoSuchGroup") != 1,
                       "SSL_CTX_set1_groups_list(NoSuchGroup) accepted"))
            printf("ok   unknown group name rejected by SSL_CTX_set1_groups_list\n");
        ERR_clear_error();
        SSL_CTX_free(ctx);
    }
}

static void run_connect(tls_env *env, int port, const char *group, const char *kind,
                        int want_alert)
{
    const group_layout *g = NULL;
    struct sockaddr_in sa;
    struct timeval tv = {10, 0};
    buf m, resp;
    int fd, i, alert;
    ssize_t r;

    for (i = 0; i < TLS_NGROUPS; i++)
        if (strcmp(layouts[i].name, group) == 0)
            g = &layouts[i];
    if (!TEST_CHECK(g != NULL, "unknown group %s", group)
        || !TEST_CHECK(client_hello(env, group, &m) == 0, "%s: ClientHello", group)
        || mutate(&m, g, kind) != 0)
        return;
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0
        || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0
        || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0
        || write(fd, m.b, m.n) != (ssize_t)m.n) {
        TEST_CHECK(0, "connect/send to 127.0.0.1:%d: %s", port, strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    resp.n = 0;
    while (resp.n < 7 && (r = read(fd, resp.b + resp.n, sizeof(resp.b) - resp.n)) > 0)
        resp.n += (size_t)r;
    close(fd);
    alert = first_alert(resp.b, resp.n);
    printf("%s/%s: %s %d\n", group, kind, alert == -2 ? "ServerHello" : "alert", alert);
    TEST_CHECK(alert == want_alert, "%s/%s: alert %d, want %d", group, kind, alert,
               want_alert);
}

int main(int argc, char **argv)
{
    const char *dir = tls_provider_dir(argc, argv);
    tls_env env;

    if (!TEST_CHECK(tls_env_init(&env, dir) == 0, "tls_env_init"))
        return test_finish("tls_badshare");
    if (argc == 7 && strcmp(argv[2], "--connect") == 0)
        run_connect(&env, atoi(argv[3]), argv[4], argv[5], atoi(argv[6]));
    else
        run_inproc(&env);
    tls_env_free(&env);
    return test_finish("tls_badshare");
}
