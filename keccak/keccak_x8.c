/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x8.c: 8 parallel Keccak-f[1600] states (PlSnP, keccak/keccak.h):
 * the portable kernels, the dispatched entry points and the x8 sponges.
 * The code is shared with keccak_x4.c through keccak_xn_template.h.
 */
#define MLKEM_XN 8
#include "keccak/keccak_xn_template.h"
