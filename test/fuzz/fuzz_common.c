/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_common.c: see fuzz_common.h.
 */
#include "test/fuzz/fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#ifndef MLKEM_FUZZ_PROVIDER_DIR
#define MLKEM_FUZZ_PROVIDER_DIR "."
#endif

static test_env env;
static int env_ready;

#define MAX_COUNTERS 32
static struct {
    const char *what;
    unsigned long n;
} counters[MAX_COUNTERS];

void fuzz_count(const char *what)
{
    for (size_t i = 0; i < MAX_COUNTERS; i++) {
        if (counters[i].what == NULL)
            counters[i].what = what;
        if (counters[i].what == what || strcmp(counters[i].what, what) == 0) {
            counters[i].n++;
            return;
        }
    }
}

static void fuzz_report(void)
{
    fprintf(stderr, "fuzz counters:");
    for (size_t i = 0; i < MAX_COUNTERS && counters[i].what != NULL; i++)
        fprintf(stderr, " %s=%lu", counters[i].what, counters[i].n);
    fputc('\n', stderr);
}

const char *fuzz_provider_dir(void)
{
    const char *dir = getenv("MLKEM_PROVIDER_DIR");
    return dir != NULL && *dir != '\0' ? dir : MLKEM_FUZZ_PROVIDER_DIR;
}

test_env *fuzz_env(void)
{
    if (!env_ready) {
        const char *dir = fuzz_provider_dir();
        TEST_REQUIRE(test_env_open(&env, dir, NULL),
                     "cannot load mlkem from %s", dir);
        env_ready = 1;
        atexit(fuzz_report);
    }
    return &env;
}

void fuzz_served_by_mlkem(const EVP_PKEY *k, const char *what)
{
    TEST_REQUIRE(hard_served_by_mlkem(k), "%s: key not served by mlkem", what);
    fuzz_count(what);
}

void fuzz_rejected(const char *what)
{
    TEST_REQUIRE(ERR_peek_error() != 0, "%s: failed without an error", what);
    ERR_clear_error();
    fuzz_count(what);
}

uint8_t fuzz_byte(fuzz_in *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

size_t fuzz_len16(fuzz_in *in)
{
    size_t hi = fuzz_byte(in);
    return (hi << 8) | fuzz_byte(in);
}

const uint8_t *fuzz_take(fuzz_in *in, size_t len, size_t *got)
{
    const uint8_t *p = in->p;
    *got = len < in->n ? len : in->n;
    in->p += *got;
    in->n -= *got;
    return p;
}

void fuzz_check_key(EVP_PKEY *k, const char *what)
{
    test_env *e = fuzz_env();
    uint8_t pub[1700], pub2[1700], ct[1700], ss1[80], ss2[80];
    size_t publen = 0, publen2 = 0, ctlen = sizeof(ct), s1 = sizeof(ss1),
           s2 = sizeof(ss2);
    uint8_t *der = NULL;
    size_t derlen = 0;
    EVP_PKEY *k2;

    fuzz_served_by_mlkem(k, what);
    TEST_REQUIRE(hard_get_pub(k, pub, sizeof(pub), &publen), "%s: no ek", what);
    /* Public round trip: SPKI DER out and back in. */
    TEST_REQUIRE(hard_encode(k, EVP_PKEY_PUBLIC_KEY, "DER",
                                 "SubjectPublicKeyInfo", NULL, &der, &derlen),
                     "%s: SPKI encode", what);
    k2 = hard_decode(e, "DER", der, derlen, NULL);
    TEST_REQUIRE(k2 != NULL && hard_get_pub(k2, pub2, sizeof(pub2), &publen2)
                         && publen2 == publen && memcmp(pub, pub2, publen) == 0,
                     "%s: SPKI round trip", what);
    EVP_PKEY_free(k2);
    OPENSSL_free(der);
    der = NULL;
    /* Private key: PKCS#8 round trip and a working key pair. */
    if (EVP_PKEY_get_octet_string_param(k, "priv", NULL, 0, &s1) == 1) {
        TEST_REQUIRE(hard_encode(k, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo",
                                     NULL, &der, &derlen),
                         "%s: PKCS#8 encode", what);
        k2 = hard_decode(e, "DER", der, derlen, NULL);
        TEST_REQUIRE(k2 != NULL
                             && hard_get_pub(k2, pub2, sizeof(pub2), &publen2)
                             && publen2 == publen && memcmp(pub, pub2, publen) == 0,
                         "%s: PKCS#8 round trip", what);
        EVP_PKEY_free(k2);
        OPENSSL_clear_free(der, derlen);
        s1 = sizeof(ss1);
        TEST_REQUIRE(hard_encaps(e, k, NULL, ct, &ctlen, ss1, &s1)
                             && hard_decaps(e, k, ct, ctlen, ss2, &s2) && s1 == s2
                             && memcmp(ss1, ss2, s1) == 0,
                         "%s: the key pair does not work", what);
    }
    ERR_clear_error();
}
