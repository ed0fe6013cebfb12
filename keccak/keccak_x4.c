/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4.c: 4 parallel Keccak-f[1600] states (PlSnP, keccak/keccak.h):
 * the portable kernels, the dispatched entry points and the x4 sponges.
 * The code is shared with keccak_x8.c through keccak_xn_template.h.
 */
#define MLKEM_XN 4
#include "keccak/keccak_xn_template.h"
