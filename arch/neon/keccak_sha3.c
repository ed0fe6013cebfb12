/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_sha3.c: Keccak-f[1600] with the Armv8.2 SHA3 instructions: the
 * hybrid x4 permutation of the AArch64 layout (keccak_x4_neon.c) with the
 * interleaved pair in SHA3 instructions (the neon-sha3 backend), and a
 * single-state permutation (neon-sha3x2's; neon-sha3 takes the scalar one,
 * faster where SHA3 instructions issue on one pipe: arch/dispatch.c).
 *
 * Compiled with the sha3 target flag (arch/neon/CMakeLists.txt), so the
 * compiler may emit SHA3 instructions anywhere in this file; arch/dispatch.c
 * reaches it only when getauxval(AT_HWCAP) reports HWCAP_SHA3.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.2-3.4.
 *   [ARMARM]  Arm Architecture Reference Manual (Armv8-A), FEAT_SHA3:
 *             EOR3 (three-way XOR), RAX1 (a ^ rol(b, 1)), XAR (XOR then
 *             rotate right by an immediate), BCAX (a ^ (b & ~c)); the ACLE
 *             intrinsics veor3q_u64, vrax1q_u64, vxarq_u64, vbcaxq_u64.
 *   [HYBRID]  H. Becker, M. J. Kannwischer, ePrint 2022/1243.
 *
 * With these a round is 64 vector instructions for one or two states:
 * theta 10 EOR3 + 5 RAX1, rho-pi with theta's XOR 24 XAR + 1 EOR, chi 25
 * BCAX, iota 1 EOR (plain NEON needs about 150). The single state uses
 * lane 0 of each q register (lane 1 computes the same, unused).
 * Nothing depends on the state's values (constant time).
 */
#include <arm_neon.h>

#include "arch/aarch64.h"
#include "arch/neon/keccak_neon.h"
#include "arch/neon/keccak_scalar_round.h"

#if !defined(__aarch64__) || defined(__AARCH64EB__)
#error "arch/neon/ is for little-endian AArch64"
#endif
#if !defined(__ARM_FEATURE_SHA3)
#error "keccak_sha3.c needs the sha3 target flag (arch/neon/CMakeLists.txt)"
#endif

#define NK_VEC_T uint64x2_t
#define NK_VEC_XOR(a, d) veorq_u64((a), (d))
#define NK_VEC_XOR5(a, b, c, d, e)                                            \
    veor3q_u64(veor3q_u64((a), (b), (c)), (d), (e))
#define NK_VEC_D(c0, c2) vrax1q_u64((c0), (c2))
#define NK_VEC_XROL(a, d, n) vxarq_u64((a), (d), 64 - (n))
#define NK_VEC_CHI(a, b, c) vbcaxq_u64((a), (c), (b))
#define NK_VEC_IOTA(a, rc) veorq_u64((a), vdupq_n_u64(rc))

/* Keccak-f[1600] (FIPS 202 Algorithm 7, 24 rounds) on one state: its lanes
 * in lane 0 of 25 q registers (loaded as d registers, which zero lane 1,
 * and stored from them: LDR/STP d), four rounds per iteration (the two
 * variable sets swap roles without copies; 1,754 instructions per call
 * with two rounds per iteration and lane loads, 1,700 so). */
void mlkem_keccak_f1600_sha3(uint64_t s[25])
{
    NK_DECL(NK_VEC_T, a);
    NK_DECL(NK_VEC_T, e);
#define NK_LOAD_DUP(v, j) v = vcombine_u64(vld1_u64(s + (j)), vcreate_u64(0))
    NK_LANES(NK_LOAD_DUP, a);
#undef NK_LOAD_DUP
    for (unsigned r = 0; r < 24; r += 4) {
        NK_ROUND(NK_VEC, a, e, mlkem_keccak_rc[r]);
        NK_ROUND(NK_VEC, e, a, mlkem_keccak_rc[r + 1]);
        NK_ROUND(NK_VEC, a, e, mlkem_keccak_rc[r + 2]);
        NK_ROUND(NK_VEC, e, a, mlkem_keccak_rc[r + 3]);
    }
#define NK_STORE_LANE0(v, j) vst1_u64(s + (j), vget_low_u64(v))
    NK_LANES(NK_STORE_LANE0, a);
#undef NK_STORE_LANE0
}

#define NK_X4_PERMUTE mlkem_keccak_x4_lanes_sha3
static void mlkem_keccak_x4_lanes_sha3(uint64_t s[100]);
#include "arch/neon/keccak_x4_template.h"

void mlkem_keccak_x4_permute_sha3(mlkem_keccak_x4 *st)
{
    mlkem_keccak_x4_lanes_sha3(st->s);
}

void mlkem_keccak_x8_permute_sha3(mlkem_keccak_x8 *st)
{
    mlkem_keccak_x4_lanes_sha3(st->s);
    mlkem_keccak_x4_lanes_sha3(st->s + 100);
}
