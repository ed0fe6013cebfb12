/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vectors.h: helpers shared by the vector tests in test/vectors/.
 */
#ifndef MLKEM_TEST_VECTORS_H
#define MLKEM_TEST_VECTORS_H

#include <string.h>

#include "kem/mlkem.h"
#include "test/common/test_util.h"

/* The three parameter sets, in the order the tests walk them. */
static const unsigned vec_bits[3] = {512, 768, 1024};

/* Sizes from FIPS 203 §8 Table 3, written out here so a wrong row in the
 * kernel's table is caught rather than trusted: ek, dk, c. */
static inline int vec_check_params(const mlkem_params *p, unsigned bits)
{
    size_t k = bits / 256, du = bits == 1024 ? 11 : 10,
           dv = bits == 1024 ? 5 : 4;
    size_t ek = 384 * k + 32, dk = 768 * k + 96, c = 32 * (du * k + dv);

    if (p == NULL) {
        TEST_FAIL("mlkem_params_by_bits(%u) returned NULL", bits);
        return -1;
    }
    if (p->bits != bits || p->k != k || p->ek_bytes != ek ||
        p->dk_bytes != dk || p->ct_bytes != c || p->name == NULL) {
        TEST_FAIL("ML-KEM-%u: parameter row disagrees with FIPS 203 Table 3 "
                  "(k %u, ek %zu, dk %zu, c %zu; expected k %zu, ek %zu, "
                  "dk %zu, c %zu)", bits, p->k, p->ek_bytes, p->dk_bytes,
                  p->ct_bytes, k, ek, dk, c);
        return -1;
    }
    if (mlkem_params_get(p->variant) != p) {
        TEST_FAIL("ML-KEM-%u: mlkem_params_get(%d) is not the row "
                  "mlkem_params_by_bits(%u) returned", bits, (int)p->variant,
                  bits);
        return -1;
    }
    return 0;
}

/* The parameter set named "ML-KEM-512" etc. (checked), or NULL. */
static inline const mlkem_params *vec_params_by_name(const char *name)
{
    for (int i = 0; i < 3; i++) {
        const mlkem_params *p = mlkem_params_by_bits(vec_bits[i]);
        if (p != NULL && p->name != NULL && name != NULL &&
            strcmp(p->name, name) == 0)
            return vec_check_params(p, vec_bits[i]) == 0 ? p : NULL;
    }
    return NULL;
}

/* The parameter set for 512 / 768 / 1024 (checked), or NULL. */
static inline const mlkem_params *vec_params(unsigned bits)
{
    const mlkem_params *p = mlkem_params_by_bits(bits);
    return vec_check_params(p, bits) == 0 ? p : NULL;
}

#endif /* MLKEM_TEST_VECTORS_H */
