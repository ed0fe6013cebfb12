/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_bytes_neon.h: XOR bytes into / copy bytes out of one state of the
 * AArch64 x4 layouts (keccak_x4_neon.c: states 0-1 interleaved, 2-3 plain;
 * keccak_sha3x2.c: two interleaved pairs), two 64-bit lanes per vector
 * operation where the bytes are whole lanes at a lane boundary (every
 * block the lane scheduler, kem/lanes.c, moves: 136 or 168 input bytes of
 * H(ek) and J, rho or a seed, the nonce lane, the final-bit lane, output
 * blocks), else the byte-exact strided helpers of keccak/keccak_lanes.h.
 *
 * References
 *   [FIPS202] NIST FIPS 202, Appendix B.1 (byte i of a state is byte
 *             i mod 8 of lane i / 8, least significant first: on a
 *             little-endian machine a lane-aligned run of bytes is the
 *             lanes' memory image).
 *
 * An interleaved pair keeps lane j of its state `which` (0 or 1) at
 * p[2j + which]: LD2 of p + 2j gives lanes j, j + 1 of state 0 in one
 * register and of state 1 in the other; the input is XORed into one of
 * them and ST2 writes both back (the other state's lanes unchanged).
 * Offsets and lengths are public; nothing depends on the data.
 */
#ifndef MLKEM_ARCH_NEON_KECCAK_BYTES_NEON_H
#define MLKEM_ARCH_NEON_KECCAK_BYTES_NEON_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "keccak/keccak_lanes.h"

/* Whole lanes: offset and length multiples of 8. */
static inline int nb_whole(unsigned offset, size_t len)
{
    return ((offset | len) & 7) == 0;
}

/* ---- Plain 25-lane state ------------------------------------------------ */

static inline void nb_plain_xor(uint64_t *s, unsigned offset,
                                const uint8_t *in, size_t len)
{
    if (!nb_whole(offset, len)) {
        mlkem_state_xor_bytes_strided(s, 1, offset, in, len);
        return;
    }
    s += offset / 8;
    for (; len >= 16; len -= 16, in += 16, s += 2)
        vst1q_u64(s, veorq_u64(vld1q_u64(s),
                               vreinterpretq_u64_u8(vld1q_u8(in))));
    if (len != 0)
        s[0] ^= mlkem_load64le(in);
}

static inline void nb_plain_extract(const uint64_t *s, unsigned offset,
                                    uint8_t *out, size_t len)
{
    if (!nb_whole(offset, len)) {
        mlkem_state_extract_bytes_strided(s, 1, offset, out, len);
        return;
    }
    s += offset / 8;
    for (; len >= 16; len -= 16, out += 16, s += 2)
        vst1q_u8(out, vreinterpretq_u8_u64(vld1q_u64(s)));
    if (len != 0)
        mlkem_store64le(out, s[0]);
}

/* ---- State `which` of the interleaved pair at p ------------------------- */

static MLKEM_ALWAYS_INLINE void nb_pair_xor_of(uint64_t *p, const unsigned which,
                                               unsigned offset,
                                               const uint8_t *in, size_t len)
{
    p += 2 * (offset / 8);
    for (; len >= 16; len -= 16, in += 16, p += 4) {
        uint64x2x2_t v = vld2q_u64(p);
        v.val[which] = veorq_u64(v.val[which],
                                 vreinterpretq_u64_u8(vld1q_u8(in)));
        vst2q_u64(p, v);
    }
    if (len != 0)
        p[which] ^= mlkem_load64le(in);
}

static MLKEM_ALWAYS_INLINE void
nb_pair_extract_of(const uint64_t *p, const unsigned which, unsigned offset,
                   uint8_t *out, size_t len)
{
    p += 2 * (offset / 8);
    for (; len >= 16; len -= 16, out += 16, p += 4)
        vst1q_u8(out, vreinterpretq_u8_u64(vld2q_u64(p).val[which]));
    if (len != 0)
        mlkem_store64le(out, p[which]);
}

/* p: the pair's first lane (state 0's lane 0). */
static inline void nb_pair_xor(uint64_t *p, unsigned which, unsigned offset,
                               const uint8_t *in, size_t len)
{
    if (!nb_whole(offset, len))
        mlkem_state_xor_bytes_strided(p + which, 2, offset, in, len);
    else if (which == 0)
        nb_pair_xor_of(p, 0, offset, in, len);
    else
        nb_pair_xor_of(p, 1, offset, in, len);
}

static inline void nb_pair_extract(const uint64_t *p, unsigned which,
                                   unsigned offset, uint8_t *out, size_t len)
{
    if (!nb_whole(offset, len))
        mlkem_state_extract_bytes_strided(p + which, 2, offset, out, len);
    else if (which == 0)
        nb_pair_extract_of(p, 0, offset, out, len);
    else
        nb_pair_extract_of(p, 1, offset, out, len);
}

/* ---- Clearing one state (kem/lanes.c's clear_lane slot) ------------------ */

/* Plain stores of zeros, nothing read (keccak/keccak_lanes.h says why):
 * a plain state as twelve 16-byte stores and one 8-byte store; state
 * `which` of a pair as 25 unrolled 8-byte stores. */
static inline void nb_plain_clear(uint64_t *s)
{
    const uint64x2_t z = vdupq_n_u64(0);
    for (unsigned j = 0; j < 24; j += 2)
        vst1q_u64(s + j, z);
    s[24] = 0;
}

static inline void nb_pair_clear(uint64_t *p, unsigned which)
{
    p += which;
#pragma GCC unroll 25
    for (unsigned j = 0; j < 25; j++)
        p[2 * j] = 0;
}

#endif /* MLKEM_ARCH_NEON_KECCAK_BYTES_NEON_H */
