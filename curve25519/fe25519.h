/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fe25519.h: arithmetic mod p = 2^255 - 19, in portable C with 64-bit
 * limbs, for x25519.c and the comb table's generator (gen_comb_table.c).
 * Static functions in a header, like kem/ntt_template.h: each includer
 * gets its own copy, inlined as the compiler sees fit; not every includer
 * uses every function (hence MLKEM_UNUSED).
 *
 * Field elements are five 51-bit limbs (uint64_t), value sum f[i] 2^(51 i);
 * products go through unsigned __int128. Limb bounds, which every function
 * below keeps:
 *   "reduced"  every limb < 2^51 + 2^22: the output of fe_mul, fe_sq,
 *              fe_mul_small, fe_sub, fe_frombytes;
 *   fe_add     of two reduced elements: limbs < 2^52 + 2^23;
 *   fe_mul / fe_sq take limbs < 2^54 (column sums < 5 * 19 * 2^108 <
 *              2^115, so every carry fits 64 bits); the largest input in
 *              ge25519.h is G = 2 Z1 Z2 + C in ge_add_core, < 2^53;
 *   fe_sub(f, g) takes f < 2^60, g < 4p's limbs (> 2^53 - 77).
 *
 * References
 *   [RFC7748] Curves for Security: §5 (decoding u: bit 255 ignored).
 */
#ifndef MLKEM_CURVE25519_FE25519_H
#define MLKEM_CURVE25519_FE25519_H

#include <stdint.h>
#include <string.h>

#include "common/bytes.h"
#include "common/compiler.h"
#include "common/ct.h"

typedef unsigned __int128 u128;
typedef uint64_t fe[5];

#define M51 ((uint64_t)0x7ffffffffffff)

/* ---- Field arithmetic mod 2^255 - 19 ------------------------------------ */

/* Bits 0..254 of s (bit 255 ignored, [RFC7748] §5); a value >= p is kept
 * as is and behaves as its residue. */
static MLKEM_UNUSED void fe_frombytes(fe h, const uint8_t s[32])
{
    uint64_t w0 = mlkem_load64le(s), w1 = mlkem_load64le(s + 8);
    uint64_t w2 = mlkem_load64le(s + 16), w3 = mlkem_load64le(s + 24);

    h[0] = w0 & M51;
    h[1] = ((w0 >> 51) | (w1 << 13)) & M51;
    h[2] = ((w1 >> 38) | (w2 << 26)) & M51;
    h[3] = ((w2 >> 25) | (w3 << 39)) & M51;
    h[4] = (w3 >> 12) & M51;
}

/* The canonical encoding: the unique residue in [0, p), little endian. */
static MLKEM_UNUSED void fe_tobytes(uint8_t s[32], const fe f)
{
    uint64_t h0 = f[0], h1 = f[1], h2 = f[2], h3 = f[3], h4 = f[4], q;
    int pass;

    /* Two carry passes: h1..h4 < 2^51, h0 < 2^51 + 19, so the value is
     * below 2^255 + 19 < 2p and each step of the q chain below carries at
     * most 1. */
    for (pass = 0; pass < 2; pass++) {
        h1 += h0 >> 51;
        h0 &= M51;
        h2 += h1 >> 51;
        h1 &= M51;
        h3 += h2 >> 51;
        h2 &= M51;
        h4 += h3 >> 51;
        h3 &= M51;
        h0 += 19 * (h4 >> 51);
        h4 &= M51;
    }
    /* q = 1 iff h >= p, i.e. h + 19 >= 2^255; then h - p = h + 19 - 2^255. */
    q = (h0 + 19) >> 51;
    q = (h1 + q) >> 51;
    q = (h2 + q) >> 51;
    q = (h3 + q) >> 51;
    q = (h4 + q) >> 51;
    h0 += 19 * q;
    h1 += h0 >> 51;
    h0 &= M51;
    h2 += h1 >> 51;
    h1 &= M51;
    h3 += h2 >> 51;
    h2 &= M51;
    h4 += h3 >> 51;
    h3 &= M51;
    h4 &= M51;
    mlkem_store64le(s, h0 | (h1 << 51));
    mlkem_store64le(s + 8, (h1 >> 13) | (h2 << 38));
    mlkem_store64le(s + 16, (h2 >> 26) | (h3 << 25));
    mlkem_store64le(s + 24, (h3 >> 39) | (h4 << 12));
}

static MLKEM_UNUSED void fe_0(fe h)
{
    h[0] = h[1] = h[2] = h[3] = h[4] = 0;
}

static MLKEM_UNUSED void fe_1(fe h)
{
    h[0] = 1;
    h[1] = h[2] = h[3] = h[4] = 0;
}

static MLKEM_UNUSED void fe_copy(fe h, const fe f)
{
    memcpy(h, f, sizeof(fe));
}

static MLKEM_UNUSED void fe_add(fe h, const fe f, const fe g)
{
    int i;

    for (i = 0; i < 5; i++)
        h[i] = f[i] + g[i];
}

/* h = f - g + 4p, carried (reduced). */
static MLKEM_UNUSED void fe_sub(fe h, const fe f, const fe g)
{
    uint64_t h0 = f[0] + 0x1fffffffffffb4 - g[0];
    uint64_t h1 = f[1] + 0x1ffffffffffffc - g[1];
    uint64_t h2 = f[2] + 0x1ffffffffffffc - g[2];
    uint64_t h3 = f[3] + 0x1ffffffffffffc - g[3];
    uint64_t h4 = f[4] + 0x1ffffffffffffc - g[4];

    h1 += h0 >> 51;
    h0 &= M51;
    h2 += h1 >> 51;
    h1 &= M51;
    h3 += h2 >> 51;
    h2 &= M51;
    h4 += h3 >> 51;
    h3 &= M51;
    h0 += 19 * (h4 >> 51);
    h4 &= M51;
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
    h[3] = h3;
    h[4] = h4;
}

/* Carry five wide column sums (each < 2^115) into a reduced element:
 * 2^255 = 19 mod p. Inlined: five 128-bit arguments would go through the
 * stack. */
static inline __attribute__((always_inline)) void
fe_carry_wide(fe h, u128 r0, u128 r1, u128 r2, u128 r3, u128 r4)
{
    uint64_t h0, h1, h2, h3, h4, c;
    u128 t;

    h0 = (uint64_t)r0 & M51;
    c = (uint64_t)(r0 >> 51);
    r1 += c;
    h1 = (uint64_t)r1 & M51;
    c = (uint64_t)(r1 >> 51);
    r2 += c;
    h2 = (uint64_t)r2 & M51;
    c = (uint64_t)(r2 >> 51);
    r3 += c;
    h3 = (uint64_t)r3 & M51;
    c = (uint64_t)(r3 >> 51);
    r4 += c;
    h4 = (uint64_t)r4 & M51;
    c = (uint64_t)(r4 >> 51);
    t = (u128)c * 19 + h0;
    h[0] = (uint64_t)t & M51;
    h[1] = h1 + (uint64_t)(t >> 51);
    h[2] = h2;
    h[3] = h3;
    h[4] = h4;
}

static MLKEM_UNUSED void fe_mul(fe h, const fe f, const fe g)
{
    uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    uint64_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4];
    uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    u128 r0, r1, r2, r3, r4;

    r0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 + (u128)f3 * g2_19
         + (u128)f4 * g1_19;
    r1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 + (u128)f3 * g3_19
         + (u128)f4 * g2_19;
    r2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 + (u128)f3 * g4_19
         + (u128)f4 * g3_19;
    r3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 + (u128)f3 * g0
         + (u128)f4 * g4_19;
    r4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 + (u128)f3 * g1
         + (u128)f4 * g0;
    fe_carry_wide(h, r0, r1, r2, r3, r4);
}

static MLKEM_UNUSED void fe_sq(fe h, const fe f)
{
    uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
    u128 r0, r1, r2, r3, r4;

    r0 = (u128)f0 * f0 + (u128)f1_2 * f4_19 + (u128)(2 * f2) * f3_19;
    r1 = (u128)f0_2 * f1 + (u128)(2 * f2) * f4_19 + (u128)f3 * f3_19;
    r2 = (u128)f0_2 * f2 + (u128)f1 * f1 + (u128)(2 * f3) * f4_19;
    r3 = (u128)f0_2 * f3 + (u128)f1_2 * f2 + (u128)f4 * f4_19;
    r4 = (u128)f0_2 * f4 + (u128)f1_2 * f3 + (u128)f2 * f2;
    fe_carry_wide(h, r0, r1, r2, r3, r4);
}

/* h = f^(2^n), n >= 1. */
static MLKEM_UNUSED void fe_sq_n(fe h, const fe f, int n)
{
    fe_sq(h, f);
    while (--n > 0)
        fe_sq(h, h);
}

static MLKEM_UNUSED void fe_mul_small(fe h, const fe f, uint64_t c)
{
    fe_carry_wide(h, (u128)f[0] * c, (u128)f[1] * c, (u128)f[2] * c,
                  (u128)f[3] * c, (u128)f[4] * c);
}

/* h = z^(p-2) = 1/z (0 for z = 0): 254 squarings and 11 multiplications. */
static MLKEM_UNUSED void fe_invert(fe h, const fe z)
{
    fe z2, z9, z11, z5_0, z10_0, z20_0, z50_0, z100_0, t;

    fe_sq(z2, z);            /* z^2 */
    fe_sq_n(t, z2, 2);       /* z^8 */
    fe_mul(z9, t, z);        /* z^9 */
    fe_mul(z11, z9, z2);     /* z^11 */
    fe_sq(t, z11);           /* z^22 */
    fe_mul(z5_0, t, z9);     /* z^(2^5 - 1) */
    fe_sq_n(t, z5_0, 5);
    fe_mul(z10_0, t, z5_0);  /* z^(2^10 - 1) */
    fe_sq_n(t, z10_0, 10);
    fe_mul(z20_0, t, z10_0); /* z^(2^20 - 1) */
    fe_sq_n(t, z20_0, 20);
    fe_mul(t, t, z20_0);     /* z^(2^40 - 1) */
    fe_sq_n(t, t, 10);
    fe_mul(z50_0, t, z10_0); /* z^(2^50 - 1) */
    fe_sq_n(t, z50_0, 50);
    fe_mul(z100_0, t, z50_0); /* z^(2^100 - 1) */
    fe_sq_n(t, z100_0, 100);
    fe_mul(t, t, z100_0);    /* z^(2^200 - 1) */
    fe_sq_n(t, t, 50);
    fe_mul(t, t, z50_0);     /* z^(2^250 - 1) */
    fe_sq_n(t, t, 5);        /* z^(2^255 - 32) */
    fe_mul(h, t, z11);       /* z^(2^255 - 21) = z^(p - 2) */
    mlkem_cleanse(z2, sizeof(z2));
    mlkem_cleanse(z9, sizeof(z9));
    mlkem_cleanse(z11, sizeof(z11));
    mlkem_cleanse(z5_0, sizeof(z5_0));
    mlkem_cleanse(z10_0, sizeof(z10_0));
    mlkem_cleanse(z20_0, sizeof(z20_0));
    mlkem_cleanse(z50_0, sizeof(z50_0));
    mlkem_cleanse(z100_0, sizeof(z100_0));
    mlkem_cleanse(t, sizeof(t));
}

#endif /* MLKEM_CURVE25519_FE25519_H */
