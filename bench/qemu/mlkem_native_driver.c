/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem_native_driver.c: icount_driver.c's protocol for mlkem-native, so
 * bench/qemu/icount.sh counts both the same way. Built by
 * bench/qemu/mlkem-native.sh against an mlkem-native tree outside the
 * clone (its monolithic mlkem_native.c / mlkem_native_asm.S, parameter set
 * from MLK_CONFIG_PARAMETER_SET, MLK_CONFIG_NO_RANDOMIZED_API, API names
 * mlkn_*).
 *
 * Usage: mlkem_native_driver [BITS [REPS]] (BITS must be the built set)
 * Phases keygen (keypair_derand(d || z)), encaps (enc_derand(ek, m)) and
 * decaps (dec(c, dk)), inputs as in icount_driver.c, so the digest line
 * must equal ours.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlkem_native.h"

#define BITS MLK_CONFIG_PARAMETER_SET
#define EKB MLKEM_PUBLICKEYBYTES(BITS)
#define DKB MLKEM_SECRETKEYBYTES(BITS)
#define CTB MLKEM_CIPHERTEXTBYTES(BITS)
/* mlkem-native.sh sets MLK_CONFIG_NAMESPACE_PREFIX=mlkn. */
#define API(sym) mlkn_##sym

volatile unsigned icount_phase_id;
#if defined(__clang__)
#define MARK_ATTR __attribute__((noinline)) /* clang has no noipa */
#else
#define MARK_ATTR __attribute__((noipa))
#endif
#define MARK(name, id)                                                        \
    MARK_ATTR void icount_mark_##name(void);                                  \
    MARK_ATTR void icount_mark_##name(void)                                   \
    {                                                                         \
        icount_phase_id = (id);                                               \
    }
MARK(idle, 0)
MARK(keygen, 1)
MARK(encaps, 2)
MARK(decaps, 3)

static uint8_t ek[EKB], dk[DKB], ct[CTB], k_enc[32], k_dec[32];

#define PHASE(name, stmt)                                                     \
    do {                                                                      \
        if ((stmt) != 0) {                                                    \
            fprintf(stderr, "mlkem_native_driver: " #name " failed\n");      \
            return 1;                                                         \
        }                                                                     \
        icount_mark_##name();                                                 \
        for (unsigned r_ = 0; r_ < reps; r_++)                                \
            if ((stmt) != 0)                                                  \
                return 1;                                                     \
        icount_mark_idle();                                                   \
    } while (0)

static void hex(const char *label, const uint8_t *b, size_t n)
{
    printf(" %s=", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
}

int main(int argc, char **argv)
{
    const unsigned bits = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : BITS;
    const unsigned reps = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 4;
    uint8_t dz[64], m[32];

    if (bits != BITS || reps == 0) {
        fprintf(stderr, "usage: mlkem_native_driver [%d [REPS>0]]\n", BITS);
        return 2;
    }
    for (unsigned i = 0; i < 32; i++) {
        dz[i] = (uint8_t)i;
        dz[32 + i] = (uint8_t)(0x40 + i);
        m[i] = (uint8_t)(0x80 + i);
    }
    PHASE(keygen, API(keypair_derand)(ek, dk, dz));
    PHASE(encaps, API(enc_derand)(ct, k_enc, ek, m));
    PHASE(decaps, API(dec)(k_dec, ct, dk));
    if (memcmp(k_enc, k_dec, 32) != 0) {
        fprintf(stderr, "mlkem_native_driver: the shared secrets differ\n");
        return 1;
    }
    printf("backend mlkem-native\n");
    printf("digest %u", bits);
    hex("K", k_enc, 32);
    hex("ek", ek, 16);
    hex("c", ct, 16);
    printf("\n");
    return 0;
}
