/* SPDX-License-Identifier: Apache-2.0 */
/*
 * link_kem.c: kem/ and keccak/ link into a program without arch/ (no
 * reference upwards) and run ML-KEM-768 on their portable kernels: a
 * keygen / encaps / decaps round trip agrees.
 */
#include <stdio.h>
#include <string.h>

#include "kem/mlkem.h"

int main(void)
{
    const mlkem_params *p = mlkem_params_get(MLKEM_768);
    static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    static uint8_t c[MLKEM_MAX_CT_BYTES];
    uint8_t d[32], z[32], m[32], k1[32], k2[32];

    memset(d, 1, 32);
    memset(z, 2, 32);
    memset(m, 3, 32);
    if (mlkem_keygen_internal(p, ek, dk, d, z) != MLKEM_OK ||
        mlkem_encaps_internal(p, c, k1, ek, p->ek_bytes, m) != MLKEM_OK ||
        mlkem_decaps_internal(p, k2, c, p->ct_bytes, dk, p->dk_bytes) !=
            MLKEM_OK ||
        memcmp(k1, k2, 32) != 0 ||
        strcmp(mlkem_backend_name(), "portable") != 0) {
        fprintf(stderr, "FAIL: kem/ without arch/ (backend %s)\n",
                mlkem_backend_name());
        return 1;
    }
    printf("kem/ links and runs without arch/ (backend %s)\n",
           mlkem_backend_name());
    return 0;
}
