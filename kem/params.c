/* SPDX-License-Identifier: Apache-2.0 */
/*
 * params.c: the one table of ML-KEM parameter sets.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §8, Table 2 (k, eta1, eta2, du, dv) and Table 3
 *             (sizes of ek, dk and c in bytes).
 *
 * Every size is derived from k, du and dv by the formulas of §8:
 *   ek = 384k + 32, dk = 768k + 96, c = 32(du k + dv).
 * The whole kernel reads the set through this table; no code is duplicated
 * per set.
 */
#include "kem/mlkem.h"

#define MLKEM_ROW(v, nm, k_, e1, e2, du_, dv_, bits_, sec)                     \
    {                                                                         \
        .variant = (v), .name = (nm), .k = (k_), .eta1 = (e1), .eta2 = (e2),  \
        .du = (du_), .dv = (dv_), .bits = (bits_), .security_bits = (sec),    \
        .ek_bytes = 384u * (k_) + 32u, .dk_bytes = 768u * (k_) + 96u,         \
        .ct_bytes = 32u * ((du_) * (k_) + (dv_))                              \
    }

static const mlkem_params mlkem_param_table[3] = {
    MLKEM_ROW(MLKEM_512, "ML-KEM-512", 2, 3, 2, 10, 4, 512, 128),
    MLKEM_ROW(MLKEM_768, "ML-KEM-768", 3, 2, 2, 10, 4, 768, 192),
    MLKEM_ROW(MLKEM_1024, "ML-KEM-1024", 4, 2, 2, 11, 5, 1024, 256),
};

const mlkem_params *mlkem_params_get(mlkem_variant v)
{
    if ((unsigned)v >= sizeof(mlkem_param_table) / sizeof(mlkem_param_table[0]))
        return NULL;
    return &mlkem_param_table[v];
}

const mlkem_params *mlkem_params_by_bits(unsigned bits)
{
    for (unsigned i = 0; i < 3; i++) {
        if (mlkem_param_table[i].bits == bits)
            return &mlkem_param_table[i];
    }
    return NULL;
}
