/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kem.c: the Eva driver of the three ML-KEM entry points, one parameter set
 * and one operation per analysis (CTest label proof-kem, run by hand: not
 * in the preset, docs/proofs.md says why). PROOF_VARIANT selects the
 * parameter set (0, 1, 2), PROOF_OP the operation: 0 KeyGen_internal(d, z),
 * 1 Encaps_internal(ek, m) with the §7.2 check, 2 Decaps_internal(dk, c)
 * with the §7.3 checks and implicit rejection. Every input byte is unknown
 * (any value), so both outcomes of every check are analysed.
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "kem/mlkem.h"

#ifndef PROOF_VARIANT
#define PROOF_VARIANT 1
#endif
#ifndef PROOF_OP
#define PROOF_OP 0
#endif

static void unknown(uint8_t *p, size_t n)
{
    Frama_C_make_unknown((char *)p, n);
}

int main(void)
{
    const mlkem_params *p = mlkem_params_get((mlkem_variant)PROOF_VARIANT);
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], d[32], z[32], m[32], K[32];
    int ret;

#if PROOF_OP == 0
    unknown(d, 32);
    unknown(z, 32);
    ret = mlkem_keygen_internal(p, ek, dk, d, z);
#elif PROOF_OP == 1
    unknown(ek, p->ek_bytes);
    unknown(m, 32);
    ret = mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m);
#else
    unknown(dk, p->dk_bytes);
    unknown(c, p->ct_bytes);
    ret = mlkem_decaps_internal(p, K, c, p->ct_bytes, dk, p->dk_bytes);
#endif
    Frama_C_show_each_proof_end(ret);
    return ret;
}
