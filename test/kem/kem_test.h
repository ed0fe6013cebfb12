/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kem_test.h: small helpers for the kem/ unit tests.
 *
 *   kt_modq                the canonical representative in [0, q);
 *   kt_sample_ntt_ref      SampleNTT read literally from an independent SHAKE;
 *   kt_to_spec_order       a T_q element of a kernel set, in the spec's order.
 * Checks and inputs come from test/common/test_util.h (TEST_CHECK,
 * test_rng).
 */
#ifndef MLKEM_TEST_KEM_TEST_H
#define MLKEM_TEST_KEM_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kem/poly_kernels.h"
#include "test/common/test_shake.h"
#include "test/common/test_util.h"

static inline int32_t kt_modq(int64_t a)
{
    int64_t r = a % 3329;
    return (int32_t)(r < 0 ? r + 3329 : r);
}

/* FIPS 203 Algorithm 7 (SampleNTT) on SHAKE128(rho || b0 || b1), 3 bytes
 * at a time, on the independent SHAKE; returns the XOF bytes consumed. */
static inline unsigned kt_sample_ntt_ref(int16_t a[256], const uint8_t rho[32],
                                         uint8_t b0, uint8_t b1)
{
    test_shake x;
    uint8_t seed[34], c[3];
    unsigned j = 0, used = 0;
    memcpy(seed, rho, 32);
    seed[32] = b0;
    seed[33] = b1;
    test_shake128_init(&x);
    test_shake_absorb(&x, seed, 34);
    while (j < 256) {
        test_shake_squeeze(&x, c, 3);
        used += 3;
        unsigned d1 = c[0] + 256u * (c[1] % 16);
        unsigned d2 = c[1] / 16 + 16u * c[2];
        if (d1 < 3329)
            a[j++] = (int16_t)d1;
        if (d2 < 3329 && j < 256)
            a[j++] = (int16_t)d2;
    }
    return used;
}

/* A T_q element (|a_i| < 2^15) in the NTT-domain order of the kernel set pk,
 * read back in the spec's order as canonical values: the set's Barrett
 * reduction and ByteEncode_12, then the portable ByteDecode_12 (which
 * uses the spec's order). out may be a. */
static inline void kt_to_spec_order(const struct mlkem_poly_kernels *pk,
                                    const int16_t a[256], int16_t out[256])
{
    int16_t t[256];
    uint8_t bytes[384];
    memcpy(t, a, sizeof(t));
    pk->poly_reduce(t);
    pk->byte_encode_12(bytes, t);
    (void)mlkem_byte_decode_12_portable(out, bytes);
}

#endif /* MLKEM_TEST_KEM_TEST_H */
