/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_shake.h: an independent SHAKE128 / SHAKE256 for test programs.
 *
 * References
 *   [FIPS202] NIST FIPS 202, SHA-3 Standard, 2015: §3.2 (Keccak-p),
 *             §4 (sponge), §6.2 (SHAKE128/256, domain bits 1111).
 *
 * The tests need an XOF whose output can be read incrementally (the CCTV
 * accumulated test reads up to 1.7 GB from one SHAKE-128 stream), which
 * OpenSSL 3.0's EVP cannot do (EVP_DigestSqueeze arrived in 3.3). This is a
 * deliberately plain implementation, separate from keccak/ (the code under
 * test), and checked against libcrypto by test_shake_selftest().
 */
#ifndef MLKEM_TEST_SHAKE_H
#define MLKEM_TEST_SHAKE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t s[25];
    unsigned rate;      /* 168 (SHAKE128) or 136 (SHAKE256) */
    unsigned pos;       /* byte position in the current block */
    int squeezing;
} test_shake;

void test_shake128_init(test_shake *x);
void test_shake256_init(test_shake *x);
/* Absorb; only before the first squeeze. */
void test_shake_absorb(test_shake *x, const uint8_t *in, size_t len);
/* Squeeze; the first call pads. Can be called any number of times. */
void test_shake_squeeze(test_shake *x, uint8_t *out, size_t len);

/* Compare against libcrypto's SHAKE128/256 on inputs and read patterns of
 * several lengths: 0 if all agree, -1 with a message otherwise. */
int test_shake_selftest(void);

#endif /* MLKEM_TEST_SHAKE_H */
