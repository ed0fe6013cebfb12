/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cbd.c: the Eva driver of the PRF streams (SamplePolyCBD of SHAKE256,
 * FIPS 203 Algorithm 8 and §4.1) through the real scheduler, as
 * K-PKE.Encrypt runs them (y: eta1, e1 and e2: eta2) for every parameter
 * set, from an unknown seed, with the permutation's contract
 * (drivers/perm.c). (The sampler's output bounds: drivers/slots.c.)
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "kem/mlkem.h"
#include "kem/sampling.h"

static int16_t r[2 * MLKEM_MAX_K + 1][256];
static uint8_t seed[32];

int main(void)
{
    /*@ loop unroll 3; */
    for (unsigned v = 0; v < 3; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        const unsigned k = p->k;
        int16_t *polys[2 * MLKEM_MAX_K + 1];
        unsigned eta[2 * MLKEM_MAX_K + 1];
        for (unsigned i = 0; i < 2 * k + 1; i++) {
            polys[i] = r[i];
            eta[i] = i < k ? p->eta1 : p->eta2;
        }
        Frama_C_make_unknown((char *)seed, sizeof(seed));
        mlkem_sample_poly_cbd_prf(polys, eta, 2 * k + 1, seed, 0);
    }
    Frama_C_show_each_proof_end(r[0][0]);
    return 0;
}
