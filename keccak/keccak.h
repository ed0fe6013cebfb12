/*
 * keccak.h: Keccak-f[1600], SHA-3 and SHAKE, single and parallel (x4, x8).
 *
 * References
 *   [FIPS202] NIST FIPS 202, SHA-3 Standard: Permutation-Based Hash and
 *             Extendable-Output Functions, 2015.
 *   [XKCP]    The Keccak team's SnP / PlSnP interfaces (doc/SnP-documentation.h,
 *             doc/PlSnP-documentation.h): the shape of the parallel interface.
 *
 * Layers
 *   1. Permutation ("SnP"): mlkem_keccakf1600(), 25 lanes, little-endian lane
 *      order as in FIPS 202 §3.1.2 (lane (x,y) is s[x + 5y]).
 *   2. Sponges: SHA3-256, SHA3-512 (one-shot and incremental), SHAKE128 and
 *      SHAKE256 (incremental absorb, incremental squeeze).
 *   3. Parallel states ("PlSnP"): keccak_x4 / keccak_x8 hold 4 / 8 independent
 *      states that are permuted together. The memory layout of the states is
 *      owned by the backend that permutes them (a vector backend may
 *      interleave lanes), so callers touch the states only through
 *      keccak_xN_xor_bytes() / keccak_xN_extract_bytes(). Per-lane byte access
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

/* C++ users (bench/, Google Benchmark) include this header too. */
#ifdef __cplusplus
#define MLKEM_ALIGN64 alignas(64)
extern "C" {
#else
#define MLKEM_ALIGN64 _Alignas(64)
#endif

#define SHAKE128_RATE 168
#define SHAKE256_RATE 136
#define SHA3_256_RATE 136
#define SHA3_512_RATE 72

/* ---- 1. The permutation -------------------------------------------------- */

/* Keccak-f[1600] (FIPS 202 §3.4, Algorithm 7 with n_r = 24), dispatched to the
 * best single-state kernel for this CPU (arch/dispatch.c). */
void mlkem_keccakf1600(uint64_t s[25]);

/* ---- 2. Sponges ---------------------------------------------------------- */

/* An incremental sponge: state, rate in bytes and the byte position inside
 * the current block. Used for SHAKE128/256 and SHA3-256/512. */
typedef struct {
    uint64_t s[25];
    unsigned pos;   /* absorb: bytes absorbed in this block; squeeze: bytes
                       already read from this block */
    unsigned rate;
} keccak_ctx;

/* Generic sponge (domain byte dsbyte = 0x06 for SHA-3, 0x1f for SHAKE). */
void keccak_init(keccak_ctx *ctx, unsigned rate);
void keccak_absorb(keccak_ctx *ctx, const uint8_t *in, size_t len);
void keccak_finalize(keccak_ctx *ctx, uint8_t dsbyte);
void keccak_squeeze(keccak_ctx *ctx, uint8_t *out, size_t len);

/* SHAKE128 / SHAKE256: init, absorb any number of times, finalize once,
 * squeeze any number of times. */
void shake128_init(keccak_ctx *ctx);
void shake256_init(keccak_ctx *ctx);
#define shake_absorb keccak_absorb
void shake_finalize(keccak_ctx *ctx); /* pads with 0x1f ... 0x80 */
#define shake_squeeze keccak_squeeze
/* Whole blocks straight into out (out holds nblocks * rate bytes); only valid
 * right after shake_finalize() or a previous squeezeblocks call. */
void shake_squeezeblocks(keccak_ctx *ctx, uint8_t *out, size_t nblocks);

/* SHA3-256 / SHA3-512 incremental. */
void sha3_256_init(keccak_ctx *ctx);
void sha3_512_init(keccak_ctx *ctx);
#define sha3_update keccak_absorb
void sha3_256_final(keccak_ctx *ctx, uint8_t out[32]);
void sha3_512_final(keccak_ctx *ctx, uint8_t out[64]);

/* One-shot forms. */
void sha3_256(uint8_t out[32], const uint8_t *in, size_t len);
void sha3_512(uint8_t out[64], const uint8_t *in, size_t len);
void shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t len);
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t len);

/* Wipe a context (FIPS 203 §3.3: intermediates are destroyed). */
void keccak_ctx_cleanse(keccak_ctx *ctx);

/* ---- 3. Parallel states (PlSnP) ------------------------------------------ */

/* Opaque storage for 4 / 8 states; layout belongs to the permuting backend.
 * 64-byte aligned so vector backends can load it directly. */
typedef struct {
    MLKEM_ALIGN64 uint64_t s[4 * 25];
} keccak_x4;
typedef struct {
    MLKEM_ALIGN64 uint64_t s[8 * 25];
} keccak_x8;

/* Set all states to zero. */
void keccak_x4_init(keccak_x4 *st);
void keccak_x8_init(keccak_x8 *st);
/* XOR len bytes of in into instance `lane` starting at byte `offset` of the
 * state (offset + len <= 200). */
void keccak_x4_xor_bytes(keccak_x4 *st, unsigned lane, unsigned offset,
                         const uint8_t *in, size_t len);
void keccak_x8_xor_bytes(keccak_x8 *st, unsigned lane, unsigned offset,
                         const uint8_t *in, size_t len);
/* Copy len bytes of instance `lane` from byte `offset` into out. */
void keccak_x4_extract_bytes(const keccak_x4 *st, unsigned lane,
                             unsigned offset, uint8_t *out, size_t len);
void keccak_x8_extract_bytes(const keccak_x8 *st, unsigned lane,
                             unsigned offset, uint8_t *out, size_t len);
/* Apply Keccak-f[1600] to every instance. */
void keccak_x4_permute(keccak_x4 *st);
void keccak_x8_permute(keccak_x8 *st);

/* Convenience sponges on the parallel states, all instances with the same
 * rate and the same input length (the ML-KEM case: matrix and PRF streams).
 * absorb_once: init, absorb in[i] (inlen bytes each), pad with dsbyte.
 * squeezeblocks: permute and extract nblocks * rate bytes per instance
 * (out[i] may be NULL for an unused lane). */
void keccak_x4_absorb_once(keccak_x4 *st, unsigned rate, uint8_t dsbyte,
                           const uint8_t *const in[4], size_t inlen);
void keccak_x4_squeezeblocks(keccak_x4 *st, unsigned rate,
                             uint8_t *const out[4], size_t nblocks);
void keccak_x8_absorb_once(keccak_x8 *st, unsigned rate, uint8_t dsbyte,
                           const uint8_t *const in[8], size_t inlen);
void keccak_x8_squeezeblocks(keccak_x8 *st, unsigned rate,
                             uint8_t *const out[8], size_t nblocks);

void keccak_x4_cleanse(keccak_x4 *st);
void keccak_x8_cleanse(keccak_x8 *st);

#ifdef __cplusplus
}
#endif

#endif /* MLKEM_KECCAK_H */
