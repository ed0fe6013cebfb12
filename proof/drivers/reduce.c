/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reduce.c: the contracts of kem/reduce.h, each function analysed on its
 * own over its whole input range (docs/proofs.md).
 *   Barrett: the int16_t range is covered by the 21 intervals
 *     [3329 v - 1664, 3329 v + 1664], v = -10 .. 10, on each of which the
 *     computed quotient is the constant v; Eva evaluates each interval
 *     exactly, so the ensures (|r| <= 1664) and the absence of a wrap in
 *     a - t q are proven for every input, as by exhaustion.
 *   Montgomery: every input allowed by the requires, |r| < q (strict) in
 *     three parts (mont_edge below): a = 65536 h + u with h = a >> 16
 *     in [-1664, 1663], where intervals suffice (|h - floor(t q / 2^16)|
 *     <= 3328 for any t); and the two edges h = 1664 (u < 2^15) and
 *     h = -1665 (u > 2^15), where they do not: there |r| < q needs t
 *     (= u q^-1 mod 2^16) away from -2^15 (top) or 2^15 - 1 (bottom),
 *     which depends on u. Eva tracks u and t modulo 2^k exactly (t = -3327
 *     u mod 2^k), so each edge is split into the classes of u modulo 2^k,
 *     k = 1 .. 16, refining only a class whose t-class still reaches the
 *     bad end of int16_t: 241 cases, every u of the edge in exactly one.
 *   fqmul_pre: every input allowed by the requires.
 *   caddq: every input of (-q, q).
 *   lo16: every uint32_t.
 * The kernel analyses (slots.c, kem.c) then use Barrett's contract in place
 * of its body (proof/eva.sh: -eva-use-spec).
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "kem/reduce.h"

/* The a = 65536 h + u with u = c (mod 2^k), u in [ulo, uhi]. */
static void mont_class(int32_t h, uint32_t c, unsigned k, uint32_t ulo,
                       uint32_t uhi)
{
    const uint32_t m = 1u << k;
    const uint32_t first = ulo + ((c - ulo) & (m - 1));
    if (first > uhi)
        return;
    int32_t u = (int32_t)first +
                (int32_t)m * Frama_C_interval(0, (int32_t)((uhi - first) >> k));
    int16_t r = mlkem_montgomery_reduce(h * 65536 + u);
    Frama_C_show_each_montgomery_edge(h, k, r);
}

/* Every u in [ulo, uhi], by classes modulo 2^k: a class is analysed once
 * Eva's range of t, the int16_t values = -3327 c (mod 2^k), stays off
 * the end that could give |r| = q: t >= -32758 at the top edge
 * (floor(t q / 2^16) >= -1664), t <= 32758 at the bottom; otherwise its
 * two subclasses modulo 2^(k+1) are. At k = 16 a class is one u. */
static void mont_edge(int32_t h, uint32_t ulo, uint32_t uhi, int top)
{
    uint32_t pend[64], next[64];
    unsigned np = 1;

    pend[0] = 0;
    /*@ loop unroll 16; */
    for (unsigned k = 1; k <= 16; k++) {
        const uint32_t m = 1u << k;
        unsigned nn = 0;
        /*@ loop unroll 64; */
        for (unsigned i = 0; i < np; i++)
            /*@ loop unroll 2; */
            for (uint32_t b = 0; b < 2; b++) {
                const uint32_t c = pend[i] + (b << (k - 1));
                const uint32_t tc = (c * 62209u) & (m - 1); /* t mod 2^k */
                if (k == 16 ||
                    (top ? tc >= 10 : ((32767 - tc) & (m - 1)) >= 9))
                    mont_class(h, c, k, ulo, uhi);
                else
                    next[nn++] = c;
            }
        /*@ loop unroll 64; */
        for (unsigned i = 0; i < nn; i++)
            pend[i] = next[i];
        np = nn;
    }
}

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
    /* Montgomery: |a| < q 2^15 = 1664.5 * 2^16, |r| < q (its ensures). */
    int16_t m = mlkem_montgomery_reduce(
        Frama_C_interval(-1664 * 65536, 1664 * 65536 - 1));
    mont_edge(1664, 0, 32767, 1);      /* up to q 2^15 - 1 */
    mont_edge(-1665, 32769, 65535, 0); /* down to -q 2^15 + 1 */
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
