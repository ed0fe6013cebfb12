/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4.c: 4 parallel Keccak-f[1600] states (PlSnP, keccak/keccak.h):
 * the portable kernels, the dispatched entry points and the x4 sponges.
 * The code is shared with keccak_x8.c through keccak_xn_template.h.
 */
#define MLKEM_XN 4
#include "keccak/keccak_xn_template.h"

/* The listed states only, one after the other (the portable set never
 * runs lanes, x4_min 0: this serves tests and other callers). */
void mlkem_keccak_x4_permute_lanes_portable(mlkem_keccak_x4 *st,
                                            unsigned lanes)
{
    for (unsigned i = 0; i < 4; i++)
        if ((lanes >> i) & 1)
            mlkem_keccak_f1600_portable(&st->s[25 * i]);
}
