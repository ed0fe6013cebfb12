/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4_neon.c: the AArch64 x4 / x8 Keccak layout, its byte functions,
 * and its hybrid permutation with plain NEON (the neon backend).
 *
 * References
 *   [FIPS202] NIST FIPS 202, Appendix B.1 (byte order of the lanes).
 *   [HYBRID]  H. Becker, M. J. Kannwischer, ePrint 2022/1243.
 *
 * Layout of an mlkem_keccak_x4 (arch/aarch64.h): states 0 and 1
 * interleaved lane by lane (lane j of state i at s[2j + i], so one 128-bit
 * load gives lane j of both), state 2 at s[50 .. 74] and state 3 at
 * s[75 .. 99] as plain 25-lane states. An mlkem_keccak_x8 is two such
 * groups (states 0-3 in s[0 .. 99], 4-7 in s[100 .. 199]). All zero is the
 * zero state in this layout, so the portable init serves.
 *
 * Plain NEON has no 64-bit rotate: rol(a, n) is SHL by n and SRI (shift
 * right and insert) by 64 - n; chi is BIC + EOR. Only Advanced SIMD, which
 * is baseline on AArch64: no target flag.
 */
#include <arm_neon.h>

#include "arch/aarch64.h"
#include "arch/neon/keccak_bytes_neon.h"
#include "arch/neon/keccak_neon.h"

#if !defined(__aarch64__) || defined(__AARCH64EB__)
#error "arch/neon/ is for little-endian AArch64"
#endif

/* ---- Byte access ------------------------------------------------------- */

/* Bytes of state `lane` (0-3) of the group at g: the pair's LD2 / ST2 form
 * for states 0 and 1, the plain form for 2 and 3 (keccak_bytes_neon.h). */
static void group_xor(uint64_t *g, unsigned lane, unsigned offset,
                      const uint8_t *in, size_t len)
{
    if (lane < 2)
        nb_pair_xor(g, lane, offset, in, len);
    else
        nb_plain_xor(g + 50 + 25 * (lane - 2), offset, in, len);
}

static void group_extract(const uint64_t *g, unsigned lane, unsigned offset,
                          uint8_t *out, size_t len)
{
    if (lane < 2)
        nb_pair_extract(g, lane, offset, out, len);
    else
        nb_plain_extract(g + 50 + 25 * (lane - 2), offset, out, len);
}

void mlkem_keccak_x4_xor_bytes_neon(mlkem_keccak_x4 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len)
{
    group_xor(st->s, lane, offset, in, len);
}

void mlkem_keccak_x4_extract_bytes_neon(const mlkem_keccak_x4 *st,
                                        unsigned lane, unsigned offset,
                                        uint8_t *out, size_t len)
{
    group_extract(st->s, lane, offset, out, len);
}

void mlkem_keccak_x8_xor_bytes_neon(mlkem_keccak_x8 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len)
{
    group_xor(st->s + 100 * (lane / 4), lane % 4, offset, in, len);
}

void mlkem_keccak_x8_extract_bytes_neon(const mlkem_keccak_x8 *st,
                                        unsigned lane, unsigned offset,
                                        uint8_t *out, size_t len)
{
    group_extract(st->s + 100 * (lane / 4), lane % 4, offset, out, len);
}

static void group_clear(uint64_t *g, unsigned lane)
{
    if (lane < 2)
        nb_pair_clear(g, lane);
    else
        nb_plain_clear(g + 50 + 25 * (lane - 2));
}

void mlkem_keccak_x4_clear_lane_neon(mlkem_keccak_x4 *st, unsigned lane)
{
    group_clear(st->s, lane);
}

void mlkem_keccak_x8_clear_lane_neon(mlkem_keccak_x8 *st, unsigned lane)
{
    group_clear(st->s + 100 * (lane / 4), lane % 4);
}

/* ---- The permutation --------------------------------------------------- */

#define NK_VEC_T uint64x2_t
#define NK_VEC_XOR(a, d) veorq_u64((a), (d))
#define NK_VEC_ROL(a, n) vsriq_n_u64(vshlq_n_u64((a), (n)), (a), 64 - (n))
#define NK_VEC_XOR5(a, b, c, d, e)                                            \
    veorq_u64(veorq_u64(veorq_u64((a), (b)), veorq_u64((c), (d))), (e))
#define NK_VEC_D(c0, c2) veorq_u64((c0), NK_VEC_ROL((c2), 1))
#define NK_VEC_XROL(a, d, n) NK_VEC_ROL(veorq_u64((a), (d)), n)
#define NK_VEC_CHI(a, b, c) veorq_u64((a), vbicq_u64((c), (b)))
#define NK_VEC_IOTA(a, rc) veorq_u64((a), vdupq_n_u64(rc))

#define NK_X4_PERMUTE mlkem_keccak_x4_lanes_neon
static void mlkem_keccak_x4_lanes_neon(uint64_t s[100]);
#include "arch/neon/keccak_x4_template.h"

void mlkem_keccak_x4_permute_neon(mlkem_keccak_x4 *st)
{
    mlkem_keccak_x4_lanes_neon(st->s);
}

void mlkem_keccak_x8_permute_neon(mlkem_keccak_x8 *st)
{
    mlkem_keccak_x4_lanes_neon(st->s);
    mlkem_keccak_x4_lanes_neon(st->s + 100);
}

/* Keccak-f[1600] (FIPS 202 Algorithm 7) on one state in general-purpose
 * registers: the hybrid's scalar round (keccak_neon.h), whose rotations the
 * compiler folds into the shifted-register operands of EOR / BIC, two
 * rounds per iteration so the two variable sets swap roles without copies.
 * Per call (bench/qemu/icount.sh, gcc 12): 3,609 instructions for the
 * portable C, 3,442 for this (mlkem-native's assembly: 2,774; gcc does not
 * fold the rotations, each used by three chi terms, and spills a few
 * lanes). */
void mlkem_keccak_f1600_scalar(uint64_t s[25])
{
    NK_DECL(uint64_t, a);
    NK_DECL(uint64_t, e);
#define NK_LOAD_ONE(v, j) v = s[j]
    NK_LANES(NK_LOAD_ONE, a);
#undef NK_LOAD_ONE
    for (unsigned r = 0; r < 24; r += 2) {
        NK_ROUND(NK_SCALAR, a, e, mlkem_keccak_rc[r]);
        NK_ROUND(NK_SCALAR, e, a, mlkem_keccak_rc[r + 1]);
    }
#define NK_STORE_ONE(v, j) s[j] = v
    NK_LANES(NK_STORE_ONE, a);
#undef NK_STORE_ONE
}
