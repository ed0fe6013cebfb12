/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4_avx2.c: the avx2 backend's Keccak: four states in 256-bit
 * vectors (arch/keccak_simd.h's layout and byte functions), and eight as
 * two such groups. The permutation is inline assembly written by
 * ../gen_keccak_rounds.py (keccak_x4_rounds.inc: the lanes stay in memory,
 * alternating between the state and a stack buffer, the registers hold
 * theta's values and one output row; gcc's schedule of keccak_simd.h's C
 * round was 5% slower).
 *
 * Compiled with -mavx2 only (arch/CMakeLists.txt); reached only when
 * arch/dispatch.c has seen AVX2 in CPUID and the YMM state enabled in XCR0.
 * AVX2 has no 64-bit rotate: the rounds compute rol(a, n) as
 * (a << n) | (a >> (64 - n)), except the byte-multiple rotations by 8 and
 * 56, which one vpshufb does (the shuffle control below is a constant, the
 * data only moves), and the rotation by one, whose left shift is an add.
 */
#include <stdint.h>

#include "arch/x86_64.h"

#define KS_N 4
#define KS_FN(name) mlkem_keccak_x4_##name##_avx2_lanes
#define KS_STATE mlkem_keccak_x4
#define KS_API(name) mlkem_keccak_x4_##name##_avx2

#define KS_OWN_PERMUTE
#include "arch/keccak_simd.h"

/* vpshufb controls of rol 8 and rol 56 (ror 8) on each 64-bit lane. */
static const uint8_t ks_rot_bytes[64] __attribute__((aligned(32))) = {
    7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
    7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
    1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
    1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8};

void KS_FN(permute)(uint64_t *s)
{
    uint64_t q[100] __attribute__((aligned(32)));
    const uint64_t *rc = mlkem_keccak_rc;
    unsigned long n;
    __asm__ volatile(
#include "arch/avx2/keccak_x4_rounds.inc"
        : [rc] "+r"(rc), [n] "=&r"(n)
        : [s] "r"(s), [q] "r"(q), [m] "r"(ks_rot_bytes)
        : "memory", MLKEM_X86_CLOBBER_V0_15);
}

void KS_API(permute)(KS_STATE *st)
{
    KS_FN(permute)(st->s);
}

/* mlkem_keccak_x4: one interleaved group (the KS_API functions above). */

/* ---- mlkem_keccak_x8: two interleaved groups of four (states 0-3 in s[0..99],
 * 4-7 in s[100..199]) ------------------------------------------------------ */

void mlkem_keccak_x8_xor_bytes_avx2(mlkem_keccak_x8 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len)
{
    mlkem_keccak_x4_xor_bytes_avx2_lanes(st->s + 100 * (lane / 4), lane % 4,
                                         offset, in, len);
}

void mlkem_keccak_x8_extract_bytes_avx2(const mlkem_keccak_x8 *st, unsigned lane,
                                        unsigned offset, uint8_t *out,
                                        size_t len)
{
    mlkem_keccak_x4_extract_bytes_avx2_lanes(st->s + 100 * (lane / 4),
                                             lane % 4, offset, out, len);
}

void mlkem_keccak_x8_clear_lane_avx2(mlkem_keccak_x8 *st, unsigned lane)
{
    mlkem_keccak_x4_clear_lane_avx2_lanes(st->s + 100 * (lane / 4), lane % 4);
}

void mlkem_keccak_x8_permute_avx2(mlkem_keccak_x8 *st)
{
    mlkem_keccak_x4_permute_avx2_lanes(st->s);
    mlkem_keccak_x4_permute_avx2_lanes(st->s + 100);
}
