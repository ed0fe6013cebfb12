/* SPDX-License-Identifier: Apache-2.0 */
/*
 * link_keccak.c: keccak/'s objects alone link into a program (nothing of
 * kem/ or arch/ is referenced), and hash on their portable kernels:
 * SHA3-256("abc") of FIPS 202's examples (NIST's SHA3-256 example values).
 */
#include <stdio.h>
#include <string.h>

#include "keccak/keccak.h"
#include "keccak/keccak_kernels.h"

int main(void)
{
    static const uint8_t want[32] = {
        0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2, 0x04, 0x5c, 0x17,
        0x2d, 0x6b, 0xd3, 0x90, 0xbd, 0x85, 0x5f, 0x08, 0x6e, 0x3e, 0x9d,
        0x52, 0x5b, 0x46, 0xbf, 0xe2, 0x45, 0x11, 0x43, 0x15, 0x32};
    uint8_t got[32];

    mlkem_sha3_256(got, (const uint8_t *)"abc", 3);
    if (memcmp(got, want, 32) != 0 ||
        strcmp(mlkem_keccak_kernels()->name, "portable") != 0) {
        fprintf(stderr, "FAIL: keccak/ alone: wrong SHA3-256 or kernels %s\n",
                mlkem_keccak_kernels()->name);
        return 1;
    }
    printf("keccak/ links and hashes without kem/ and arch/\n");
    return 0;
}
