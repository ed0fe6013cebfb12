/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_lanes.h: byte <-> lane helpers and the round constants, shared by
 * keccak/ and by the vector kernels in arch/ that implement its slots.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.1.2 (state as 25 lanes of 64 bits) and
 *             Appendix B.1 (bit and byte ordering: byte i of the state is
 *             byte i mod 8 of lane i / 8, least significant byte first).
 *
 * A state here is 25 uint64_t lanes, lane (x,y) at s[x + 5y]. The helpers
 * below XOR bytes into / copy bytes out of such a state at any byte offset,
 * taking whole lanes with one little-endian load or store when the bytes are
 * lane aligned. Lengths and offsets are public; the data is not branched on.
 */
#ifndef MLKEM_KECCAK_LANES_H
#define MLKEM_KECCAK_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "common/bytes.h"

/* XOR len bytes of in into a state at byte offset off (off + len <= 200).
 * The state's lane j is at s[stride * j]: stride 1 for a plain 25-lane
 * state, N for one state of N interleaved ones (arch/keccak_simd.h: pass
 * s + i for state i). */
static inline void mlkem_state_xor_bytes_strided(uint64_t *s, unsigned stride,
                                                 unsigned off,
                                                 const uint8_t *in, size_t len)
{
    unsigned i = off / 8;
    unsigned sh = off % 8;

    /* Leading partial lane. */
    if (sh != 0 && len > 0) {
        uint64_t t = 0;
        size_t n = 8 - sh < len ? 8 - sh : len;
        for (size_t j = 0; j < n; j++)
            t |= (uint64_t)in[j] << (8 * (sh + j));
        s[stride * i++] ^= t;
        in += n;
        len -= n;
    }
    /* Whole lanes. */
    for (; len >= 8; len -= 8, in += 8)
        s[stride * i++] ^= mlkem_load64le(in);
    /* Trailing partial lane. */
    if (len > 0) {
        uint64_t t = 0;
        for (size_t j = 0; j < len; j++)
            t |= (uint64_t)in[j] << (8 * j);
        s[stride * i] ^= t;
    }
}

/* Copy len bytes of a state (lane j at s[stride * j]) from byte offset off
 * into out (off + len <= 200). */
static inline void mlkem_state_extract_bytes_strided(const uint64_t *s,
                                                     unsigned stride,
                                                     unsigned off, uint8_t *out,
                                                     size_t len)
{
    unsigned i = off / 8;
    unsigned sh = off % 8;

    if (sh != 0 && len > 0) {
        uint64_t t = s[stride * i++] >> (8 * sh);
        size_t n = 8 - sh < len ? 8 - sh : len;
        for (size_t j = 0; j < n; j++)
            out[j] = (uint8_t)(t >> (8 * j));
        out += n;
        len -= n;
    }
    for (; len >= 8; len -= 8, out += 8)
        mlkem_store64le(out, s[stride * i++]);
    if (len > 0) {
        uint64_t t = s[stride * i];
        for (size_t j = 0; j < len; j++)
            out[j] = (uint8_t)(t >> (8 * j));
    }
}

/* Set a state (lane j at s[stride * j]) to the all-zero state with plain
 * stores: nothing of the old value is read, so what follows in it derives
 * from nothing that was there (the lane scheduler, kem/lanes.c, starts a
 * public stream on a lane a secret one left). */
static inline void mlkem_state_clear_strided(uint64_t *s, unsigned stride)
{
    for (unsigned j = 0; j < 25; j++)
        s[stride * j] = 0;
}

/* The plain 25-lane forms. */
static inline void mlkem_state_xor_bytes(uint64_t s[25], unsigned off,
                                         const uint8_t *in, size_t len)
{
    mlkem_state_xor_bytes_strided(s, 1, off, in, len);
}

static inline void mlkem_state_extract_bytes(const uint64_t s[25],
                                             unsigned off, uint8_t *out,
                                             size_t len)
{
    mlkem_state_extract_bytes_strided(s, 1, off, out, len);
}

/* Round constants RC[i_r] of iota (FIPS 202 §3.2.5), defined in
 * keccak_p1600.c and shared with the vector kernels (arch/keccak_simd.h). */
extern const uint64_t mlkem_keccak_rc[24];

#endif /* MLKEM_KECCAK_LANES_H */
