/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem_check.c: mlkem-check, which TLS 1.3 group does a server pick?
 *
 *   mlkem-check [options] HOST[:PORT]
 *   mlkem-check --config [FILE]
 *
 * Connects (PORT 443 by default), completes one TLS handshake through the
 * machine's OpenSSL configuration (openssl.cnf, OPENSSL_CONF), and prints
 * the key-exchange group the server chose, read from the ServerHello, by
 * name: 4588 (0x11ec) is X25519MLKEM768. On OpenSSL 3.0, `openssl s_client
 * -brief` never names the group, and `-trace` prints a provider group as
 * UNKNOWN (4588) in the ClientHello too, where it only says what was
 * offered; this program reports what was negotiated.
 *
 * Options:
 *   -groups LIST        groups to offer, most preferred first (default: the
 *                       configuration's Groups line, else OpenSSL's default)
 *   -servername NAME    SNI (default: HOST unless it is an IP address)
 *   -provider NAME      load a provider (repeatable; "default" is loaded
 *                       too, as the handshake needs it)
 *   -provider-path DIR  where -provider looks (like openssl's)
 *   -timeout SECONDS    connect and handshake timeout (default 10)
 *   -q                  print the group name only
 *
 * Exit status: 0 an ML-KEM group (X25519MLKEM768, SecP256r1MLKEM768,
 * SecP384r1MLKEM1024, MLKEM512/768/1024) was negotiated; 1 the handshake
 * completed with another group; 2 no TLS 1.3 handshake (usage, name
 * resolution, connection, handshake or an unknown group name in -groups).
 *
 * --config [FILE] is another mode, the configuration doctor
 * (mlkem_check_config.c): it loads FILE (else OPENSSL_CONF, else OpenSSL's
 * default file) as a program would, with diagnostics, and says whether
 * mlkem is active from it and what is wrong (exit 0 / 1; 2 unreadable).
 *
 * The certificate is not verified: the question is the key exchange, and
 * the verification result is printed for information only.
 *
 * References:
 *   [RFC8446] TLS 1.3, §4.1.3 (ServerHello), §4.2.8 (key_share)
 *   [IANA]    TLS Supported Groups registry (codepoints below)
 *   [ECDHE-MLKEM] draft-ietf-tls-ecdhe-mlkem (0x11EB, 0x11EC, 0x11ED)
 *   [MLKEM-TLS]   draft-ietf-tls-mlkem (0x0200, 0x0201, 0x0202)
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

#include "mlkem_check.h"

#define EXIT_PQ 0
#define EXIT_CLASSICAL 1
#define EXIT_ERROR 2
#define MAX_PROVIDERS 8

/* IANA TLS Supported Groups that a TLS 1.3 server may pick. */
struct group {
    unsigned id;
    const char *name;
    int mlkem; /* 1: an ML-KEM key exchange (FIPS 203) */
};

static const struct group groups[] = {
    { 0x0017, "secp256r1", 0 },
    { 0x0018, "secp384r1", 0 },
    { 0x0019, "secp521r1", 0 },
    { 0x001d, "x25519", 0 },
    { 0x001e, "x448", 0 },
    { 0x001f, "brainpoolP256r1tls13", 0 },
    { 0x0020, "brainpoolP384r1tls13", 0 },
    { 0x0021, "brainpoolP512r1tls13", 0 },
    { 0x0100, "ffdhe2048", 0 },
    { 0x0101, "ffdhe3072", 0 },
    { 0x0102, "ffdhe4096", 0 },
    { 0x0103, "ffdhe6144", 0 },
    { 0x0104, "ffdhe8192", 0 },
    { 0x0200, "MLKEM512", 1 },
    { 0x0201, "MLKEM768", 1 },
    { 0x0202, "MLKEM1024", 1 },
    { 0x11eb, "SecP256r1MLKEM768", 1 },
    { 0x11ec, "X25519MLKEM768", 1 },
    { 0x11ed, "SecP384r1MLKEM1024", 1 },
    { 0x11ee, "curveSM2MLKEM768", 1 },
    /* Pre-standard Kyber drafts: post-quantum, but not ML-KEM. */
    { 0x6399, "X25519Kyber768Draft00 (obsolete)", 0 },
    { 0x639a, "SecP256r1Kyber768Draft00 (obsolete)", 0 },
};

/* The NIDs libssl returns for the classical groups it knows by NID. */
static const struct {
    int nid;
    unsigned id;
} nid_ids[] = {
    { NID_X9_62_prime256v1, 0x0017 }, { NID_secp384r1, 0x0018 },
    { NID_secp521r1, 0x0019 },        { NID_X25519, 0x001d },
    { NID_X448, 0x001e },             { NID_brainpoolP256r1, 0x001f },
    { NID_brainpoolP384r1, 0x0020 },  { NID_brainpoolP512r1, 0x0021 },
    { NID_ffdhe2048, 0x0100 },        { NID_ffdhe3072, 0x0101 },
    { NID_ffdhe4096, 0x0102 },        { NID_ffdhe6144, 0x0103 },
    { NID_ffdhe8192, 0x0104 },
};

static const char *prog = "mlkem-check";

/* The providers this program loaded, unloaded before main returns (each
 * load holds a reference that OpenSSL's own clean-up does not drop; an
 * atexit handler could run after that clean-up). */
static OSSL_PROVIDER *loaded[MAX_PROVIDERS + 1];
static int nloaded;

static void unload_providers(void)
{
    while (nloaded > 0)
        OSSL_PROVIDER_unload(loaded[--nloaded]);
}

/* Load a provider into the default library context; 0 on failure. */
static int load_provider(const char *name)
{
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(NULL, name);

    if (p == NULL)
        return 0;
    loaded[nloaded++] = p;
    return 1;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: %s [-groups LIST] [-servername NAME] [-provider NAME]...\n"
            "       [-provider-path DIR] [-timeout SECONDS] [-q] HOST[:PORT]\n"
            "       %s --config [FILE]\n"
            "Prints the TLS 1.3 key-exchange group HOST chose (its ServerHello).\n"
            "Exit: 0 ML-KEM group, 1 another group, 2 no handshake.\n"
            "--config: checks the OpenSSL configuration FILE (default:\n"
            "OPENSSL_CONF, else OpenSSL's default file) as programs load it.\n"
            "Exit: 0 mlkem active and no problem, 1 a problem, 2 unreadable.\n"
            "Options:\n"
            " -groups LIST        groups to offer (default: the configuration's)\n"
            " -servername NAME    SNI (default: HOST unless an IP address)\n"
            " -provider NAME      load a provider (repeatable)\n"
            " -provider-path DIR  where -provider looks\n"
            " -timeout SECONDS    connect and handshake timeout (default 10)\n"
            " -q                  print the group name only\n"
            " -help               this summary\n"
            " --config [FILE]     the configuration doctor\n",
            prog, prog);
}

static int die(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    ERR_print_errors_fp(stderr);
    return EXIT_ERROR;
}

/*
 * The IANA codepoint of what SSL_get_negotiated_group() returned: a NID for
 * the groups libssl knows by NID, else TLSEXT_nid_unknown | codepoint (every
 * group a provider adds, and OpenSSL 3.5's built-in ML-KEM groups). 0 when
 * unknown.
 */
static unsigned group_codepoint(int nid)
{
    if ((nid & TLSEXT_nid_unknown) != 0)
        return (unsigned)nid & 0xffff;
    for (size_t i = 0; i < sizeof(nid_ids) / sizeof(nid_ids[0]); i++)
        if (nid_ids[i].nid == nid)
            return nid_ids[i].id;
    return 0;
}

static const struct group *group_by_id(unsigned id)
{
    for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
        if (groups[i].id == id)
            return &groups[i];
    return NULL;
}

/*
 * Split HOST[:PORT] / [V6]:PORT into host and port (default 443). Writes
 * into host (size hostlen) and port (size portlen). 0 on malformed input.
 */
static int split_target(const char *arg, char *host, size_t hostlen,
                        char *port, size_t portlen)
{
    const char *h = arg, *p = NULL;
    size_t hl;

    if (arg[0] == '[') {
        const char *end = strchr(arg, ']');
        if (end == NULL)
            return 0;
        h = arg + 1;
        hl = (size_t)(end - h);
        if (end[1] == ':')
            p = end + 2;
        else if (end[1] != '\0')
            return 0;
    } else {
        const char *colon = strrchr(arg, ':');
        if (colon != NULL && strchr(arg, ':') == colon) {
            hl = (size_t)(colon - arg);
            p = colon + 1;
        } else {
            hl = strlen(arg); /* no port, or a bare IPv6 address */
        }
    }
    if (hl == 0 || hl >= hostlen)
        return 0;
    memcpy(host, h, hl);
    host[hl] = '\0';
    if (p == NULL)
        p = "443";
    if (*p == '\0' || strlen(p) >= portlen || strspn(p, "0123456789") != strlen(p))
        return 0;
    strcpy(port, p);
    return 1;
}

/* A connected TCP socket with send/receive timeouts, or -1. */
static int tcp_connect(const char *host, const char *port, int timeout)
{
    struct addrinfo hints, *res = NULL, *ai;
    struct timeval tv = { .tv_sec = timeout, .tv_usec = 0 };
    int fd = -1, rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, host, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0)
            continue;
        /* On Linux SO_SNDTIMEO also bounds connect(). */
        if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == 0
            && setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0
            && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        rc = errno;
        close(fd);
        fd = -1;
        errno = rc;
    }
    if (fd < 0)
        fprintf(stderr, "%s: cannot connect to %s port %s: %s\n", prog, host,
                port, strerror(errno));
    freeaddrinfo(res);
    return fd;
}

static int is_ip_address(const char *host)
{
    unsigned char buf[16];
    return inet_pton(AF_INET, host, buf) == 1
           || inet_pton(AF_INET6, host, buf) == 1;
}

int main(int argc, char **argv)
{
    const char *group_list = NULL, *servername = NULL, *target = NULL;
    const char *provider_path = NULL, *providers[MAX_PROVIDERS];
    int nproviders = 0, timeout = 10, quiet = 0, fd = -1, ret = EXIT_ERROR;
    char host[256], port[16];
    SSL_CTX *ctx = NULL;
    SSL *ssl = NULL;

    if (argc >= 2 && (strcmp(argv[1], "--config") == 0 || strcmp(argv[1], "-config") == 0)) {
        if (argc > 3) {
            usage();
            return EXIT_ERROR;
        }
        return mlkem_check_config(prog, argc == 3 ? argv[2] : NULL);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;

        if (strcmp(a, "-groups") == 0 && has_value) {
            group_list = argv[++i];
        } else if (strcmp(a, "-servername") == 0 && has_value) {
            servername = argv[++i];
        } else if (strcmp(a, "-provider") == 0 && has_value) {
            if (nproviders == MAX_PROVIDERS)
                return die("more than %s -provider options", "8");
            providers[nproviders++] = argv[++i];
        } else if (strcmp(a, "-provider-path") == 0 && has_value) {
            provider_path = argv[++i];
        } else if (strcmp(a, "-timeout") == 0 && has_value) {
            timeout = atoi(argv[++i]);
            if (timeout <= 0)
                return die("bad -timeout %s", argv[i]);
        } else if (strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0
                   || strcmp(a, "--help") == 0) {
            usage();
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "%s: unknown option %s%s\n", prog, a,
                    has_value ? ""
                    : " (or it needs a value)");
            usage();
            return EXIT_ERROR;
        } else if (target != NULL) {
            fprintf(stderr, "%s: one HOST[:PORT] only (%s, then %s)\n", prog,
                    target, a);
            usage();
            return EXIT_ERROR;
        } else {
            target = a;
        }
    }
    if (target == NULL) {
        usage();
        return EXIT_ERROR;
    }
    if (!split_target(target, host, sizeof(host), port, sizeof(port)))
        return die("bad target '%s' (HOST[:PORT], [IPv6]:PORT)", target);

    /* A server closing the connection must give an error, not SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);

    /* libssl reads openssl.cnf (OPENSSL_CONF) here, with its providers. */
    if (!OPENSSL_init_ssl(OPENSSL_INIT_LOAD_CONFIG, NULL))
        return die("%s", "OpenSSL initialisation failed");
    if (provider_path != NULL
        && !OSSL_PROVIDER_set_default_search_path(NULL, provider_path))
        return die("cannot set the provider path %s", provider_path);
    for (int i = 0; i < nproviders; i++) {
        if (!load_provider(providers[i])) {
            ret = die("cannot load the provider '%s' (-provider-path, "
                      "OPENSSL_MODULES, `openssl version -m`)", providers[i]);
            goto end;
        }
    }
    /* Loading any provider stops the implicit default one: keep it. */
    if (nproviders > 0 && !load_provider("default")) {
        ret = die("cannot load the %s provider", "default");
        goto end;
    }

    ctx = SSL_CTX_new(TLS_client_method());
    if (ctx == NULL) {
        ret = die("%s", "SSL_CTX_new failed");
        goto end;
    }
    if (!SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION)) {
        ret = die("%s", "cannot require TLS 1.3");
        goto end;
    }
    if (group_list != NULL && !SSL_CTX_set1_groups_list(ctx, group_list)) {
        ret = die("-groups %s: a group is unknown to this OpenSSL (is the "
                  "mlkem provider loaded? `openssl list -providers`)",
                  group_list);
        goto end;
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    if (!SSL_CTX_set_default_verify_paths(ctx))
        ERR_clear_error(); /* verification is informative only */

    fd = tcp_connect(host, port, timeout);
    if (fd < 0)
        goto end;
    ssl = SSL_new(ctx);
    if (ssl == NULL || !SSL_set_fd(ssl, fd)) {
        ret = die("%s", "SSL_new failed");
        goto end;
    }
    if (servername == NULL && !is_ip_address(host))
        servername = host;
    if (servername != NULL && !SSL_set_tlsext_host_name(ssl, servername)) {
        ret = die("bad server name %s", servername);
        goto end;
    }
    if (SSL_connect(ssl) != 1) {
        ret = die("no TLS 1.3 handshake with %s (the server may accept none "
                  "of the groups offered, or no TLS 1.3)", target);
        goto end;
    }

    {
        int nid = SSL_get_negotiated_group(ssl);
        unsigned id = group_codepoint(nid);
        const struct group *g = group_by_id(id);
        const char *name = g != NULL ? g->name : NULL;
        long verify = SSL_get_verify_result(ssl);

        if (name == NULL)
            name = SSL_group_to_name(ssl, nid);
        if (name == NULL)
            name = "unknown";
        if (quiet) {
            printf("%s\n", name);
        } else {
            printf("server:   %s port %s\n", host, port);
            printf("protocol: %s\n", SSL_get_version(ssl));
            if (id != 0)
                printf("group:    %s (%u, 0x%04x)\n", name, id, id);
            else
                printf("group:    %s\n", name);
            printf("kind:     %s\n", g != NULL && g->mlkem
                                         ? "post-quantum (ML-KEM, FIPS 203)"
                                         : "classical (not post-quantum)");
            printf("cipher:   %s\n", SSL_get_cipher_name(ssl));
            printf("verify:   %s (not required by this check)\n",
                   X509_verify_cert_error_string(verify));
            if (!(g != NULL && g->mlkem) && group_list == NULL)
                printf("note:     offered the configuration's groups; is "
                       "X25519MLKEM768 first in openssl.cnf's Groups? "
                       "(-groups X25519MLKEM768 offers it alone)\n");
        }
        ret = g != NULL && g->mlkem ? EXIT_PQ : EXIT_CLASSICAL;
    }
    SSL_shutdown(ssl);

end:
    SSL_free(ssl);
    if (fd >= 0)
        close(fd);
    SSL_CTX_free(ctx);
    unload_providers();
    return ret;
}
