/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak.h: Keccak-f[1600], SHA-3 and SHAKE, single and parallel (x4, x8).
 * keccak/ depends on common/ only; the kernels it runs (this CPU's
 * permutations) are installed by arch/ through keccak/keccak_kernels.h.
 *
 * References
 *   [FIPS202] NIST FIPS 202, SHA-3 Standard: Permutation-Based Hash and
 *             Extendable-Output Functions, 2015.
 *   [XKCP]    The Keccak team's SnP / PlSnP interfaces (doc/SnP-documentation.h,
 *             doc/PlSnP-documentation.h): the shape of the parallel interface.
 *
 * Layers
 *   1. Permutation ("SnP"): mlkem_keccak_f1600(), 25 lanes, little-endian lane
 *      order as in FIPS 202 §3.1.2 (lane (x,y) is s[x + 5y]).
 *   2. Sponges: SHA3-256, SHA3-512 (one-shot and incremental), SHAKE128 and
 *      SHAKE256 (incremental absorb, incremental squeeze).
 *   3. Parallel states ("PlSnP"): mlkem_keccak_x4 / mlkem_keccak_x8 hold 4 / 8
 *      independent states that are permuted together. The memory layout of
 *      the states is owned by the kernels that permute them (a vector kernel
 *      may interleave lanes), so callers touch the states only through
 *      mlkem_keccak_xN_xor_bytes() / _extract_bytes(). Per-lane byte access
 *      lets each instance run a different sponge (rate, padding) at the same
 *      time: e.g. a SHA3-256 of ek beside three SHAKE128 matrix streams.
 *
 * All functions here are constant time in the data they process (Keccak has
 * no data-dependent branches or indices); lengths are public.
 */
#ifndef MLKEM_KECCAK_H
#define MLKEM_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"

/* C++ users (bench/, Google Benchmark) include this header too. */
#ifdef __cplusplus
extern "C" {
#endif

#define MLKEM_SHAKE128_RATE 168
#define MLKEM_SHAKE256_RATE 136
#define MLKEM_SHA3_256_RATE 136
#define MLKEM_SHA3_512_RATE 72

/* ---- 1. The permutation -------------------------------------------------- */

/* Keccak-f[1600] (FIPS 202 §3.4, Algorithm 7 with n_r = 24) with the
 * installed single-state kernel. */
void mlkem_keccak_f1600(uint64_t s[25]);

/* ---- 2. Sponges ---------------------------------------------------------- */

/* An incremental sponge: state, rate in bytes and the byte position inside
 * the current block. Used for SHAKE128/256 and SHA3-256/512. */
typedef struct {
    uint64_t s[25];
    unsigned pos;   /* absorb: bytes absorbed in this block; squeeze: bytes
                       already read from this block */
    unsigned rate;
} mlkem_keccak_ctx;

/* The sponge (Algorithm 8): init with a rate, absorb any number of times,
 * finalize once with the domain byte (0x06 SHA-3, 0x1f SHAKE), squeeze any
 * number of times. */
void mlkem_keccak_init(mlkem_keccak_ctx *ctx, unsigned rate);
void mlkem_keccak_absorb(mlkem_keccak_ctx *ctx, const uint8_t *in, size_t len);
void mlkem_keccak_finalize(mlkem_keccak_ctx *ctx, uint8_t dsbyte);
void mlkem_keccak_squeeze(mlkem_keccak_ctx *ctx, uint8_t *out, size_t len);
/* Whole blocks straight into out (out holds nblocks * rate bytes); only valid
 * right after finalize or a previous squeezeblocks call. */
void mlkem_keccak_squeezeblocks(mlkem_keccak_ctx *ctx, uint8_t *out,
                                size_t nblocks);
/* Wipe a context (FIPS 203 §3.3: intermediates are destroyed). */
void mlkem_keccak_ctx_cleanse(mlkem_keccak_ctx *ctx);

/* SHAKE128 / SHAKE256 (FIPS 202 §6.2) and SHA3-256 / SHA3-512 (§6.1) on the
 * sponge: the init sets the rate, the finalize or final the domain byte;
 * absorb and squeeze are the sponge's. */
void mlkem_shake128_init(mlkem_keccak_ctx *ctx);
void mlkem_shake256_init(mlkem_keccak_ctx *ctx);
void mlkem_shake_finalize(mlkem_keccak_ctx *ctx); /* 0x1f ... 0x80 */
void mlkem_sha3_256_init(mlkem_keccak_ctx *ctx);
void mlkem_sha3_512_init(mlkem_keccak_ctx *ctx);
void mlkem_sha3_256_final(mlkem_keccak_ctx *ctx, uint8_t out[32]);
void mlkem_sha3_512_final(mlkem_keccak_ctx *ctx, uint8_t out[64]);

/* One-shot forms. */
void mlkem_sha3_256(uint8_t out[32], const uint8_t *in, size_t len);
void mlkem_sha3_512(uint8_t out[64], const uint8_t *in, size_t len);
void mlkem_shake128(uint8_t *out, size_t outlen, const uint8_t *in,
                    size_t len);
void mlkem_shake256(uint8_t *out, size_t outlen, const uint8_t *in,
                    size_t len);

/* ---- 3. Parallel states (PlSnP) ------------------------------------------ */

/* Opaque storage for 4 / 8 states; the layout belongs to the installed
 * kernels. 64-byte aligned so vector kernels can load it directly. */
typedef struct {
    MLKEM_ALIGN(64) uint64_t s[4 * 25];
} mlkem_keccak_x4;
typedef struct {
    MLKEM_ALIGN(64) uint64_t s[8 * 25];
} mlkem_keccak_x8;

/* Set all states to zero. */
void mlkem_keccak_x4_init(mlkem_keccak_x4 *st);
void mlkem_keccak_x8_init(mlkem_keccak_x8 *st);
/* XOR len bytes of in into instance `lane` starting at byte `offset` of the
 * state (offset + len <= 200). */
void mlkem_keccak_x4_xor_bytes(mlkem_keccak_x4 *st, unsigned lane,
                               unsigned offset, const uint8_t *in, size_t len);
void mlkem_keccak_x8_xor_bytes(mlkem_keccak_x8 *st, unsigned lane,
                               unsigned offset, const uint8_t *in, size_t len);
/* Copy len bytes of instance `lane` from byte `offset` into out. */
void mlkem_keccak_x4_extract_bytes(const mlkem_keccak_x4 *st, unsigned lane,
                                   unsigned offset, uint8_t *out, size_t len);
void mlkem_keccak_x8_extract_bytes(const mlkem_keccak_x8 *st, unsigned lane,
                                   unsigned offset, uint8_t *out, size_t len);
/* Apply Keccak-f[1600] to every instance. */
void mlkem_keccak_x4_permute(mlkem_keccak_x4 *st);
void mlkem_keccak_x8_permute(mlkem_keccak_x8 *st);

/* Convenience sponges on the parallel states, all instances with the same
 * rate and the same input length (the ML-KEM case: matrix and PRF streams).
 * absorb_once: init, absorb in[i] (inlen bytes each), pad with dsbyte.
 * squeezeblocks: permute and extract nblocks * rate bytes per instance
 * (out[i] may be NULL for an unused lane). */
void mlkem_keccak_x4_absorb_once(mlkem_keccak_x4 *st, unsigned rate,
                                 uint8_t dsbyte, const uint8_t *const in[4],
                                 size_t inlen);
void mlkem_keccak_x4_squeezeblocks(mlkem_keccak_x4 *st, unsigned rate,
                                   uint8_t *const out[4], size_t nblocks);
void mlkem_keccak_x8_absorb_once(mlkem_keccak_x8 *st, unsigned rate,
                                 uint8_t dsbyte, const uint8_t *const in[8],
                                 size_t inlen);
void mlkem_keccak_x8_squeezeblocks(mlkem_keccak_x8 *st, unsigned rate,
                                   uint8_t *const out[8], size_t nblocks);

/* Continue instance `lane` as a single sponge: ctx gets its state, the
 * given rate, and its current block marked used up (the next squeeze
 * permutes). Valid after squeezeblocks. */
void mlkem_keccak_x4_lane_to_ctx(const mlkem_keccak_x4 *st, unsigned lane,
                                 unsigned rate, mlkem_keccak_ctx *ctx);
void mlkem_keccak_x8_lane_to_ctx(const mlkem_keccak_x8 *st, unsigned lane,
                                 unsigned rate, mlkem_keccak_ctx *ctx);

void mlkem_keccak_x4_cleanse(mlkem_keccak_x4 *st);
void mlkem_keccak_x8_cleanse(mlkem_keccak_x8 *st);

#ifdef __cplusplus
}
#endif

#endif /* MLKEM_KECCAK_H */
