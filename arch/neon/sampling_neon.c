/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sampling_neon.c: the sample_ntt_x4 slot (kem/poly_kernels.h) for the two
 * AArch64 x4 layouts: SampleNTT's rejection loop (codec_neon.c) on the
 * first SHAKE128 block of each listed state, read from the state itself
 * instead of through x4_extract_bytes.
 *
 *   hybrid layout (neon, neon-sha3; keccak_x4_neon.c): states 2 and 3 are
 *     plain 25-lane states, whose bytes are already in FIPS 202 order on a
 *     little-endian machine: the loop reads them in place. States 0 and 1
 *     are interleaved lane by lane; LD2 splits 21 lane pairs (168 bytes)
 *     into the two states' byte streams.
 *   pair layout (neon-sha3x2; keccak_sha3x2.c): both pairs interleaved.
 *
 * Only the listed states' bytes are stored (into one 168-byte buffer): the
 * other lanes of the group may hold PRF streams of secrets
 * (test/hardening/stack_secrets.c looks for them on the stack). The listed
 * states are SampleNTT streams of the public rho: no constant-time need.
 */
#include <arm_neon.h>

#include "arch/aarch64.h"

#if !defined(__aarch64__) || defined(__AARCH64EB__)
#error "arch/neon/ is for little-endian AArch64"
#endif

#define RATE_LANES (MLKEM_SHAKE128_RATE / 8) /* 21 */

/* The first block of state `which` of the interleaved pair at p, into buf
 * (one LD2 and one store per two lanes: `which` is a constant where this
 * is inlined, so the state's half is taken from its register, not stored
 * with the other half and reloaded). */
static MLKEM_ALWAYS_INLINE void pair_block_of(const uint64_t *p,
                                              const unsigned which,
                                              uint64_t buf[RATE_LANES + 1])
{
    unsigned j = 0;
    for (; j + 2 <= RATE_LANES; j += 2) {
        const uint64x2x2_t v = vld2q_u64(p + 2 * j);
        vst1q_u64(buf + j, v.val[which]);
    }
    buf[j] = p[2 * j + which]; /* lane 20 */
}

static void pair_block(const uint64_t *p, unsigned which,
                       uint64_t buf[RATE_LANES + 1])
{
    if (which == 0)
        pair_block_of(p, 0, buf);
    else
        pair_block_of(p, 1, buf);
}

static void rej_into(int16_t *const r[4], unsigned ctr[4], unsigned l,
                     const uint64_t *block)
{
    ctr[l] += mlkem_sample_ntt_rej_neon(r[l] + ctr[l], 256 - ctr[l],
                                        (const uint8_t *)block,
                                        MLKEM_SHAKE128_RATE);
}

void mlkem_sample_ntt_x4_neon(const mlkem_keccak_x4 *st, unsigned lanes,
                              int16_t *const r[4], unsigned ctr[4])
{
    uint64_t buf[RATE_LANES + 1];

    for (unsigned l = 0; l < 2; l++)
        if ((lanes >> l) & 1) {
            pair_block(st->s, l, buf);
            rej_into(r, ctr, l, buf);
        }
    for (unsigned l = 2; l < 4; l++)
        if ((lanes >> l) & 1)
            rej_into(r, ctr, l, st->s + 50 + 25 * (l - 2));
}

void mlkem_sample_ntt_x4_sha3x2(const mlkem_keccak_x4 *st, unsigned lanes,
                                int16_t *const r[4], unsigned ctr[4])
{
    uint64_t buf[RATE_LANES + 1];

    for (unsigned l = 0; l < 4; l++)
        if ((lanes >> l) & 1) {
            pair_block(st->s + 50 * (l >> 1), l & 1, buf);
            rej_into(r, ctr, l, buf);
        }
}
