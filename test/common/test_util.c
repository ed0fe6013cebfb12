/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_util.c: see test_util.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "test/common/test_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/provider.h>

void test_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("SKIP: ", stdout);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    fflush(stdout);
    exit(TEST_EXIT_SKIP);
}

static atomic_int checks, failures;

/* Failure messages beyond this many are counted, not printed (a broken
 * kernel fails the same check thousands of times). */
#define TEST_MAX_MESSAGES 50

/* Count a check; on failure print its message and this thread's OpenSSL
 * errors (each line one fprintf, so threads do not interleave within a
 * line). */
static int check_va(int ok, const char *file, int line, const char *fmt,
                    va_list ap)
{
    unsigned long e;
    const char *efile, *efunc, *data;
    int eline, flags, n;
    char buf[256], msg[1024];

    atomic_fetch_add(&checks, 1);
    if (ok)
        return 1;
    n = atomic_fetch_add(&failures, 1);
    if (n >= TEST_MAX_MESSAGES) {
        if (n == TEST_MAX_MESSAGES)
            fprintf(stderr, "FAIL: (further failure messages suppressed)\n");
        ERR_clear_error();
        return 0;
    }
    vsnprintf(msg, sizeof(msg), fmt, ap);
    fflush(stdout); /* keep stdout and stderr lines in order in CTest logs */
    fprintf(stderr, "FAIL: %s:%d: %s\n", file, line, msg);
    while ((e = ERR_get_error_all(&efile, &eline, &efunc, &data, &flags)) != 0) {
        ERR_error_string_n(e, buf, sizeof(buf));
        fprintf(stderr, "    openssl: %s (%s:%d %s)%s%s\n", buf, efile, eline,
                efunc, (flags & ERR_TXT_STRING) ? ": " : "",
                (flags & ERR_TXT_STRING) ? data : "");
    }
    return 0;
}

int test_check_at(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    int r;

    va_start(ap, fmt);
    r = check_va(ok, file, line, fmt, ap);
    va_end(ap);
    return r;
}

void test_require_at(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    ok = check_va(ok, file, line, fmt, ap);
    va_end(ap);
    if (!ok) {
        fflush(NULL);
        abort();
    }
}

int test_check_count(void)
{
    return atomic_load(&checks);
}

int test_failure_count(void)
{
    return atomic_load(&failures);
}

int test_finish(const char *name)
{
    int n = atomic_load(&failures), c = atomic_load(&checks);

    /* A program that checked nothing proves nothing. */
    if (c == 0) {
        fprintf(stderr, "%s: FAIL: no check ran\n", name);
        return 1;
    }
    if (n != 0) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, n, c);
        return 1;
    }
    printf("%s: all %d checks passed\n", name, c);
    return 0;
}

/* ---- the seeded generator ------------------------------------------------ */

void test_rng_init(test_rng *r, const char *label)
{
    test_shake128_init(&r->x);
    test_shake_absorb(&r->x, (const uint8_t *)label, strlen(label));
}

void test_rng_bytes(test_rng *r, uint8_t *out, size_t len)
{
    test_shake_squeeze(&r->x, out, len);
}

uint32_t test_rng_u32(test_rng *r)
{
    uint8_t b[4];
    test_rng_bytes(r, b, 4);
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
           ((uint32_t)b[3] << 24);
}

uint64_t test_rng_u64(test_rng *r)
{
    return (uint64_t)test_rng_u32(r) | ((uint64_t)test_rng_u32(r) << 32);
}

uint64_t test_rng_below(test_rng *r, uint64_t n)
{
    return test_rng_u64(r) % n;
}

/* ---- hex ------------------------------------------------------------------ */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int test_hex_decode(uint8_t *out, size_t outlen, const char *hex,
                    size_t hexlen)
{
    if (hex == NULL || hexlen / 2 != outlen || hexlen % 2 != 0)
        return -1;
    for (size_t i = 0; i < outlen; i++) {
        int hi = hex_digit(hex[2 * i]);
        int lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

uint8_t *test_hex_decode_alloc(const char *hex, size_t *outlen)
{
    size_t hexlen = strlen(hex);
    uint8_t *out;

    if (hexlen % 2 != 0)
        return NULL;
    out = malloc(hexlen / 2 + 1); /* +1: a valid pointer for "" */
    if (out == NULL)
        return NULL;
    if (test_hex_decode(out, hexlen / 2, hex, hexlen) != 0) {
        free(out);
        return NULL;
    }
    *outlen = hexlen / 2;
    return out;
}

void test_hex_encode(char *out, const uint8_t *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

/* ---- files ---------------------------------------------------------------- */

/* Read a stream to its end into a new NUL-terminated buffer. */
static char *read_stream(FILE *f, size_t *len, const char *what)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);

    if (buf == NULL) {
        TEST_FAIL("%s: out of memory", what);
        return NULL;
    }
    for (;;) {
        size_t got;
        if (cap - n < 2) {
            char *nb;
            if (cap > ((size_t)1 << 30)) {
                TEST_FAIL("%s: larger than 1 GiB", what);
                free(buf);
                return NULL;
            }
            nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                TEST_FAIL("%s: out of memory", what);
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        TEST_FAIL("%s: read error", what);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;

    if (f == NULL) {
        TEST_FAIL("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    buf = read_stream(f, len, path);
    fclose(f);
    return buf;
}

char *test_read_gzip(const char *path, size_t *len)
{
    char cmd[4200];
    FILE *p;
    char *buf;
    int status;
    struct stat st;

    /* The path goes inside single quotes; refuse one that could break out. */
    if (strchr(path, '\'') != NULL || strlen(path) > 4000) {
        TEST_FAIL("%s: unsupported path for gzip", path);
        return NULL;
    }
    /* popen() would report a missing file only through gzip's exit status. */
    if (stat(path, &st) != 0) {
        TEST_FAIL("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    snprintf(cmd, sizeof(cmd), "gzip -dc -- '%s'", path);
    p = popen(cmd, "r");
    if (p == NULL) {
        TEST_FAIL("cannot run gzip for %s: %s", path, strerror(errno));
        return NULL;
    }
    buf = read_stream(p, len, path);
    status = pclose(p);
    if (buf != NULL && status != 0) {
        TEST_FAIL("%s: `gzip -dc` failed (status %d)", path, status);
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- vectors directory ----------------------------------------------------- */

static char vectors_dir[4096];

const char *test_vectors_dir(const char *what)
{
    const char *dir = getenv("MLKEM_VECTORS_DIR");
    struct stat st;

    /* The vectors ship with the repository and the build unpacks them, so
     * a missing directory is a broken set-up: fail, do not skip. */
    if (dir == NULL || dir[0] == '\0') {
        TEST_FAIL("%s: MLKEM_VECTORS_DIR is not set (ctest sets it to the "
                  "build tree's vectors/, unpacked from test/vectors/data)",
                  what);
        exit(1);
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        TEST_FAIL("%s: MLKEM_VECTORS_DIR=%s is not a directory (the build "
                  "unpacks test/vectors/data there: build the target "
                  "mlkem_vectors_data)", what, dir);
        exit(1);
    }
    if (strlen(dir) >= sizeof(vectors_dir) - 256) {
        TEST_FAIL("%s: MLKEM_VECTORS_DIR is too long", what);
        exit(1);
    }
    strcpy(vectors_dir, dir);
    return vectors_dir;
}

const char *test_vectors_path(const char *rel)
{
    static char path[sizeof(vectors_dir) + 512];
    snprintf(path, sizeof(path), "%s/%s",
             vectors_dir[0] ? vectors_dir : ".", rel);
    return path;
}

/* ---- name = value --------------------------------------------------------- */

int test_kv_parse(test_kv *kv, const char *text, size_t len)
{
    size_t lines = 1, n = 0;
    char *p, *end;

    memset(kv, 0, sizeof(*kv));
    kv->buf = malloc(len + 1);
    if (kv->buf == NULL)
        return -1;
    memcpy(kv->buf, text, len);
    kv->buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        lines += kv->buf[i] == '\n';
    kv->names = calloc(lines, sizeof(*kv->names));
    kv->values = calloc(lines, sizeof(*kv->values));
    if (kv->names == NULL || kv->values == NULL) {
        test_kv_free(kv);
        return -1;
    }
    p = kv->buf;
    end = kv->buf + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *line_end = nl != NULL ? nl : end;
        char *sep;

        *line_end = '\0';
        /* a NUL inside the line ends it early: harmless, just shorter */
        sep = strstr(p, " = ");
        if (sep != NULL && n < lines) {
            char *v = sep + 3;
            char *ve = v + strlen(v);
            char *ne = sep;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r' ||
                              ve[-1] == '\t'))
                *--ve = '\0';
            while (ne > p && (ne[-1] == ' ' || ne[-1] == '\t'))
                ne--;
            *ne = '\0';
            kv->names[n] = p;
            kv->values[n] = v;
            n++;
        }
        p = line_end + 1;
    }
    kv->n = n;
    return 0;
}

void test_kv_free(test_kv *kv)
{
    free(kv->buf);
    free(kv->names);
    free(kv->values);
    memset(kv, 0, sizeof(*kv));
}

const char *test_kv_get(const test_kv *kv, const char *name)
{
    for (size_t i = 0; i < kv->n; i++)
        if (strcmp(kv->names[i], name) == 0)
            return kv->values[i];
    return NULL;
}

int test_kv_hex(const test_kv *kv, const char *name, uint8_t *out,
                size_t outlen, const char *where)
{
    const char *v = test_kv_get(kv, name);
    if (v == NULL) {
        TEST_FAIL("%s: no value named '%s'", where, name);
        return -1;
    }
    if (test_hex_decode(out, outlen, v, strlen(v)) != 0) {
        TEST_FAIL("%s: '%s' is not %zu bytes of hex (%zu characters)", where,
                  name, outlen, strlen(v));
        return -1;
    }
    return 0;
}

/* ---- comparisons and time --------------------------------------------------- */

int test_bytes_eq(const char *what, const uint8_t *got, const uint8_t *exp,
                  size_t len)
{
    size_t i, from, n;
    char hg[2 * 16 + 1], he[2 * 16 + 1];

    for (i = 0; i < len; i++)
        if (got[i] != exp[i])
            break;
    if (i == len)
        return 1;
    from = i >= 4 ? i - 4 : 0;
    n = len - from < 16 ? len - from : 16;
    test_hex_encode(hg, got + from, n);
    test_hex_encode(he, exp + from, n);
    fflush(stdout);
    fprintf(stderr,
            "    %s: mismatch at byte %zu of %zu\n"
            "      expected [%zu..]: %s\n"
            "      got      [%zu..]: %s\n",
            what, i, len, from, he, from, hg);
    return 0;
}

double test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    const char *provider;
    int n;
} decoder_count;

static void count_decoder(OSSL_DECODER *d, void *arg)
{
    decoder_count *c = arg;
    const OSSL_PROVIDER *p = OSSL_DECODER_get0_provider(d);

    if (p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), c->provider) == 0)
        c->n++;
}

int test_provider_decoders(OSSL_LIB_CTX *libctx, const char *provider)
{
    decoder_count c = { provider, 0 };

    OSSL_DECODER_do_all_provided(libctx, count_decoder, &c);
    return c.n;
}

/* ---- the environment ----------------------------------------------------- */

int test_env_open(test_env *e, const char *moddir, const char *config)
{
    memset(e, 0, sizeof(*e));
    if ((e->libctx = OSSL_LIB_CTX_new()) == NULL) {
        TEST_FAIL("OSSL_LIB_CTX_new");
        return 0;
    }
    if (config != NULL && OSSL_LIB_CTX_load_config(e->libctx, config) != 1) {
        TEST_FAIL("cannot load the configuration %s", config);
        goto err;
    }
    if (moddir != NULL
        && (!OSSL_PROVIDER_set_default_search_path(e->libctx, moddir)
            || (e->mlkem = OSSL_PROVIDER_load(e->libctx, "mlkem")) == NULL)) {
        TEST_FAIL("cannot load mlkem.so from %s", moddir);
        goto err;
    }
    if ((e->deflt = OSSL_PROVIDER_load(e->libctx, "default")) == NULL) {
        TEST_FAIL("cannot load the default provider");
        goto err;
    }
    return 1;
err:
    test_env_close(e);
    return 0;
}

void test_env_close(test_env *e)
{
    if (e->mlkem != NULL)
        OSSL_PROVIDER_unload(e->mlkem);
    if (e->deflt != NULL)
        OSSL_PROVIDER_unload(e->deflt);
    /* A loaded provider's reference outlives OSSL_LIB_CTX_free (3.0):
     * each one this environment loaded is unloaded first. */
    if (e->extra != NULL)
        OSSL_PROVIDER_unload(e->extra);
    OSSL_LIB_CTX_free(e->libctx);
    memset(e, 0, sizeof(*e));
}
