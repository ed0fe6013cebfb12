/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_kernels.h: the replaceable Keccak kernels ("slots"), their portable
 * implementations, and the one set in use.
 *
 * keccak/ owns these types; arch/ implements them for a CPU (arch/avx2/,
 * arch/avx512/, arch/neon/) and installs one set at load time
 * (arch/dispatch.c). Until then, and on every CPU without a better set, the
 * portable kernels below run. keccak/ itself never looks at the CPU.
 *
 * The slots swap as one set: a set owns the memory layout of its
 * mlkem_keccak_x4 / mlkem_keccak_x8 states (it may interleave lanes), so
 * its byte functions and its permutations must come from the same set.
 *
 * Contracts (test/arch/test_slots.c checks every set against the portable
 * one on edge inputs, test/keccak against FIPS 202):
 *   f1600:            Keccak-f[1600] on 25 lanes, lane (x,y) at s[x + 5y].
 *   xN_init:          all N states zero.
 *   xN_xor_bytes:     XOR len bytes into state `lane` from byte `offset`
 *                     (FIPS 202 B.1 byte order), offset + len <= 200.
 *   xN_extract_bytes: copy len bytes of state `lane` from byte `offset`.
 *   xN_permute:       Keccak-f[1600] on each of the N states.
 *   x4_permute_lanes: Keccak-f[1600] on each state listed in the bit mask
 *                     `lanes` (bit i: state i; the mask is public); an
 *                     unlisted state is permuted too or left as it was, as
 *                     suits the set (neon-sha3x2 permutes a pair of states
 *                     only if one of them is listed; a set whose x4 call is
 *                     one register-parallel permutation permutes all four).
 * None may branch on or index by the state (constant time).
 */
#ifndef MLKEM_KECCAK_KERNELS_H
#define MLKEM_KECCAK_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mlkem_keccak_kernels {
    const char *name; /* the backend's name: "portable", "avx2", ... */

    void (*f1600)(uint64_t s[25]);
    void (*x4_init)(mlkem_keccak_x4 *st);
    void (*x4_xor_bytes)(mlkem_keccak_x4 *st, unsigned lane, unsigned offset,
                         const uint8_t *in, size_t len);
    void (*x4_extract_bytes)(const mlkem_keccak_x4 *st, unsigned lane,
                             unsigned offset, uint8_t *out, size_t len);
    void (*x4_permute)(mlkem_keccak_x4 *st);
    void (*x4_permute_lanes)(mlkem_keccak_x4 *st, unsigned lanes);
    /* Instance `lane` set to the zero state (what init gives it) by plain
     * stores, the other instances untouched. */
    void (*x4_clear_lane)(mlkem_keccak_x4 *st, unsigned lane);
    void (*x8_init)(mlkem_keccak_x8 *st);
    void (*x8_xor_bytes)(mlkem_keccak_x8 *st, unsigned lane, unsigned offset,
                         const uint8_t *in, size_t len);
    void (*x8_extract_bytes)(const mlkem_keccak_x8 *st, unsigned lane,
                             unsigned offset, uint8_t *out, size_t len);
    void (*x8_permute)(mlkem_keccak_x8 *st);
    void (*x8_clear_lane)(mlkem_keccak_x8 *st, unsigned lane);

    /* How callers with several independent SHAKE streams (kem/lanes.c:
     * matrix entries, PRF outputs, H, G, J) should group them on this set:
     * a group of at least x8_min streams goes through one x8 call (0:
     * never), then groups of at least x4_min through x4 calls (unused lanes
     * are permuted for nothing), the rest through single sponges; x4_min 0:
     * never a parallel call, every stream on a single sponge. Portable:
     * x4_min 0, x8_min 0 (its x4 and x8 calls are four and eight single
     * permutations in turn: lanes would only add copying). */
    unsigned char x4_min;
    unsigned char x8_min;
    /* 1: the x4 state is two independent pairs, states 0-1 and 2-3, and
     * x4_permute_lanes permutes only the pairs with a listed state
     * (neon-sha3x2), so the scheduler keeps two streams in one pair; 0
     * (every other set): the four lanes cost the same together. */
    unsigned char x4_pairs;
};

/* The portable set: N separate 25-lane states, instance i at s[25 i],
 * permuted one after the other. Always available; the reference of every
 * test. */
extern const struct mlkem_keccak_kernels mlkem_keccak_kernels_portable;

void mlkem_keccak_f1600_portable(uint64_t s[25]);
void mlkem_keccak_x4_init_portable(mlkem_keccak_x4 *st);
void mlkem_keccak_x4_xor_bytes_portable(mlkem_keccak_x4 *st, unsigned lane,
                                        unsigned offset, const uint8_t *in,
                                        size_t len);
void mlkem_keccak_x4_extract_bytes_portable(const mlkem_keccak_x4 *st,
                                            unsigned lane, unsigned offset,
                                            uint8_t *out, size_t len);
void mlkem_keccak_x4_permute_portable(mlkem_keccak_x4 *st);
void mlkem_keccak_x4_permute_lanes_portable(mlkem_keccak_x4 *st,
                                            unsigned lanes);
void mlkem_keccak_x4_clear_lane_portable(mlkem_keccak_x4 *st, unsigned lane);
void mlkem_keccak_x8_init_portable(mlkem_keccak_x8 *st);
void mlkem_keccak_x8_xor_bytes_portable(mlkem_keccak_x8 *st, unsigned lane,
                                        unsigned offset, const uint8_t *in,
                                        size_t len);
void mlkem_keccak_x8_extract_bytes_portable(const mlkem_keccak_x8 *st,
                                            unsigned lane, unsigned offset,
                                            uint8_t *out, size_t len);
void mlkem_keccak_x8_permute_portable(mlkem_keccak_x8 *st);
void mlkem_keccak_x8_clear_lane_portable(mlkem_keccak_x8 *st, unsigned lane);

/* The set in use (the portable one until arch/ installs another). */
const struct mlkem_keccak_kernels *mlkem_keccak_kernels(void);
/* Install a set. arch/dispatch.c does this once at load time, before any
 * hashing; tests and benchmarks switch sets between operations (a state
 * must be used with the set that initialised it). */
void mlkem_keccak_kernels_install(const struct mlkem_keccak_kernels *k);

#ifdef __cplusplus
}
#endif

#endif /* MLKEM_KECCAK_KERNELS_H */
