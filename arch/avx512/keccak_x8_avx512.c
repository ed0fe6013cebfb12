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

void KS_FN(permute)(uint64_t *s)
{
    const uint64_t *rc = mlkem_keccak_rc;
    unsigned long n;
    __asm__ volatile(
#include "arch/avx512/keccak_x8_rounds.inc"
        : [rc] "+r"(rc), [n] "=&r"(n)
        : [s] "r"(s)
        : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
          "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
          "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
          "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28",
          "xmm29", "xmm30", "xmm31");
}

void KS_API(permute)(KS_STATE *st)
{
    KS_FN(permute)(st->s);
}
