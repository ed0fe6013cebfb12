/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sampler.c: the Eva driver of the portable rejection sampler
 * (sample_ntt_rej, FIPS 203 Algorithm 7 lines 5-12) as the kernel calls
 * it: on one SHAKE128 block (168 unknown bytes; kem/lanes.c and
 * sample_ntt_x4 pass nothing else), appending to a polynomial that already
 * holds c accepted values, i.e. at r + c with room 256 - c, for every
 * c < 256. The split keeps c exact in each of the 256 cases, so the
 * relation between the pointer and the room is exact too: no write lands
 * outside r[c .. 255], and the count returned fits the room.
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "keccak/keccak.h"
#include "kem/poly_kernels.h"

static int16_t r[256];
static uint8_t buf[MLKEM_SHAKE128_RATE];

int main(void)
{
    Frama_C_make_unknown((char *)buf, sizeof(buf));
    unsigned c = Frama_C_unsigned_int_interval(0, 255);
    /*@ split c; */
    unsigned n = mlkem_sample_ntt_rej_portable(r + c, 256 - c, buf, sizeof(buf));
    /*@ assert room: n <= 256 - c; */
    /*@ merge c; */
    Frama_C_show_each_proof_end(n);
    return 0;
}
