/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evp_util.h: helpers for the EVP tests of mlkem.so (test_evp*.c).
 *
 * Everything goes through public OpenSSL 3.0 API only, in a private library
 * context with mlkem.so and "default" loaded, fetching with the property
 * query "provider=mlkem". Checks (TEST_CHECK) count failures instead of
 * aborting, so one run reports every broken case.
 */
#ifndef MLKEM_TEST_EVP_UTIL_H
#define MLKEM_TEST_EVP_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#include "provider/reasons.h"
#include "test/common/test_util.h"

#define EVP_TEST_PROPQ "provider=mlkem"

/* One variant of ML-KEM as the tests see it (sizes from FIPS 203 Table 3). */
typedef struct {
    const char *name; /* "ML-KEM-768" */
    const char *alias, *sn, *oid;
    int bits, secbits;
    size_t ek, dk, ct;
} evp_variant;

extern const evp_variant evp_variants[3];
const evp_variant *evp_variant_by_name(const char *name);

/* Expected reason strings, checked verbatim: R_<name> is the text of the
 * provider's MLKEM_R_<name> (provider/reasons.h, the one list). */
#define EVP_REASON_TEXT(name, number, text) static const char R_##name[] = text;
MLKEM_REASONS(EVP_REASON_TEXT)
#undef EVP_REASON_TEXT
/* The shorter names the tests use. */
#define R_DK_HASH R_DK_HASH_MISMATCH
#define R_KEY_LENGTH R_BAD_KEY_LENGTH
#define R_CT_LENGTH R_BAD_CIPHERTEXT_LENGTH
#define R_SEED_LENGTH R_BAD_SEED_LENGTH
#define R_SEED_MISMATCH R_SEED_KEY_MISMATCH
#define R_PCT R_PCT_FAILED
#define R_IKME_LENGTH R_BAD_IKME_LENGTH

/* The environment is test/common's test_env: test_env_open(e, moddir, NULL)
 * loads mlkem (from moddir) and default into a new library context. */

/* ---- Checks ------------------------------------------------------------------
 * TEST_CHECK and test_finish (test/common/test_util.h) count and report;
 * the suites below add only what is specific to the provider. */

/* Set by a suite that could not run (missing vectors): main() then exits 77
 * with this reason if nothing failed. */
extern const char *evp_skip_reason;

/* After an operation that must have failed (ok == 0): the first error on the
 * queue must come from the mlkem provider with exactly this reason string.
 * Two counted checks; clears the queue. */
int evp_expect_reason_at(int ok, const char *reason, const char *file,
                         int line, const char *what);
#define EXPECT_REASON(ok, reason, what) \
    evp_expect_reason_at((ok), (reason), __FILE__, __LINE__, (what))

/* 1 if the buffers are equal; else print both around the first difference. */
int evp_bytes_eq(const char *what, const uint8_t *got, size_t gotlen,
                 const uint8_t *exp, size_t explen);

/* ---- EVP wrappers (each returns 0/NULL on failure, error queue intact) ----- */

/* EVP_PKEY_fromdata with any of pub / priv / seed (NULL = absent). */
EVP_PKEY *evp_import(test_env *e, const char *alg, int selection,
                     const uint8_t *pub, size_t publen, const uint8_t *priv,
                     size_t privlen, const uint8_t *seed, size_t seedlen);
/* Keygen; seed (64 bytes) or NULL for a random key. */
EVP_PKEY *evp_keygen(test_env *e, const char *alg, const uint8_t *seed,
                     size_t seedlen);
/* An octet-string key parameter into buf (cap bytes); *len set. */
int evp_get_octets(const EVP_PKEY *k, const char *name, uint8_t *buf,
                   size_t cap, size_t *len);
/* Encapsulate with optional ikme (NULL: random m). ct/ss capacity given by
 * *ctlen / *sslen on input, set on output. */
int evp_encaps(test_env *e, EVP_PKEY *k, const uint8_t *ikme, size_t ikmelen,
               uint8_t *ct, size_t *ctlen, uint8_t *ss, size_t *sslen);
int evp_decaps(test_env *e, EVP_PKEY *k, const uint8_t *ct, size_t ctlen,
               uint8_t *ss, size_t *sslen);

/* SHAKE256(in, outlen) through the default provider (FIPS 203 J = 32). */
int evp_shake256(test_env *e, const uint8_t *in1, size_t len1,
                 const uint8_t *in2, size_t len2, uint8_t *out, size_t outlen);

/* Fill buf with bytes from the library context's RNG. */
void evp_random(test_env *e, uint8_t *buf, size_t len);

/* ---- Suites (test_evp*.c) -------------------------------------------------- */

void evp_suite_provider(test_env *e);   /* test_evp.c */
void evp_suite_roundtrip(test_env *e);  /* test_evp.c */
void evp_suite_threads(test_env *e);    /* test_evp_threads.c */
void evp_suite_bad(test_env *e);        /* test_evp_bad.c */
void evp_suite_acvp(test_env *e);       /* test_evp_acvp.c (may skip) */
void evp_suite_config(const char *moddir); /* test_evp_config.c */
void evp_suite_instances(const char *moddir); /* test_evp.c */
void evp_suite_cycles(const char *moddir); /* test_evp_cycles.c */
void evp_suite_secure(test_env *e);     /* test_evp_secure.c */
void evp_suite_rand(test_env *e);       /* test_evp_rand.c */
/* Where randomness comes from, its wipes and age; version "3.0"... */
void evp_suite_rand_source(const char *moddir, const char *version);

#endif /* MLKEM_TEST_EVP_UTIL_H */
