/* SPDX-License-Identifier: Apache-2.0 */
/*
 * testrand.h: a test DRBG provider for the randomness tests
 * (test_evp_rand.c, test_prov_rand.c). Registered in a library context
 * with OSSL_PROVIDER_add_builtin(ctx, TEST_RAND_PROV, test_rand_prov_init)
 * and loaded, it offers the EVP_RAND TEST_RAND_NAME: each instance hands
 * out the counter stream stream_byte(0), stream_byte(1), ... (generate, and
 * get_seed as a seed source), fails while test_rand_fail is set, and counts
 * its successful generate calls, its get_seed calls and all its calls.
 */
#ifndef MLKEM_TEST_PROVIDER_TESTRAND_H
#define MLKEM_TEST_PROVIDER_TESTRAND_H

#include <stdatomic.h>
#include <stdint.h>

#include <openssl/core.h>

#define TEST_RAND_NAME "MLKEM-TEST-RAND"
#define TEST_RAND_PROV "mlkemtestrand"
#define TEST_RAND_PROPQ "provider=" TEST_RAND_PROV

extern atomic_int test_rand_fail;       /* generate / get_seed fail */
extern atomic_long test_rand_generates; /* successful generate calls */
extern atomic_long test_rand_seeds;     /* get_seed calls */
extern atomic_long test_rand_attempts;  /* generate and get_seed calls */

/* Byte i of every instance's stream; never 0, so a wiped byte differs. */
uint8_t stream_byte(uint64_t i);

int test_rand_prov_init(const OSSL_CORE_HANDLE *handle,
                        const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                        void **provctx);

#endif /* MLKEM_TEST_PROVIDER_TESTRAND_H */
