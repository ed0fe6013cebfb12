/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem_speed.c: mlkem-speed, `openssl speed` for ML-KEM on any OpenSSL 3.
 *
 *   mlkem-speed [options] [ALGORITHM...]
 *
 * Prints the table `openssl speed` prints for KEMs (OpenSSL 3.5+): seconds
 * per keygen / encaps / decaps and operations per second, measured through
 * EVP exactly as `openssl speed` does it (one EVP_PKEY_CTX per operation,
 * EVP_PKEY_keygen, then EVP_PKEY_encapsulate to and EVP_PKEY_decapsulate
 * with one key object, counted for a fixed time). OpenSSL 3.0-3.4 have no
 * `openssl speed ML-KEM-768`; this program runs there too.
 *
 * Default algorithms: ML-KEM-512, ML-KEM-768, ML-KEM-1024, X25519MLKEM768,
 * SecP256r1MLKEM768, SecP384r1MLKEM1024, and X448MLKEM1024 where a loaded
 * provider has it.
 *
 * Two modes:
 *  - comparison (no -provider, no -propquery): loads the mlkem provider and
 *    the default one and measures each algorithm with "provider=mlkem" and,
 *    where OpenSSL has its own (3.5+), "provider=default": rows
 *    ALGORITHM@mlkem and ALGORITHM@default, side by side.
 *  - as `openssl speed` (-provider and/or -propquery given): loads exactly
 *    the providers named (none: the configuration's) and measures once per
 *    algorithm with that property query; each row names the provider that
 *    did the work.
 *
 * Options (those of `openssl speed` that apply):
 *   -seconds N          time per measurement (default 3; openssl uses 10)
 *   -multi N            N processes in parallel; rates are summed
 *   -elapsed            wall-clock time instead of user CPU time (openssl's
 *                       default is user CPU time, as here)
 *   -provider NAME      load a provider (repeatable)
 *   -provider-path DIR  where providers are looked up
 *   -propquery QUERY    property query for every fetch
 *   -mr                 machine-readable output, openssl's: progress lines
 *                       "+DTP:ALG:OP:SECONDS" and "+R15/16/17:COUNT:ALG:TIME"
 *                       (keygen / encaps / decaps) on stderr, one
 *                       "+F9:ROW:KEYGENS:ENCAPS:DECAPS" line per row (per
 *                       second; ROW counts the rows from 0, in the order of
 *                       the progress lines) on stdout, nothing else there
 *
 * Progress goes to stderr ("Doing ... ops for Ns: N ... ops in X.XXs"), and
 * to stdout, as `openssl speed` prints them: the version-and-options header
 * (version, built on, options, compiler, CPUINFO), then the table, then our
 * own lines (each provider's version and build info). An unknown option is
 * named ("mlkem-speed: Unknown option: -x"). Exit status 0, or 1 on any
 * error.
 *
 * References:
 *   [FIPS203] ML-KEM; [OPENSSL-SPEED] openssl-speed(1), apps/speed.c's
 *   KEM table layout (copied as a format, not as code).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#define MAX_ALGS 16
#define MAX_ROWS (2 * MAX_ALGS)
#define MAX_PROVIDERS 8

static const char *const default_algs[] = {
    "ML-KEM-512",     "ML-KEM-768",        "ML-KEM-1024",
    "X25519MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024",
    "X448MLKEM1024",
};
/* Listed by default only where a provider has it (3.5+ built-in). */
#define OPTIONAL_ALG "X448MLKEM1024"

static const char *prog = "mlkem-speed";

/* The providers this program loaded, unloaded before main returns (each
 * load holds a reference that OpenSSL's own clean-up does not drop; an
 * atexit handler could run after that clean-up). */
static OSSL_PROVIDER *loaded[MAX_PROVIDERS];
static int nloaded;

/* Unload them; returns rc, for "return done(rc)". */
static int done(int rc)
{
    while (nloaded > 0)
        OSSL_PROVIDER_unload(loaded[--nloaded]);
    return rc;
}
static volatile sig_atomic_t running;
static int use_elapsed;
static int mr; /* -mr: openssl's machine-readable lines */

enum { OP_KEYGEN, OP_ENCAPS, OP_DECAPS, OPS };
static const char *const op_names[OPS] = { "keygen", "encaps", "decaps" };

/* One row of the table: an algorithm through one property query. */
struct row {
    const char *alg;
    char propq[128];   /* "" = none */
    char label[96];    /* ALGORITHM@provider */
    double rate[OPS];  /* operations per second, summed over -multi */
    int measured;
};

static void on_alarm(int sig)
{
    (void)sig;
    running = 0;
}

static double now_seconds(void)
{
    if (use_elapsed) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    } else {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
    }
}

static int fail(const char *what, const char *alg)
{
    fprintf(stderr, "%s: %s failed for %s\n", prog, what, alg);
    ERR_print_errors_fp(stderr);
    return 0;
}

/* The key, contexts and buffers of one row's measurement. */
struct bench {
    EVP_PKEY_CTX *gen, *enc, *dec;
    EVP_PKEY *pkey;
    unsigned char *ct, *ss1, *ss2;
    size_t ctlen, sslen;
};

static void bench_free(struct bench *b)
{
    EVP_PKEY_CTX_free(b->gen);
    EVP_PKEY_CTX_free(b->enc);
    EVP_PKEY_CTX_free(b->dec);
    EVP_PKEY_free(b->pkey);
    OPENSSL_free(b->ct);
    OPENSSL_clear_free(b->ss1, b->sslen);
    OPENSSL_clear_free(b->ss2, b->sslen);
    memset(b, 0, sizeof(*b));
}

/*
 * Set up as openssl speed does: a keygen context, one key, an encapsulation
 * and a decapsulation context on that key; one encapsulation and
 * decapsulation must agree. Sets *provider to the key's provider name.
 */
static int bench_setup(struct bench *b, const char *alg, const char *propq,
                       const char **provider)
{
    size_t sslen2;

    memset(b, 0, sizeof(*b));
    b->gen = EVP_PKEY_CTX_new_from_name(NULL, alg, propq);
    if (b->gen == NULL || EVP_PKEY_keygen_init(b->gen) <= 0
        || EVP_PKEY_keygen(b->gen, &b->pkey) <= 0)
        return fail("key generation", alg);
    *provider = OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(b->pkey));
    b->enc = EVP_PKEY_CTX_new_from_pkey(NULL, b->pkey, propq);
    b->dec = EVP_PKEY_CTX_new_from_pkey(NULL, b->pkey, propq);
    if (b->enc == NULL || b->dec == NULL
        || EVP_PKEY_encapsulate_init(b->enc, NULL) <= 0
        || EVP_PKEY_decapsulate_init(b->dec, NULL) <= 0
        || EVP_PKEY_encapsulate(b->enc, NULL, &b->ctlen, NULL, &b->sslen) <= 0)
        return fail("encapsulation set-up", alg);
    b->ct = OPENSSL_malloc(b->ctlen);
    b->ss1 = OPENSSL_zalloc(b->sslen);
    b->ss2 = OPENSSL_zalloc(b->sslen);
    if (b->ct == NULL || b->ss1 == NULL || b->ss2 == NULL)
        return fail("allocation", alg);
    sslen2 = b->sslen;
    if (EVP_PKEY_encapsulate(b->enc, b->ct, &b->ctlen, b->ss1, &b->sslen) <= 0
        || EVP_PKEY_decapsulate(b->dec, b->ss2, &sslen2, b->ct, b->ctlen) <= 0)
        return fail("encapsulation / decapsulation", alg);
    if (sslen2 != b->sslen || CRYPTO_memcmp(b->ss1, b->ss2, b->sslen) != 0) {
        fprintf(stderr, "%s: %s: decapsulation does not give the encapsulated "
                "secret\n", prog, alg);
        return 0;
    }
    return 1;
}

/* Run one operation until the alarm; *count ops in *seconds. */
static int bench_run(struct bench *b, int op, int seconds, long *count,
                     double *elapsed)
{
    long n = 0;
    double t0;

    running = 1;
    alarm((unsigned)seconds);
    t0 = now_seconds();
    while (running) {
        int ok;
        if (op == OP_KEYGEN) {
            EVP_PKEY *k = NULL;
            ok = EVP_PKEY_keygen(b->gen, &k) > 0;
            EVP_PKEY_free(k);
        } else if (op == OP_ENCAPS) {
            size_t ctlen = b->ctlen, sslen = b->sslen;
            ok = EVP_PKEY_encapsulate(b->enc, b->ct, &ctlen, b->ss1, &sslen) > 0;
        } else {
            size_t sslen = b->sslen;
            ok = EVP_PKEY_decapsulate(b->dec, b->ss2, &sslen, b->ct, b->ctlen) > 0;
        }
        if (!ok) {
            alarm(0);
            return 0;
        }
        n++;
    }
    *elapsed = now_seconds() - t0;
    *count = n;
    return 1;
}

/*
 * Measure every row in this process. Progress to stderr; in a -multi child,
 * results go to `out` as "R <row> <op> <ops> <seconds>" lines.
 */
static int measure(struct row *rows, int nrows, int seconds, FILE *out)
{
    for (int r = 0; r < nrows; r++) {
        struct bench b;
        const char *provider = "?";

        if (!bench_setup(&b, rows[r].alg, rows[r].propq[0] ? rows[r].propq : NULL,
                         &provider)) {
            bench_free(&b);
            return 0;
        }
        snprintf(rows[r].label, sizeof(rows[r].label), "%s@%s", rows[r].alg,
                 provider);
        for (int op = 0; op < OPS; op++) {
            long n;
            double t;

            if (out == NULL && mr)
                fprintf(stderr, "+DTP:%s:%s:%d\n", rows[r].label, op_names[op],
                        seconds);
            else if (out == NULL)
                fprintf(stderr, "Doing %s %s ops for %ds: ", rows[r].label,
                        op_names[op], seconds);
            if (!bench_run(&b, op, seconds, &n, &t)) {
                fail(op_names[op], rows[r].label);
                bench_free(&b);
                return 0;
            }
            if (out == NULL && mr)
                fprintf(stderr, "+R%d:%ld:%s:%.2f\n", 15 + op, n, rows[r].label, t);
            else if (out == NULL)
                fprintf(stderr, "%ld %s KEM %s ops in %.2fs\n", n,
                        rows[r].label, op_names[op], t);
            else
                fprintf(out, "R %d %d %ld %.6f %s\n", r, op, n, t, rows[r].label);
            rows[r].rate[op] = t > 0 ? (double)n / t : 0;
        }
        rows[r].measured = 1;
        bench_free(&b);
    }
    return 1;
}

/* -multi N: N children measure in parallel; their rates are summed. */
static int measure_multi(struct row *rows, int nrows, int seconds, int multi)
{
    pid_t pids[64];
    FILE *pipes[64];
    int ok = 1;

    fflush(NULL);
    for (int i = 0; i < multi; i++) {
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(stderr, "%s: pipe: %s\n", prog, strerror(errno));
            return 0;
        }
        pids[i] = fork();
        if (pids[i] < 0) {
            fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
            return 0;
        }
        if (pids[i] == 0) {
            FILE *out;
            close(fds[0]);
            out = fdopen(fds[1], "w");
            _exit(out != NULL && measure(rows, nrows, seconds, out)
                          && fclose(out) == 0 ? 0 : 1);
        }
        close(fds[1]);
        pipes[i] = fdopen(fds[0], "r");
        fprintf(stderr, "Forked child %d\n", i);
    }
    for (int r = 0; r < nrows; r++)
        for (int op = 0; op < OPS; op++)
            rows[r].rate[op] = 0;
    for (int i = 0; i < multi; i++) {
        char line[256];
        int status;
        while (pipes[i] != NULL && fgets(line, sizeof(line), pipes[i]) != NULL) {
            int r, op;
            long n;
            double t;
            char label[96];
            if (sscanf(line, "R %d %d %ld %lf %95s", &r, &op, &n, &t, label) == 5
                && r >= 0 && r < nrows && op >= 0 && op < OPS) {
                fprintf(stderr, "child %d: %ld %s KEM %s ops in %.2fs\n", i, n,
                        label, op_names[op], t);
                if (t > 0)
                    rows[r].rate[op] += (double)n / t;
                snprintf(rows[r].label, sizeof(rows[r].label), "%s", label);
                rows[r].measured = 1;
            }
        }
        if (pipes[i] != NULL)
            fclose(pipes[i]);
        if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status)
            || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "%s: child %d failed\n", prog, i);
            ok = 0;
        }
    }
    return ok;
}

/* Does any loaded provider matching propq implement alg as a KEM? */
static int available(const char *alg, const char *propq)
{
    EVP_KEM *kem;
    EVP_KEYMGMT *km;
    int ok;

    ERR_set_mark();
    kem = EVP_KEM_fetch(NULL, alg, propq);
    km = EVP_KEYMGMT_fetch(NULL, alg, propq);
    ok = kem != NULL && km != NULL;
    EVP_KEM_free(kem);
    EVP_KEYMGMT_free(km);
    ERR_pop_to_mark();
    return ok;
}

/* "provider: NAME, version V, build info: B" for every provider loaded. */
static int provider_line(OSSL_PROVIDER *p, void *arg)
{
    const char *version = NULL, *buildinfo = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&version, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0),
        OSSL_PARAM_END,
    };

    (void)arg;
    if (!OSSL_PROVIDER_get_params(p, params))
        ERR_clear_error();
    printf("provider: %s, version %s, build info: %s\n",
           OSSL_PROVIDER_get0_name(p), version != NULL ? version : "?",
           buildinfo != NULL ? buildinfo : "?");
    return 1;
}

static void usage(void)
{
    fprintf(stderr,
            "Usage: %s [options] [ALGORITHM...]\n"
            "Without -provider/-propquery: the mlkem provider and OpenSSL's own\n"
            "ML-KEM (3.5+) side by side. Algorithms (default: all):\n"
            "  ML-KEM-512 ML-KEM-768 ML-KEM-1024 X25519MLKEM768\n"
            "  SecP256r1MLKEM768 SecP384r1MLKEM1024 X448MLKEM1024\n"
            "Options:\n"
            " -help               Display this summary\n"
            " -seconds N          Time per measurement (default 3)\n"
            " -multi N            Run N processes in parallel, rates summed\n"
            " -elapsed            Wall-clock time instead of user CPU time\n"
            " -mr                 Produce machine readable output\n"
            " -provider NAME      Provider to load (can be given several times)\n"
            " -provider-path DIR  Provider load path\n"
            " -propquery QUERY    Property query used when fetching algorithms\n",
            prog);
}

/* An option error, named as openssl names it. */
static int opt_error(const char *fmt, const char *opt)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, opt);
    fprintf(stderr, "\n%s: Use -help for summary.\n", prog);
    return 1;
}

int main(int argc, char **argv)
{
    const char *algs[MAX_ALGS], *providers[MAX_PROVIDERS];
    const char *provider_path = NULL, *propquery = NULL;
    int nalgs = 0, nproviders = 0, seconds = 3, multi = 0, nrows = 0;
    int compare, explicit_algs;
    static struct row rows[MAX_ROWS];
    struct sigaction sa;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;

        if (strcmp(a, "-seconds") == 0 && has_value) {
            seconds = atoi(argv[++i]);
        } else if (strcmp(a, "-multi") == 0 && has_value) {
            multi = atoi(argv[++i]);
            if (multi < 1 || multi > 64) {
                fprintf(stderr, "%s: -multi takes 1 to 64\n", prog);
                return 1;
            }
        } else if (strcmp(a, "-elapsed") == 0) {
            use_elapsed = 1;
        } else if (strcmp(a, "-provider") == 0 && has_value) {
            if (nproviders == MAX_PROVIDERS) {
                fprintf(stderr, "%s: at most %d -provider\n", prog, MAX_PROVIDERS);
                return 1;
            }
            providers[nproviders++] = argv[++i];
        } else if (strcmp(a, "-provider-path") == 0 && has_value) {
            provider_path = argv[++i];
        } else if (strcmp(a, "-propquery") == 0 && has_value) {
            propquery = argv[++i];
        } else if (strcmp(a, "-mr") == 0) {
            mr = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0
                   || strcmp(a, "--help") == 0) {
            usage();
            return 0;
        } else if (!has_value && (strcmp(a, "-seconds") == 0 || strcmp(a, "-multi") == 0
                                  || strcmp(a, "-provider") == 0
                                  || strcmp(a, "-provider-path") == 0
                                  || strcmp(a, "-propquery") == 0)) {
            return opt_error("Option %s needs a value", a);
        } else if (a[0] == '-') {
            return opt_error("Unknown option: %s", a);
        } else {
            if (nalgs == MAX_ALGS) {
                fprintf(stderr, "%s: at most %d algorithms\n", prog, MAX_ALGS);
                return 1;
            }
            algs[nalgs++] = a;
        }
    }
    if (seconds < 1) {
        fprintf(stderr, "%s: -seconds takes a whole number >= 1\n", prog);
        return 1;
    }
    explicit_algs = nalgs > 0;
    if (!explicit_algs)
        for (size_t i = 0; i < sizeof(default_algs) / sizeof(default_algs[0]); i++)
            algs[nalgs++] = default_algs[i];

    compare = nproviders == 0 && propquery == NULL;
    if (provider_path != NULL
        && !OSSL_PROVIDER_set_default_search_path(NULL, provider_path)) {
        fail("setting the provider path", provider_path);
        return 1;
    }
    if (compare) {
        providers[nproviders++] = "mlkem";
        providers[nproviders++] = "default";
    }
    for (int i = 0; i < nproviders; i++) {
        if ((loaded[nloaded] = OSSL_PROVIDER_load(NULL, providers[i])) != NULL) {
            nloaded++;
        } else {
            fprintf(stderr, "%s: cannot load the provider '%s' (looked in %s)\n",
                    prog, providers[i],
                    provider_path != NULL ? provider_path
                    : getenv("OPENSSL_MODULES") != NULL
                        ? "$OPENSSL_MODULES"
                        : "OpenSSL's modules directory, `openssl version -m`; "
                          "use -provider-path DIR");
            ERR_print_errors_fp(stderr);
            return done(1);
        }
    }

    /* The rows: each algorithm through each implementation that has it. */
    for (int a = 0; a < nalgs; a++) {
        const char *queries[2] = { NULL, NULL };
        int nq = 1, found = 0;

        if (compare) {
            queries[0] = "provider=mlkem";
            queries[1] = "provider=default";
            nq = 2;
        } else {
            queries[0] = propquery;
        }
        for (int q = 0; q < nq; q++) {
            if (!available(algs[a], queries[q]))
                continue;
            rows[nrows].alg = algs[a];
            snprintf(rows[nrows].propq, sizeof(rows[nrows].propq), "%s",
                     queries[q] != NULL ? queries[q] : "");
            nrows++;
            found = 1;
        }
        if (!found && (explicit_algs || strcmp(algs[a], OPTIONAL_ALG) != 0)) {
            fprintf(stderr, "%s: no loaded provider implements %s%s%s\n", prog,
                    algs[a], queries[0] ? " with " : "",
                    queries[0] ? queries[0] : "");
            return done(1);
        }
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGALRM, &sa, NULL) != 0) {
        fprintf(stderr, "%s: sigaction: %s\n", prog, strerror(errno));
        return done(1);
    }
    if (use_elapsed && !mr)
        fprintf(stderr, "You have chosen to measure elapsed time instead of "
                "user CPU time.\n");
    if (multi > 0 ? !measure_multi(rows, nrows, seconds, multi)
                  : !measure(rows, nrows, seconds, NULL))
        return done(1);

    for (int r = 0; r < nrows; r++) {
        const double *v = rows[r].rate;
        if (!rows[r].measured || v[0] <= 0 || v[1] <= 0 || v[2] <= 0) {
            fprintf(stderr, "%s: no result for %s\n", prog, rows[r].label);
            return done(1);
        }
    }
    if (mr) {
        for (int r = 0; r < nrows; r++)
            printf("+F9:%d:%f:%f:%f\n", r, rows[r].rate[0], rows[r].rate[1],
                   rows[r].rate[2]);
        return done(0);
    }
    /* openssl speed's header, line for line (apps/speed.c, show_res). */
    printf("version: %s\n", OpenSSL_version(OPENSSL_FULL_VERSION_STRING));
    printf("%s\n", OpenSSL_version(OPENSSL_BUILT_ON));
    printf("options: %s\n", BN_options());
    printf("%s\n", OpenSSL_version(OPENSSL_CFLAGS));
    printf("%s\n", OpenSSL_version(OPENSSL_CPU_INFO));
    printf("%31skeygen    encaps    decaps keygens/s  encaps/s  decaps/s\n", " ");
    for (int r = 0; r < nrows; r++) {
        const double *v = rows[r].rate;
        printf("%27s %8.6fs %8.6fs %8.6fs %9.1f %9.1f %9.1f\n", rows[r].label,
               1.0 / v[0], 1.0 / v[1], 1.0 / v[2], v[0], v[1], v[2]);
    }
    printf("library: %s\n", OpenSSL_version(OPENSSL_VERSION));
    OSSL_PROVIDER_do_all(NULL, provider_line, NULL);
    if (compare) {
        int builtin = 0;
        for (int r = 0; r < nrows; r++)
            builtin |= strcmp(rows[r].propq, "provider=default") == 0;
        if (!builtin)
            printf("built-in: none (OpenSSL has its own ML-KEM from 3.5 on)\n");
    }
    if (multi > 0)
        printf("multi: %d processes, rates summed\n", multi);
    return done(0);
}
