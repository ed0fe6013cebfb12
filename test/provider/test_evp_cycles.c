/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_cycles.c: errors of a long-lived mlkem instance keep their text
 * while other threads load and unload the provider many times.
 *
 * OpenSSL gives every provider object (every OSSL_PROVIDER_load, and every
 * mirror a child library context makes of it) a new error library number
 * from ERR_get_next_error_library(), never reuses one, and packs it into the
 * 8-bit library field of an error code (ERR_PACK). After 128 numbers the
 * packed values repeat, so a number given to a short-lived object aliases a
 * long-lived one; when the short-lived object had loaded reason strings, its
 * unload (ERR_unload_strings) deletes the entries of both. Before mlkem.so
 * kept one process-wide library number for its strings, about 64 cycles of
 * loading "mlkem" and "default" were enough: a long-lived instance's errors
 * then printed as "lib(128)" / "reason(104)".
 *
 * The suite:
 *   1. counts the error library numbers one load of mlkem + default takes
 *      (3: no mirror of mlkem in its own child library context), and how
 *      many of them carry the "mlkem" library name (printed);
 *   2. runs THREADS x CYCLES load/unload cycles, each in a fresh library
 *      context, while the main thread keeps raising errors through a
 *      long-lived instance; every one of them must carry the library name
 *      "mlkem" and its reason string;
 *   3. checks that the cycles used at least 256 numbers, so every packed
 *      value was handed out again at least once (otherwise step 2 could not
 *      fail).
 */
#include "test/provider/evp_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>

#define THREADS 4
#define CYCLES 50
#define ERRORS_AFTER 50 /* raised once the cycling threads are done */

typedef struct {
    const char *moddir;
    atomic_int *done;
    int id;
    int failed; /* cycles that could not load the provider */
} cycler_arg;

static void *cycler(void *varg)
{
    cycler_arg *a = varg;

    for (int i = 0; i < CYCLES; i++) {
        test_env e;

        if (!test_env_open(&e, a->moddir, NULL)) {
            a->failed++;
            continue;
        }
        test_env_close(&e);
    }
    atomic_fetch_add(a->done, 1);
    OPENSSL_thread_stop();
    return NULL;
}

/* Raise one error through the long-lived instance: a 5-byte ML-KEM-512
 * public key. Returns 1 if the error names "mlkem" and "invalid key
 * length"; otherwise copies its printed form into shown. */
static int raise_and_read(test_env *e, char *shown, size_t cap)
{
    static const uint8_t junk[5] = { 0 };
    EVP_PKEY *k;
    unsigned long err;
    const char *lib, *reason;
    int ok;

    ERR_clear_error();
    k = evp_import(e, "ML-KEM-512", EVP_PKEY_PUBLIC_KEY, junk, sizeof(junk),
                   NULL, 0, NULL, 0);
    EVP_PKEY_free(k);
    err = ERR_peek_error();
    lib = ERR_lib_error_string(err);
    reason = ERR_reason_error_string(err);
    ok = k == NULL && err != 0 && lib != NULL && strcmp(lib, "mlkem") == 0
         && reason != NULL && strcmp(reason, R_KEY_LENGTH) == 0;
    if (!ok)
        ERR_error_string_n(err, shown, cap);
    ERR_clear_error();
    return ok;
}

/* Error library numbers one load of mlkem + default takes, and how many of
 * them name "mlkem" while loaded. */
static void count_numbers(const char *moddir)
{
    test_env t;
    int before, during, after, named = 0;

    before = ERR_get_next_error_library();
    if (!TEST_CHECK(test_env_open(&t, moddir, NULL), "measuring instance"))
        return;
    during = ERR_get_next_error_library();
    for (int lib = before + 1; lib < during; lib++) {
        const char *s = ERR_lib_error_string(ERR_PACK(lib, 0, 0));
        named += s != NULL && strcmp(s, "mlkem") == 0;
    }
    test_env_close(&t);
    after = ERR_get_next_error_library();
    printf("   one load of mlkem + default: %d error library numbers, %d of "
           "them with mlkem's strings\n", during - before - 1, named);
    /* mlkem, default, and default's mirror in mlkem's child library
     * context; a fourth would be a mirror of mlkem itself there, which
     * provider/child.c keeps out (it would hold the instance active). */
    TEST_CHECK(during - before - 1 == 3, "one load took %d numbers, not 3",
               during - before - 1);
    TEST_CHECK(after == during + 1, "closing an instance took %d numbers",
          after - during - 1);
}

void evp_suite_cycles(const char *moddir)
{
    test_env live;
    pthread_t t[THREADS];
    cycler_arg args[THREADS];
    int started[THREADS] = { 0 };
    atomic_int done = 0;
    int first, last, raised = 0, bad = 0, nthreads = 0;
    char shown[256] = "";

    if (!TEST_CHECK(test_env_open(&live, moddir, NULL), "long-lived instance"))
        return;
    count_numbers(moddir);

    first = ERR_get_next_error_library();
    for (int i = 0; i < THREADS; i++) {
        args[i].moddir = moddir;
        args[i].done = &done;
        args[i].id = i;
        args[i].failed = 0;
        started[i] = pthread_create(&t[i], NULL, cycler, &args[i]) == 0;
        TEST_CHECK(started[i], "pthread_create %d", i);
        nthreads += started[i];
    }
    /* The long-lived instance raises errors while the others cycle... */
    while (atomic_load(&done) < nthreads) {
        raised++;
        bad += !raise_and_read(&live, shown, sizeof(shown));
    }
    for (int i = 0; i < THREADS; i++) {
        if (!started[i])
            continue;
        pthread_join(t[i], NULL);
        TEST_CHECK(args[i].failed == 0, "thread %d: %d of %d loads failed", i,
              args[i].failed, CYCLES);
    }
    /* ...and after they are all gone. */
    for (int i = 0; i < ERRORS_AFTER; i++) {
        raised++;
        bad += !raise_and_read(&live, shown, sizeof(shown));
    }
    last = ERR_get_next_error_library();
    printf("   %d threads x %d load/unload cycles took %d error library "
           "numbers; %d errors raised by the long-lived instance, %d without "
           "their strings\n", nthreads, CYCLES, last - first - 1, raised, bad);
    TEST_CHECK(bad == 0, "%d of %d errors of the long-lived instance lost their "
          "strings, e.g. \"%s\"", bad, raised, shown);
    /* Every packed library value was handed out again at least once. */
    TEST_CHECK(last - first - 1 >= 256, "the cycles took only %d numbers, fewer "
          "than the 256 packed values: the test cannot fail",
          last - first - 1);
    test_env_close(&live);
}
