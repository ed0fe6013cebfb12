/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reduce.c: the contracts of kem/reduce.h, each function analysed on its
 * own over its whole input range (docs/proofs.md).
 *   Barrett: the int16_t range is covered by the 21 intervals
 *     [3329 v - 1664, 3329 v + 1664], v = -10 .. 10, on each of which the
 *     computed quotient is the constant v; Eva evaluates each interval
 *     exactly, so the ensures (|r| <= 1664) and the absence of a wrap in
 *     a - t q are proven for every input, as by exhaustion.
 *   Montgomery, fqmul_pre: every input allowed by the requires.
 *   caddq: every input of (-q, q).
 *   lo16: every uint32_t.
 * The kernel analyses (slots.c, kem.c) then use Barrett's contract in place
 * of its body (proof/eva.sh: -eva-use-spec).
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "kem/reduce.h"

int main(void)
{
    for (int v = -10; v <= 10; v++) {
        int lo = 3329 * v - 1664, hi = 3329 * v + 1664;
        if (lo < -32768)
            lo = -32768;
        if (hi > 32767)
            hi = 32767;
        int16_t r = mlkem_barrett_reduce((int16_t)Frama_C_interval(lo, hi));
        Frama_C_show_each_barrett(v, r);
    }
    int32_t a = Frama_C_interval(-3329 * 32768 + 1, 3329 * 32768 - 1);
    int16_t m = mlkem_montgomery_reduce(a);
    /* fqmul_pre with any int16_t a and any |b| <= 1664, as the kernel
     * calls it (zetas, gammas and its constants are below 1664), and any
     * bq. */
    int16_t x = (int16_t)Frama_C_interval(-32768, 32767);
    int16_t b = (int16_t)Frama_C_interval(-1664, 1664);
    int16_t bq = (int16_t)Frama_C_interval(-32768, 32767);
    int16_t f = mlkem_fqmul_pre(x, b, bq);
    int16_t c = mlkem_caddq((int16_t)Frama_C_interval(-3328, 3328));
    int16_t l = mlkem_lo16(Frama_C_unsigned_int_interval(0, 0xffffffffu));
    Frama_C_show_each_proof_end(m, f, c, l);
    return 0;
}
