/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4_avx512vl.c: the avx512 backends' four-state Keccak-f[1600]
 * permutation in the avx2 backend's interleaved layout (arch/keccak_simd.h:
 * lane j of state i at s[4 * j + i], 256-bit vectors), with the AVX-512VL
 * forms of the operations: vprolq rotates a 64-bit lane in one instruction
 * and vpternlogq does a three-input XOR (theta) or chi's b0 ^ (~b1 & b2) in
 * one (truth tables 0x96 and 0xd2 over the inputs 0xf0, 0xcc, 0xaa). The
 * byte functions are the avx2 backend's (arch/avx2/keccak_x4_avx2.c).
 *
 * The rounds are one inline-assembly block with every lane in a register
 * of its own: keccak_x4_rounds.inc, written by ../gen_keccak_rounds.py (which
 * says how a round is laid out and why: the same round compiled from
 * keccak_simd.h's C spent a third of its time on register moves and
 * spills). test/keccak and arch_slots compare it with the portable
 * permutation.
 *
 * Compiled with -mavx512f -mavx512vl; reached only when arch/dispatch.c
 * has seen AVX-512F and VL and the ZMM/opmask state enabled in XCR0. No
 * branch or index depends on the state: the permutation is constant time.
 */
#include <stdint.h>

#include "arch/x86_64.h"
#include "keccak/keccak_lanes.h"

void mlkem_keccak_x4_permute_avx512(mlkem_keccak_x4 *st)
{
    uint64_t *s = st->s;
    const uint64_t *rc = mlkem_keccak_rc;
    unsigned long n;
    __asm__ volatile(
#include "arch/avx512/keccak_x4_rounds.inc"
        : [rc] "+r"(rc), [n] "=&r"(n)
        : [s] "r"(s)
        : "memory", MLKEM_X86_CLOBBER_V0_15, MLKEM_X86_CLOBBER_V16_31);
}
