/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x8_avx512.c: the avx512 backend's eight-state Keccak: one lane of
 * each of eight states per 512-bit register (arch/keccak_simd.h with
 * KS_N = 8, which gives the byte functions), vprolq for the rotations and
 * vpternlogq for theta and chi. The permutation is keccak_x4_avx512vl.c's
 * on zmm registers: keccak_x8_rounds.inc, written by ../gen_keccak_rounds.py.
 * Compiled with -mavx512f; reached only when arch/dispatch.c has seen
 * AVX-512F and the ZMM state enabled.
 */
#include "arch/x86_64.h"

#define KS_N 8
#define KS_FN(name) mlkem_keccak_x8_##name##_avx512_lanes
#define KS_STATE mlkem_keccak_x8
#define KS_API(name) mlkem_keccak_x8_##name##_avx512

#define KS_OWN_PERMUTE

#include "arch/keccak_simd.h"

void KS_API(permute)(KS_STATE *st)
{
    uint64_t *s = st->s;
    const uint64_t *rc = mlkem_keccak_rc;
    unsigned long n;
    __asm__ volatile(
#include "arch/avx512/keccak_x8_rounds.inc"
        : [rc] "+r"(rc), [n] "=&r"(n)
        : [s] "r"(s)
        : "memory", MLKEM_X86_CLOBBER_V0_15, MLKEM_X86_CLOBBER_V16_31);
}
