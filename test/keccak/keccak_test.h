/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_test.h: helpers shared by the test/keccak programs.
 *
 *   - the reference digests: the system libcrypto's EVP SHA3-256, SHA3-512,
 *     SHAKE128 and SHAKE256 (an implementation independent of ours).
 * Checks and inputs come from test/common/test_util.h (TEST_CHECK,
 * test_rng).
 */
#ifndef MLKEM_TEST_KECCAK_TEST_H
#define MLKEM_TEST_KECCAK_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>

#include "test/common/test_util.h"

/* The libcrypto digest of in[0..len) into out[0..outlen): outlen must be
 * the digest size for SHA3, any value >= 1 for SHAKE (XOF). Returns 1 on
 * success; 0 (a counted failure) if libcrypto fails. */
static inline int kt_evp(const EVP_MD *md, const uint8_t *in, size_t len,
                         uint8_t *out, size_t outlen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestInit_ex(c, md, NULL) == 1 &&
             EVP_DigestUpdate(c, in, len) == 1;
    if (ok) {
        if (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF)
            ok = EVP_DigestFinalXOF(c, out, outlen) == 1;
        else
            ok = (size_t)EVP_MD_get_size(md) == outlen &&
                 EVP_DigestFinal_ex(c, out, NULL) == 1;
    }
    EVP_MD_CTX_free(c);
    return TEST_CHECK(ok, "libcrypto %s failed (len %zu, outlen %zu)",
                      EVP_MD_get0_name(md), len, outlen);
}

#endif /* MLKEM_TEST_KECCAK_TEST_H */
