/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha3.c: the sponge construction and SHA3-256/512, SHAKE128/256 on it.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §4 (Algorithm 8, SPONGE[f, pad, r]), §5.1
 *             (pad10*1), §6.1 (SHA3-256 = KECCAK[512](M || 01, 256), SHA3-512
 *             = KECCAK[1024](M || 01, 512)), §6.2 (SHAKE128 = KECCAK[256](M ||
 *             1111, d), SHAKE256 = KECCAK[512](M || 1111, d)), Appendix B.2
 *             (the suffix bits and the first padding bit as one byte: 0x06
 *             for SHA-3, 0x1f for SHAKE; the last padding bit is 0x80 at the
 *             end of the block).
 *
 * The sponge works in place: bytes are XORed into the state as they arrive
 * and the permutation runs each time a block of `rate` bytes is full, so no
 * separate block buffer is kept. Lengths are public; the data is not
 * branched on.
 */
#include "keccak/keccak.h"

#include <string.h>

#include "common/ct.h"
#include "keccak/keccak_lanes.h"

void mlkem_keccak_init(mlkem_keccak_ctx *ctx, unsigned rate)
{
    memset(ctx->s, 0, sizeof(ctx->s));
    ctx->pos = 0;
    ctx->rate = rate;
}

/* Algorithm 8, steps 1-6 (absorbing), incrementally: pos counts the bytes
 * already XORed into the current block, 0 <= pos < rate between calls. */
void mlkem_keccak_absorb(mlkem_keccak_ctx *ctx, const uint8_t *in, size_t len)
{
    const unsigned rate = ctx->rate;
    unsigned pos = ctx->pos;

    while (len > 0) {
        size_t n = rate - pos < len ? rate - pos : len;
        mlkem_state_xor_bytes(ctx->s, pos, in, n);
        in += n;
        len -= n;
        pos += (unsigned)n;
        if (pos == rate) {
            mlkem_keccak_f1600(ctx->s);
            pos = 0;
        }
    }
    ctx->pos = pos;
}

/* Append the domain suffix and pad10*1 (§5.1, B.2): dsbyte at pos, 0x80 at
 * the last byte of the block (the two coincide when pos == rate - 1). The
 * final permutation is left to the first squeeze: pos = rate marks the
 * block as used up. */
void mlkem_keccak_finalize(mlkem_keccak_ctx *ctx, uint8_t dsbyte)
{
    const uint8_t last = 0x80;
    mlkem_state_xor_bytes(ctx->s, ctx->pos, &dsbyte, 1);
    mlkem_state_xor_bytes(ctx->s, ctx->rate - 1, &last, 1);
    ctx->pos = ctx->rate;
}

/* Algorithm 8, steps 7-10 (squeezing), incrementally: pos counts the bytes
 * of the current block already handed out. */
void mlkem_keccak_squeeze(mlkem_keccak_ctx *ctx, uint8_t *out, size_t len)
{
    const unsigned rate = ctx->rate;
    unsigned pos = ctx->pos;

    while (len > 0) {
        if (pos == rate) {
            mlkem_keccak_f1600(ctx->s);
            pos = 0;
        }
        size_t n = rate - pos < len ? rate - pos : len;
        mlkem_state_extract_bytes(ctx->s, pos, out, n);
        out += n;
        len -= n;
        pos += (unsigned)n;
    }
    ctx->pos = pos;
}

void mlkem_shake128_init(mlkem_keccak_ctx *ctx)
{
    mlkem_keccak_init(ctx, MLKEM_SHAKE128_RATE);
}

void mlkem_shake256_init(mlkem_keccak_ctx *ctx)
{
    mlkem_keccak_init(ctx, MLKEM_SHAKE256_RATE);
}

void mlkem_shake_finalize(mlkem_keccak_ctx *ctx)
{
    mlkem_keccak_finalize(ctx, 0x1f);
}

/* Whole blocks: permute, then copy the rate part out. Valid when the current
 * block is used up (pos == rate, right after finalize or squeezeblocks). */
void mlkem_keccak_squeezeblocks(mlkem_keccak_ctx *ctx, uint8_t *out,
                                size_t nblocks)
{
    const unsigned rate = ctx->rate;

    for (size_t i = 0; i < nblocks; i++) {
        mlkem_keccak_f1600(ctx->s);
        mlkem_state_extract_bytes(ctx->s, 0, out, rate);
        out += rate;
    }
}

void mlkem_sha3_256_init(mlkem_keccak_ctx *ctx)
{
    mlkem_keccak_init(ctx, MLKEM_SHA3_256_RATE);
}

void mlkem_sha3_512_init(mlkem_keccak_ctx *ctx)
{
    mlkem_keccak_init(ctx, MLKEM_SHA3_512_RATE);
}

/* The digest is the first 32 / 64 bytes of the first squeezed block
 * (d < r, so Algorithm 8 stops after one block). */
void mlkem_sha3_256_final(mlkem_keccak_ctx *ctx, uint8_t out[32])
{
    mlkem_keccak_finalize(ctx, 0x06);
    mlkem_keccak_f1600(ctx->s);
    mlkem_state_extract_bytes(ctx->s, 0, out, 32);
    mlkem_keccak_ctx_cleanse(ctx);
}

void mlkem_sha3_512_final(mlkem_keccak_ctx *ctx, uint8_t out[64])
{
    mlkem_keccak_finalize(ctx, 0x06);
    mlkem_keccak_f1600(ctx->s);
    mlkem_state_extract_bytes(ctx->s, 0, out, 64);
    mlkem_keccak_ctx_cleanse(ctx);
}

void mlkem_sha3_256(uint8_t out[32], const uint8_t *in, size_t len)
{
    mlkem_keccak_ctx ctx;
    mlkem_sha3_256_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, len);
    mlkem_sha3_256_final(&ctx, out); /* cleanses ctx */
}

void mlkem_sha3_512(uint8_t out[64], const uint8_t *in, size_t len)
{
    mlkem_keccak_ctx ctx;
    mlkem_sha3_512_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, len);
    mlkem_sha3_512_final(&ctx, out); /* cleanses ctx */
}

void mlkem_shake128(uint8_t *out, size_t outlen, const uint8_t *in,
                    size_t len)
{
    mlkem_keccak_ctx ctx;
    mlkem_shake128_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, len);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeeze(&ctx, out, outlen);
    mlkem_keccak_ctx_cleanse(&ctx);
}

void mlkem_shake256(uint8_t *out, size_t outlen, const uint8_t *in,
                    size_t len)
{
    mlkem_keccak_ctx ctx;
    mlkem_shake256_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, len);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeeze(&ctx, out, outlen);
    mlkem_keccak_ctx_cleanse(&ctx);
}

void mlkem_keccak_ctx_cleanse(mlkem_keccak_ctx *ctx)
{
    mlkem_cleanse(ctx, sizeof(*ctx));
}
