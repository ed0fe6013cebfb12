/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_util.h: small helpers shared by the test programs.
 *
 *   - visible skips (exit code 77, which mlkem_add_test() maps to SKIP);
 *   - counted checks (TEST_CHECK, TEST_FAIL, TEST_REQUIRE, test_finish): the
 *     one way every C test program (fuzz targets, hardening and vector
 *     tests included) asserts and reports, thread-safe, printing the
 *     OpenSSL error queue on failure;
 *   - a seeded deterministic generator (test_rng), the one source of test
 *     inputs, so every failure reproduces;
 *   - hex decode / encode (case-insensitive input, lowercase output);
 *   - reading a whole file, or a gzip file through `gzip -dc`;
 *   - locating the third-party vectors (env MLKEM_VECTORS_DIR);
 *   - a "name = value" line reader for the CCTV text files;
 *   - byte comparison with a readable diff, and a monotonic clock.
 *
 * Every reader reports a malformed or missing input as a failed check
 * (TEST_FAIL) and an error return; none of them aborts, so a bad file
 * becomes a test failure with a reason, never a crash.
 */
#ifndef MLKEM_TEST_UTIL_H
#define MLKEM_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TEST_NORETURN __attribute__((noreturn))
#else
#define TEST_PRINTF(f, a)
#define TEST_NORETURN
#endif

/* The exit code CTest reports as a skip (SKIP_RETURN_CODE in test/CMakeLists). */
#define TEST_EXIT_SKIP 77

/* Print "SKIP: <reason>" on stdout and exit(77). */
TEST_NORETURN void test_skip(const char *fmt, ...) TEST_PRINTF(1, 2);

/* Counted checks, the one way the C tests assert and report:
 * TEST_CHECK(cond, fmt, ...) counts a check and evaluates to cond (1 or
 * 0), so it also serves as `if (!TEST_CHECK(...)) return;`. A failure
 * prints "FAIL: file:line: <message>" on stderr, then the OpenSSL error
 * queue (one "    openssl: ..." line per error, oldest first), which it
 * clears; each message is one write, so lines of concurrent threads do not
 * mix. TEST_FAIL(fmt, ...) is a check that failed (a broken input file, a
 * call that could not be made). test_finish(name) prints the verdict and
 * returns the exit code (0 when at least one check ran and none failed,
 * else 1). The counters are
 * atomic: checks may run in several threads at once. Only the first 50
 * failure messages are printed; every failure is counted. A body that
 * reports its own count reads test_failure_count() before and after.
 * Helpers that only explain a failure their caller checks (test_bytes_eq)
 * print indented detail lines and count nothing. */
int test_check_at(int ok, const char *file, int line, const char *fmt, ...)
    TEST_PRINTF(4, 5);
#define TEST_CHECK(cond, ...)                                                  \
    test_check_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define TEST_FAIL(...) ((void)test_check_at(0, __FILE__, __LINE__, __VA_ARGS__))
/* TEST_REQUIRE(cond, fmt, ...): TEST_CHECK, and on failure abort() after
 * the message. For the fuzz targets, whose oracles must crash so that
 * libFuzzer keeps the input, and for set-up without which nothing else
 * can run. */
void test_require_at(int ok, const char *file, int line, const char *fmt, ...)
    TEST_PRINTF(4, 5);
#define TEST_REQUIRE(cond, ...)                                                \
    test_require_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
int test_check_count(void);   /* checks so far */
int test_failure_count(void); /* failed checks so far */
int test_finish(const char *name);

/* ---- the seeded generator ------------------------------------------------ */

/* SHAKE128 of a label (test/common's independent SHAKE): the same label
 * gives the same stream on every run and every machine. */
#include "test/common/test_shake.h"
typedef struct {
    test_shake x;
} test_rng;

void test_rng_init(test_rng *r, const char *label);
void test_rng_bytes(test_rng *r, uint8_t *out, size_t len);
uint32_t test_rng_u32(test_rng *r);
uint64_t test_rng_u64(test_rng *r);
/* Uniform in [0, n) for n > 0 (the bias of a 64-bit modulo is negligible
 * for test sizes). */
uint64_t test_rng_below(test_rng *r, uint64_t n);

/* Decode exactly `hexlen` hex digits into exactly `outlen` bytes: returns 0,
 * or -1 (with nothing promised about out) if hexlen != 2 * outlen or a
 * character is not a hex digit. */
int test_hex_decode(uint8_t *out, size_t outlen, const char *hex,
                    size_t hexlen);

/* Decode a NUL-terminated hex string of any even length into a new buffer
 * (*outlen bytes; free() it). NULL on odd length, bad digit or no memory. */
uint8_t *test_hex_decode_alloc(const char *hex, size_t *outlen);

/* Lowercase hex of len bytes into out (2 * len + 1 bytes, NUL-terminated). */
void test_hex_encode(char *out, const uint8_t *in, size_t len);

/* Read a whole file into a new NUL-terminated buffer (*len excludes the NUL;
 * free() it). NULL with a message on stderr on any error. */
char *test_read_file(const char *path, size_t *len);

/* The same for a gzip file, decompressed by running `gzip -dc` (popen). */
char *test_read_gzip(const char *path, size_t *len);

/* The vectors directory from env MLKEM_VECTORS_DIR (CTest sets it; by
 * default the build tree's unpacked copy of test/vectors/data). Unset,
 * empty, or not an existing directory: fail the test (exit 1) with a message
 * naming what the test `what` needs. */
const char *test_vectors_dir(const char *what);

/* "<vectors dir>/<rel>" in a static buffer that each call overwrites. */
const char *test_vectors_path(const char *rel);

/* ---- "name = value" text (CCTV files) ----------------------------------- */

/* Lines of the form "name = value", split in place. Lines without " = " are
 * ignored (comments, blank lines). Names may be UTF-8. */
typedef struct {
    char *buf;            /* owned copy of the text */
    size_t n;             /* number of entries */
    const char **names;
    const char **values;  /* trailing spaces and '\r' removed */
} test_kv;

/* Parse text (len bytes; need not be NUL-terminated). 0 or -1 (no memory). */
int test_kv_parse(test_kv *kv, const char *text, size_t len);
void test_kv_free(test_kv *kv);
/* First value named `name`, or NULL. */
const char *test_kv_get(const test_kv *kv, const char *name);
/* Hex-decode the first value named `name` into exactly outlen bytes: 0, or -1
 * with a message naming `where` (missing, wrong length, bad digit). */
int test_kv_hex(const test_kv *kv, const char *name, uint8_t *out,
                size_t outlen, const char *where);

/* ---- comparisons and time ------------------------------------------------ */

/* 1 if equal. Otherwise print "    <what>: mismatch at byte i" with the
 * expected and actual values around it (detail lines on stderr, nothing
 * counted) and return 0: use it inside TEST_CHECK. */
int test_bytes_eq(const char *what, const uint8_t *got, const uint8_t *exp,
                  size_t len);

/* Monotonic seconds. */
double test_now(void);

/* How many decoders the provider named `provider` offers in a library
 * context (OSSL_DECODER_do_all_provided). */
struct ossl_lib_ctx_st;
struct ossl_provider_st;
int test_provider_decoders(struct ossl_lib_ctx_st *libctx,
                           const char *provider);

/* ---- the environment: a library context with our provider ----------------- */

/* What the EVP, TLS, hardening and fuzz tests run in. test_env_open makes a
 * new library context, loads the openssl.cnf `config` into it (NULL: none),
 * then mlkem.so from `moddir` (NULL: not loaded) and the default provider,
 * in that order (a provider the configuration loaded already is the
 * instance OSSL_PROVIDER_load returns). Returns 1, or 0 after a counted
 * failure naming what could not be loaded; test_env_close is safe on a
 * failed or zeroed environment. */
typedef struct {
    struct ossl_lib_ctx_st *libctx;
    struct ossl_provider_st *mlkem; /* NULL when not loaded */
    struct ossl_provider_st *deflt;
    struct ossl_provider_st *extra; /* a test's own provider, or NULL */
} test_env;

int test_env_open(test_env *e, const char *moddir, const char *config);
void test_env_close(test_env *e);

#endif /* MLKEM_TEST_UTIL_H */
