/* SPDX-License-Identifier: Apache-2.0 */
/*
 * samplentt.c: the Eva driver of one SampleNTT stream (FIPS 203 Algorithm
 * 7) through the real scheduler (kem/lanes.c: run_single, block_dest,
 * take_block) from an unknown rho, with the permutation's contract
 * (drivers/perm.c): the stream squeezes as many blocks as the rejections
 * need, and every call of the sampler is at a fill level produced < 256
 * with pointer poly + produced and room 256 - produced (take_block's split
 * keeps the two together), so no write leaves the polynomial; the result
 * is 256 values below 2^12. The whole-KEM analyses (drivers/kem.c) run k^2
 * such streams per operation.
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "kem/sampling.h"

static int16_t at[1][256];
static uint8_t rho[32];

int main(void)
{
    Frama_C_make_unknown((char *)rho, sizeof(rho));
    mlkem_sample_ntt_matrix_transposed(at, rho, 1);
    for (unsigned i = 0; i < 256; i++) {
        /*@ assert coefficient: 0 <= at[0][i] < 4096; */
    }
    Frama_C_show_each_proof_end(at[0][0]);
    return 0;
}
