/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perm.c: the Eva driver of the portable Keccak-f[1600] permutation
 * (keccak/keccak_p1600.c) on every state (25 unknown lanes): no runtime
 * error, and (proof/eva.sh's PROOF_OUTPUTS check on Frama-C's inout
 * analysis) it writes nothing but s[0 .. 24], its contract's assigns. The
 * KEM analyses (drivers/kem.c) use that contract in place of its body.
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "keccak/keccak_kernels.h"

static uint64_t s[25];

int main(void)
{
    Frama_C_make_unknown((char *)s, sizeof(s));
    mlkem_keccak_f1600_portable(s);
    Frama_C_show_each_proof_end(s[0]);
    return 0;
}
