/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha3.c: the Eva driver of SHA3-256, SHA3-512 (one-shot and incremental)
 * and SHAKE128 / SHAKE256 (one-shot, and incremental absorb and squeeze),
 * on unknown bytes of every length 0 .. PROOF_MAXLEN (default 168 + 1:
 * every residue modulo each rate, 72, 136 and 168, and at least one whole
 * block at each, so every path of the sponge runs: whole blocks, a partial
 * block, an absorb ending on a block boundary, a squeeze across blocks;
 * about 5 minutes of one core). The length is one nondeterministic value, split
 * so that each length is analysed exactly (Eva keeps no relation between a
 * length and the sponge's position otherwise): a proof by exhaustion over
 * the lengths. The output length equals the input length (after finalize
 * the squeeze does not depend on the input length); the incremental forms
 * cut the input at len / 2 and the output at len / 3.
 */
#include <stddef.h>
#include <stdint.h>

#include "__fc_builtin.h"
#include "keccak/keccak.h"

#ifndef PROOF_MAXLEN
#define PROOF_MAXLEN (168 + 1)
#endif

static uint8_t in[PROOF_MAXLEN], out[PROOF_MAXLEN + 64]; /* + the digests */

int main(void)
{
    mlkem_keccak_ctx ctx;
    size_t cut, ocut;
    Frama_C_make_unknown((char *)in, sizeof(in));
    size_t len = Frama_C_size_t_interval(0, PROOF_MAXLEN);
    /*@ split len; */
    cut = len / 2;
    ocut = len / 3;

    mlkem_sha3_256(out, in, len);
    mlkem_sha3_512(out, in, len);
    mlkem_shake128(out, len, in, len);
    mlkem_shake256(out, len, in, len);

    mlkem_shake128_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeeze(&ctx, out, ocut);
    mlkem_keccak_squeeze(&ctx, out + ocut, len - ocut);
    mlkem_shake256_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeeze(&ctx, out, ocut);
    mlkem_keccak_squeeze(&ctx, out + ocut, len - ocut);
    mlkem_sha3_256_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_sha3_256_final(&ctx, out);
    mlkem_sha3_512_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_sha3_512_final(&ctx, out);
    /*@ merge len; */
    Frama_C_show_each_proof_end(len);
    return 0;
}
