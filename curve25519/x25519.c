/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x25519.c: the X25519 public key of a scalar, X25519(k, 9) [RFC7748], in
 * portable C with 64-bit limbs (fe25519.h): the key generation of
 * X25519MLKEM768's classical half (provider/hybrid_ec.c). The
 * Diffie-Hellman step itself stays with the default provider, whose
 * variable-base ladder (assembly on x86-64) is faster than C would be.
 * curve25519/ depends on common/ and the C library only
 * (test/layering/check_layers.sh).
 *
 * References
 *   [RFC7748] Curves for Security: §4.1 (curve25519 and the birational map
 *             to edwards25519: u = (1 + y) / (1 - y)), §5 (decoding the
 *             scalar, and u), §6.1 (the public key is X25519(k, 9)).
 *   [RFC8032] EdDSA: §5.1 (edwards25519: d, and the base point B, whose
 *             image under the map is u = 9).
 *   [HWCD08]  Hisil, Wong, Carter, Dawson, "Twisted Edwards curves
 *             revisited" (ASIACRYPT 2008): extended coordinates, the
 *             addition (§3.2, a = -1, k = 2d) and doubling (§3.3) used here;
 *             both are complete on edwards25519 (a = -1 is a square mod p
 *             and d is not), so no input needs special handling.
 *
 * Why not libcrypto's: OpenSSL 3.0 to 3.5 compute an X25519 public key
 * with the 32-bit ref10 code of crypto/ec/curve25519.c (ten 25.5-bit
 * limbs), about 2.5 times the time of the comb below on the dev VM (Zen 4);
 * a TLS handshake with X25519MLKEM768 makes two of them.
 *
 * Field elements and their limb bounds: fe25519.h; points, the addition
 * and the doubling: ge25519.h.
 *
 * The scalar multiplication k B on edwards25519 is a signed radix-16 comb:
 * k = sum d_i 16^i with d_i in [-8, 8], 32 additions of d_i 256^(i/2) B
 * for odd i, 4 doublings, 32 additions for even i; then one inversion for
 * u. The additions are mixed (the table's points are affine: 7
 * multiplications each). The table of 256^i j B (i < 32, 1 <= j <= 8;
 * 32 KiB, public) is const data, comb_table.h, written by
 * gen_comb_table.c from B alone with the same arithmetic (the test
 * curve25519_comb_table regenerates it and compares).
 * The secret scalar never picks a branch or an address: each table entry
 * is chosen by masked reads of its whole row, the sign by a masked swap.
 * Every intermediate is in one struct, wiped before returning, and the
 * stack below it is scrubbed (common/ct.h).
 */
#include "curve25519/x25519.h"

#ifdef MLKEM_X25519_NATIVE

#include <string.h>

#include "common/ct.h"
#include "curve25519/comb_table.h"
#include "curve25519/fe25519.h"
#include "curve25519/ge25519.h"

/* f, g = g, f if mask is all ones; unchanged if it is zero. */
static void fe_cswap(fe f, fe g, uint64_t mask)
{
    int i;

    for (i = 0; i < 5; i++) {
        uint64_t x = (f[i] ^ g[i]) & mask;

        f[i] ^= x;
        g[i] ^= x;
    }
}

/* f = g if mask is all ones. */
static void fe_cmov(fe f, const fe g, uint64_t mask)
{
    int i;

    for (i = 0; i < 5; i++)
        f[i] ^= (f[i] ^ g[i]) & mask;
}

/* The scalar of [RFC7748] §5, decodeScalar25519: bits 0-2 and 255 cleared,
 * bit 254 set. */
static void clamp(uint8_t e[32], const uint8_t k[32])
{
    memcpy(e, k, 32);
    e[0] &= 248;
    e[31] &= 127;
    e[31] |= 64;
}

/* ---- The fixed-base comb -------------------------------------------------- */

typedef struct {
    uint8_t e[32];
    int8_t digit[64];
    ge_p3 h;
    ge_precomp sel;
    ge_scratch s;
    fe zpy, zmy;
} comb_state;

/* sel = digit 256^row B for a digit in [-8, 8]: every entry of the row is
 * read, and the one wanted kept by a mask. */
static void comb_select(comb_state *st, int row, int8_t digit)
{
    uint64_t neg = 0 - (uint64_t)(((uint8_t)digit) >> 7);
    uint64_t mag = (uint64_t)(uint8_t)((digit ^ (int8_t)neg) - (int8_t)neg);
    ge_precomp *r = &st->sel;
    uint64_t acc[16];
    int j, l;

    /* The identity: y + x = y - x = 1, 2 d x y = 0. */
    memset(acc, 0, sizeof(acc));
    acc[0] = 1;
    acc[5] = 1;
    for (j = 0; j < COMB_COLS; j++) {
        /* all ones iff mag == j + 1 */
        uint64_t m = 0 - (((mag ^ (uint64_t)(j + 1)) - 1) >> 63);
        const uint64_t *w = comb_table[row][j].w;

        for (l = 0; l < 16; l++)
            acc[l] ^= (acc[l] ^ w[l]) & m;
    }
    memcpy(r->w, acc, sizeof(acc));
    mlkem_cleanse(acc, sizeof(acc));
    /* -(x, y) = (-x, y): y + x and y - x trade places, x y changes sign. */
    fe_cswap(r->f.ypx, r->f.ymx, neg);
    fe_0(st->zpy);
    fe_sub(st->zpy, st->zpy, r->f.t2d);
    fe_cmov(r->f.t2d, st->zpy, neg);
}

void mlkem_x25519_public(uint8_t out[32], const uint8_t k[32])
{
    comb_state st;
    int i;
    int8_t carry = 0;

    clamp(st.e, k);
    /* Signed radix 16: k = sum digit[i] 16^i, digit[i] in [-8, 8). The top
     * digit is at most 7 + 1 since bit 255 is clear. */
    for (i = 0; i < 32; i++) {
        st.digit[2 * i] = (int8_t)(st.e[i] & 15);
        st.digit[2 * i + 1] = (int8_t)(st.e[i] >> 4);
    }
    for (i = 0; i < 63; i++) {
        st.digit[i] = (int8_t)(st.digit[i] + carry);
        carry = (int8_t)((st.digit[i] + 8) >> 4);
        st.digit[i] = (int8_t)(st.digit[i] - (carry << 4));
    }
    st.digit[63] = (int8_t)(st.digit[63] + carry);
    carry = 0;

    /* h = sum over odd i, times 16, plus the sum over even i. */
    fe_0(st.h.X);
    fe_1(st.h.Y);
    fe_1(st.h.Z);
    fe_0(st.h.T);
    for (i = 1; i < 64; i += 2) {
        comb_select(&st, i / 2, st.digit[i]);
        ge_madd(&st.h, &st.h, &st.sel, &st.s);
    }
    for (i = 0; i < 4; i++)
        ge_dbl(&st.h, &st.h, &st.s);
    for (i = 0; i < 64; i += 2) {
        comb_select(&st, i / 2, st.digit[i]);
        ge_madd(&st.h, &st.h, &st.sel, &st.s);
    }
    /* [RFC7748] §4.1: u = (1 + y) / (1 - y) = (Z + Y) / (Z - Y). */
    fe_add(st.zpy, st.h.Z, st.h.Y);
    fe_sub(st.zmy, st.h.Z, st.h.Y);
    fe_invert(st.zmy, st.zmy);
    fe_mul(st.zpy, st.zpy, st.zmy);
    fe_tobytes(out, st.zpy);
    mlkem_cleanse(&st, sizeof(st));
    /* What the field functions spilled below this frame. */
    mlkem_stack_scrub();
}

#endif /* MLKEM_X25519_NATIVE */
