/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_common.h: what the libFuzzer targets of test/fuzz/ share.
 *
 * Each target loads mlkem.so (the instrumented build next to it) and the
 * default provider into one library context, once, and then runs
 * LLVMFuzzerTestOneInput on it. The provider directory is $MLKEM_PROVIDER_DIR
 * or, when unset, the build's provider directory compiled in
 * (MLKEM_FUZZ_PROVIDER_DIR).
 *
 * Oracles abort: a harness that finds an invariant broken fails a
 * TEST_REQUIRE (test/common/test_util.h), which prints the message and the
 * OpenSSL errors and aborts, so libFuzzer records the input as a crash. Every target also proves that our provider served what it fuzzes
 * (fuzz_served_by_mlkem on every key it obtains, and a known-good input at
 * start-up); fuzz_report() prints how often that happened at exit.
 */
#ifndef MLKEM_TEST_FUZZ_COMMON_H
#define MLKEM_TEST_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "test/hardening/hard_util.h"

/* The shared environment (loaded on first use). */
test_env *fuzz_env(void);
/* The directory mlkem.so is loaded from. */
const char *fuzz_provider_dir(void);

/* Count a key (or operation) our provider served: the key's keymgmt must
 * come from the provider loaded as "mlkem"; otherwise abort. */
void fuzz_served_by_mlkem(const EVP_PKEY *k, const char *what);
/* Count an input the provider rejected (with an error on the queue, which
 * this clears); aborts when the queue is empty. */
void fuzz_rejected(const char *what);

/* Counters printed at exit (registered by fuzz_env). */
void fuzz_count(const char *what);

/* A little reader over the fuzz input. */
typedef struct {
    const uint8_t *p;
    size_t n;
} fuzz_in;
uint8_t fuzz_byte(fuzz_in *in);          /* 0 when empty */
size_t fuzz_len16(fuzz_in *in);          /* big-endian 16-bit, 0 when empty */
/* Up to len bytes (fewer when the input is shorter); *got set. */
const uint8_t *fuzz_take(fuzz_in *in, size_t len, size_t *got);

/* Private/public round trip every fuzzed key must survive: encode, decode,
 * same ek; for a private key, encapsulate and decapsulate agree. */
void fuzz_check_key(EVP_PKEY *k, const char *what);

#endif /* MLKEM_TEST_FUZZ_COMMON_H */
