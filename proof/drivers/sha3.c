/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha3.c: the Eva driver of SHA3-256, SHA3-512 (one-shot and incremental)
 * and SHAKE128 / SHAKE256 (incremental absorb and squeeze), on unknown
 * bytes of any length up to PROOF_MAXLEN (default 3 * 168 + 1: more than
 * two blocks at every rate, so every path of the sponge runs: whole
 * blocks, a partial block, an absorb that ends exactly on a block
 * boundary, a squeeze across blocks). Each length is one nondeterministic
 * value (Frama_C_size_t_interval), not a loop over lengths, so one run
 * covers them all; the incremental forms split the input at a second
 * unknown point. Lengths beyond the bound run the same loops more often;
 * see docs/proofs.md.
 */
#include <stddef.h>
#include <stdint.h>

#include "__fc_builtin.h"
#include "keccak/keccak.h"

#ifndef PROOF_MAXLEN
#define PROOF_MAXLEN (3 * 168 + 1)
#endif

static uint8_t in[PROOF_MAXLEN], out[PROOF_MAXLEN];

int main(void)
{
    mlkem_keccak_ctx ctx;
    Frama_C_make_unknown((char *)in, sizeof(in));
    size_t len = Frama_C_size_t_interval(0, PROOF_MAXLEN);
    size_t cut = Frama_C_size_t_interval(0, len);
    size_t outlen = Frama_C_size_t_interval(0, PROOF_MAXLEN);
    size_t ocut = Frama_C_size_t_interval(0, outlen);

    mlkem_sha3_256(out, in, len);
    mlkem_sha3_512(out, in, len);
    mlkem_shake128(out, outlen, in, len);
    mlkem_shake256(out, outlen, in, len);

    /* incremental: two absorbs, two squeezes */
    mlkem_shake128_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeeze(&ctx, out, ocut);
    mlkem_keccak_squeeze(&ctx, out + ocut, outlen - ocut);
    mlkem_shake256_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeeze(&ctx, out, ocut);
    mlkem_keccak_squeeze(&ctx, out + ocut, outlen - ocut);
    mlkem_sha3_256_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_sha3_256_final(&ctx, out);
    mlkem_sha3_512_init(&ctx);
    mlkem_keccak_absorb(&ctx, in, cut);
    mlkem_keccak_absorb(&ctx, in + cut, len - cut);
    mlkem_sha3_512_final(&ctx, out);
    Frama_C_show_each_proof_end(len, outlen);
    return 0;
}
