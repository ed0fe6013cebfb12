/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_sha3x2.c: the neon-sha3x2 backend's Keccak: every state in NEON
 * registers with the Armv8.2 SHA3 instructions, two states at a time, no
 * scalar half. For cores that issue the SHA3 instructions on every vector
 * pipe (Apple M-series, and the Neoverse V-series cores arch/dispatch.c
 * lists), where the hybrid of keccak_x4_neon.c / keccak_sha3.c is bound by
 * its scalar half.
 *
 * Layout of an x4 group (100 lanes): states 0 and 1 interleaved lane by
 * lane at s[0 .. 49] (lane j of state i at s[2j + i]), states 2 and 3 the
 * same at s[50 .. 99]; an x8 is two groups. Each pair is one q register
 * per lane, so an x4 permutation is two x2 permutations.
 *
 * Compiled with the sha3 target flag (arch/neon/CMakeLists.txt); reached
 * only when getauxval(AT_HWCAP) reports HWCAP_SHA3.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.2-3.4, Appendix B.1 (byte order).
 *   [ARMARM]  Arm Architecture Reference Manual, FEAT_SHA3: EOR3, RAX1,
 *             XAR, BCAX (keccak_sha3.c).
 *   [HYBRID]  H. Becker, M. J. Kannwischer, ePrint 2022/1243, §5: on
 *             Apple M1 the SHA3-only 2-way permutation beats the hybrids.
 * Nothing depends on the states' values (constant time).
 */
#include <arm_neon.h>

#include "arch/aarch64.h"
#include "arch/neon/keccak_bytes_neon.h"
#include "arch/neon/keccak_neon.h"

#if !defined(__aarch64__) || defined(__AARCH64EB__)
#error "arch/neon/ is for little-endian AArch64"
#endif
#if !defined(__ARM_FEATURE_SHA3)
#error "keccak_sha3x2.c needs the sha3 target flag (arch/neon/CMakeLists.txt)"
#endif

#define NK_VEC_T uint64x2_t
#define NK_VEC_XOR(a, d) veorq_u64((a), (d))
#define NK_VEC_XOR5(a, b, c, d, e)                                            \
    veor3q_u64(veor3q_u64((a), (b), (c)), (d), (e))
#define NK_VEC_D(c0, c2) vrax1q_u64((c0), (c2))
#define NK_VEC_XROL(a, d, n) vxarq_u64((a), (d), 64 - (n))
#define NK_VEC_CHI(a, b, c) vbcaxq_u64((a), (c), (b))
#define NK_VEC_IOTA(a, rc) veorq_u64((a), vdupq_n_u64(rc))

/* Keccak-f[1600] on the interleaved pair at s[0 .. 49]. */
static void x2_permute(uint64_t s[50])
{
    NK_DECL(NK_VEC_T, a);
    NK_DECL(NK_VEC_T, e);
#define NK_LOAD_PAIR(v, j) v = vld1q_u64(s + 2 * (j))
    NK_LANES(NK_LOAD_PAIR, a);
#undef NK_LOAD_PAIR
    for (unsigned r = 0; r < 24; r += 2) {
        NK_ROUND(NK_VEC, a, e, mlkem_keccak_rc[r]);
        NK_ROUND(NK_VEC, e, a, mlkem_keccak_rc[r + 1]);
    }
#define NK_STORE_PAIR(v, j) vst1q_u64(s + 2 * (j), v)
    NK_LANES(NK_STORE_PAIR, a);
#undef NK_STORE_PAIR
}

/* ---- Byte access: state `lane` is state lane & 1 of pair lane >> 1 ------- */

/* The pairs' LD2 / ST2 byte access (keccak_bytes_neon.h). */
void mlkem_keccak_x4_xor_bytes_sha3x2(mlkem_keccak_x4 *st, unsigned lane,
                                      unsigned offset, const uint8_t *in,
                                      size_t len)
{
    nb_pair_xor(st->s + 50 * (lane >> 1), lane & 1, offset, in, len);
}

void mlkem_keccak_x4_extract_bytes_sha3x2(const mlkem_keccak_x4 *st,
                                          unsigned lane, unsigned offset,
                                          uint8_t *out, size_t len)
{
    nb_pair_extract(st->s + 50 * (lane >> 1), lane & 1, offset, out, len);
}

void mlkem_keccak_x4_clear_lane_sha3x2(mlkem_keccak_x4 *st, unsigned lane)
{
    nb_pair_clear(st->s + 50 * (lane >> 1), lane & 1);
}

void mlkem_keccak_x4_permute_sha3x2(mlkem_keccak_x4 *st)
{
    x2_permute(st->s);
    x2_permute(st->s + 50);
}

/* Only the pairs with a listed state (the mask is the scheduler's, public):
 * a pair of idle lanes costs nothing. */
void mlkem_keccak_x4_permute_lanes_sha3x2(mlkem_keccak_x4 *st, unsigned lanes)
{
    if (lanes & 3u)
        x2_permute(st->s);
    if (lanes & 12u)
        x2_permute(st->s + 50);
}

void mlkem_keccak_x8_xor_bytes_sha3x2(mlkem_keccak_x8 *st, unsigned lane,
                                      unsigned offset, const uint8_t *in,
                                      size_t len)
{
    nb_pair_xor(st->s + 50 * (lane >> 1), lane & 1, offset, in, len);
}

void mlkem_keccak_x8_extract_bytes_sha3x2(const mlkem_keccak_x8 *st,
                                          unsigned lane, unsigned offset,
                                          uint8_t *out, size_t len)
{
    nb_pair_extract(st->s + 50 * (lane >> 1), lane & 1, offset, out, len);
}

void mlkem_keccak_x8_clear_lane_sha3x2(mlkem_keccak_x8 *st, unsigned lane)
{
    nb_pair_clear(st->s + 50 * (lane >> 1), lane & 1);
}

void mlkem_keccak_x8_permute_sha3x2(mlkem_keccak_x8 *st)
{
    for (unsigned i = 0; i < 4; i++)
        x2_permute(st->s + 50 * i);
}
