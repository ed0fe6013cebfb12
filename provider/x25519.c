/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x25519.c: the X25519 public key of a scalar, X25519(k, 9) [RFC7748], in
 * portable C with 64-bit limbs: the key generation of X25519MLKEM768's
 * classical half (hybrid_ec.c). The Diffie-Hellman step itself stays with
 * the default provider, whose variable-base ladder (assembly on x86-64) is
 * faster than C would be.
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
 * Field elements mod p = 2^255 - 19 are five 51-bit limbs (uint64_t), value
 * sum f[i] 2^(51 i); products go through unsigned __int128. Limb bounds,
 * which every function below keeps:
 *   "reduced"  every limb < 2^51 + 2^22: the output of fe_mul, fe_sq,
 *              fe_mul_small, fe_sub, fe_frombytes;
 *   fe_add     of two reduced elements: limbs < 2^52 + 2^23;
 *   fe_mul / fe_sq take limbs < 2^54 (column sums < 5 * 19 * 2^108 <
 *              2^115, so every carry fits 64 bits); the largest input
 *              below is G = 2 Z1 Z2 + C in ge_add, < 2^53;
 *   fe_sub(f, g) takes f < 2^60, g < 4p's limbs (> 2^53 - 77).
 *
 * The scalar multiplication k B on edwards25519 is a signed radix-16 comb:
 * k = sum d_i 16^i with d_i in [-8, 8], 32 additions of d_i 256^(i/2) B
 * for odd i, 4 doublings, 32 additions for even i; then one inversion for
 * u. The additions are mixed (the table's points are affine: 7
 * multiplications each). The table of 256^i j B (i < 32, 1 <= j <= 8;
 * 32 KiB, public) is built once per process on first use, from B alone:
 * each row by 9 doublings and 3 additions in extended coordinates, then
 * all 256 points made affine with one inversion (Montgomery's trick),
 * about 0.2 ms on the dev VM.
 * The secret scalar never picks a branch or an address: each table entry
 * is chosen by masked reads of its whole row, the sign by a masked swap.
 * Every intermediate is in one struct, wiped before returning, and the
 * stack below it is scrubbed (common/ct.h).
 */
#include "provider/x25519.h"

#ifdef MLKEM_X25519_NATIVE

#include <string.h>

#include <openssl/crypto.h>

#include "common/bytes.h"
#include "common/ct.h"

typedef unsigned __int128 u128;
typedef uint64_t fe[5];

#define M51 ((uint64_t)0x7ffffffffffff)

/* ---- Field arithmetic mod 2^255 - 19 ------------------------------------ */

/* Bits 0..254 of s (bit 255 ignored, [RFC7748] §5); a value >= p is kept
 * as is and behaves as its residue. */
static void fe_frombytes(fe h, const uint8_t s[32])
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
static void fe_tobytes(uint8_t s[32], const fe f)
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

static void fe_0(fe h)
{
    h[0] = h[1] = h[2] = h[3] = h[4] = 0;
}

static void fe_1(fe h)
{
    h[0] = 1;
    h[1] = h[2] = h[3] = h[4] = 0;
}

static void fe_copy(fe h, const fe f)
{
    memcpy(h, f, sizeof(fe));
}

static void fe_add(fe h, const fe f, const fe g)
{
    int i;

    for (i = 0; i < 5; i++)
        h[i] = f[i] + g[i];
}

/* h = f - g + 4p, carried (reduced). */
static void fe_sub(fe h, const fe f, const fe g)
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

static void fe_mul(fe h, const fe f, const fe g)
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

static void fe_sq(fe h, const fe f)
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
static void fe_sq_n(fe h, const fe f, int n)
{
    fe_sq(h, f);
    while (--n > 0)
        fe_sq(h, h);
}

static void fe_mul_small(fe h, const fe f, uint64_t c)
{
    fe_carry_wide(h, (u128)f[0] * c, (u128)f[1] * c, (u128)f[2] * c,
                  (u128)f[3] * c, (u128)f[4] * c);
}

/* h = z^(p-2) = 1/z (0 for z = 0): 254 squarings and 11 multiplications. */
static void fe_invert(fe h, const fe z)
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

/* ---- edwards25519 and the fixed-base comb ------------------------------- */

/* Extended coordinates [HWCD08]: x = X/Z, y = Y/Z, x y = T/Z. */
typedef struct {
    fe X, Y, Z, T;
} ge_p3;

/* A table point, affine (Z = 1) and ready to be added: y + x, y - x,
 * 2 d x y. Kept as 16 consecutive words (15 limbs and a zero) so that a
 * masked read is one loop the compiler turns into vector operations. */
typedef union {
    struct {
        fe ypx, ymx, t2d;
        uint64_t pad;
    } f;
    uint64_t w[16];
} ge_precomp;

/* The temporaries of one addition or doubling (secret in the comb). */
typedef struct {
    fe a, b, c, d, e, f, g, h;
} ge_scratch;

/* 256^i (j + 1) B for i = 0..31, j = 0..7: public. */
#define COMB_ROWS 32
#define COMB_COLS 8
static ge_precomp comb_table[COMB_ROWS][COMB_COLS];
static fe ed_2d; /* 2 d, d = -121665 / 121666 ([RFC7748] §4.1) */
static CRYPTO_ONCE comb_once = CRYPTO_ONCE_STATIC_INIT;
static int comb_ready;

/* r = p + q ([HWCD08] §3.2, a = -1, k = 2d) with q given as y + x, y - x,
 * 2 d x y in projective form over qz, or affine when qz is NULL (the
 * comb's mixed addition: one multiplication fewer). r may be p. Complete:
 * any two points, equal or not, identity or not. */
static void ge_add_core(ge_p3 *r, const ge_p3 *p, const fe qypx, const fe qymx,
                        const fe qt2d, const uint64_t *qz, ge_scratch *s)
{
    fe_sub(s->a, p->Y, p->X);
    fe_mul(s->a, s->a, qymx);     /* A = (Y1 - X1)(Y2 - X2) */
    fe_add(s->b, p->Y, p->X);
    fe_mul(s->b, s->b, qypx);     /* B = (Y1 + X1)(Y2 + X2) */
    fe_mul(s->c, p->T, qt2d);     /* C = T1 2d T2 */
    if (qz != NULL)               /* public: which caller this is */
        fe_mul(s->d, p->Z, qz);
    else
        fe_copy(s->d, p->Z);
    fe_add(s->d, s->d, s->d);     /* D = 2 Z1 Z2 */
    fe_sub(s->e, s->b, s->a);     /* E = B - A */
    fe_sub(s->f, s->d, s->c);     /* F = D - C */
    fe_add(s->g, s->d, s->c);     /* G = D + C */
    fe_add(s->h, s->b, s->a);     /* H = B + A */
    fe_mul(r->X, s->e, s->f);
    fe_mul(r->Y, s->g, s->h);
    fe_mul(r->T, s->e, s->h);
    fe_mul(r->Z, s->f, s->g);
}

static void ge_madd(ge_p3 *r, const ge_p3 *p, const ge_precomp *q, ge_scratch *s)
{
    ge_add_core(r, p, q->f.ypx, q->f.ymx, q->f.t2d, NULL, s);
}

/* r = p + q, both extended: for building the table (public points). */
static void ge_add(ge_p3 *r, const ge_p3 *p, const ge_p3 *q, ge_scratch *s)
{
    fe ypx, ymx, t2d;

    fe_add(ypx, q->Y, q->X);
    fe_sub(ymx, q->Y, q->X);
    fe_mul(t2d, q->T, ed_2d);
    ge_add_core(r, p, ypx, ymx, t2d, q->Z, s);
}

/* r = 2 p ([HWCD08] §3.3, a = -1); r may be p. */
static void ge_dbl(ge_p3 *r, const ge_p3 *p, ge_scratch *s)
{
    fe_sq(s->a, p->X);          /* A = X1^2 */
    fe_sq(s->b, p->Y);          /* B = Y1^2 */
    fe_sq(s->c, p->Z);
    fe_add(s->c, s->c, s->c);   /* C = 2 Z1^2 */
    fe_add(s->e, p->X, p->Y);
    fe_sq(s->e, s->e);
    fe_sub(s->e, s->e, s->a);
    fe_sub(s->e, s->e, s->b);   /* E = (X1 + Y1)^2 - A - B */
    fe_sub(s->g, s->b, s->a);   /* G = -A + B */
    fe_sub(s->f, s->g, s->c);   /* F = G - C */
    fe_add(s->d, s->a, s->b);
    fe_0(s->h);
    fe_sub(s->h, s->h, s->d);   /* H = -A - B */
    fe_mul(r->X, s->e, s->f);
    fe_mul(r->Y, s->g, s->h);
    fe_mul(r->T, s->e, s->h);
    fe_mul(r->Z, s->f, s->g);
}

/* B of [RFC8032] §5.1: y = 4/5, x the even root; x's little-endian bytes. */
static const uint8_t ed_base_x[32] = {
    0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95,
    0x60, 0xc7, 0x2c, 0x69, 0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0,
    0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21};

/* The table: the 256 multiples in extended coordinates (one doubling or
 * addition each), then all made affine with a single inversion
 * (Montgomery's trick: 3 multiplications per point). Public data only. */
static void comb_init(void)
{
    /* Scratch of the one run (static: nothing here can fail). */
    static ge_p3 pts[COMB_ROWS * COMB_COLS];
    static fe prefix[COMB_ROWS * COMB_COLS];
    ge_p3 p, q;
    fe t, d, inv, zinv, x, y;
    ge_scratch s;
    ge_precomp *e;
    int i, j, n = COMB_ROWS * COMB_COLS;

    /* d = -121665 / 121666 and y(B) = 4 / 5: small constants, inverted. */
    fe_0(t);
    t[0] = 121666;
    fe_invert(d, t);
    fe_mul_small(d, d, 121665); /* -d */
    fe_add(d, d, d);            /* -2d */
    fe_0(t);
    fe_sub(ed_2d, t, d);        /* 2d, reduced */
    fe_frombytes(p.X, ed_base_x);
    t[0] = 5;
    fe_invert(p.Y, t);
    fe_mul_small(p.Y, p.Y, 4);
    fe_1(p.Z);
    fe_mul(p.T, p.X, p.Y);

    /* pts[8 i + j] = (j + 1) P with P = 256^i B, all extended: 2P, 4P, 6P,
     * 8P by doubling, the odd ones by adding P; then 256 P = 32 (8P). */
    for (i = 0; i < COMB_ROWS; i++) {
        ge_p3 *row = pts + i * COMB_COLS;

        row[0] = p;
        for (j = 1; j < COMB_COLS; j += 2) {
            ge_dbl(&row[j], &row[j / 2], &s);          /* (j + 1) P */
            if (j + 1 < COMB_COLS)
                ge_add(&row[j + 1], &row[j], &p, &s); /* (j + 2) P */
        }
        q = row[COMB_COLS - 1];
        for (j = 0; j < 5; j++)
            ge_dbl(&q, &q, &s);
        p = q;
    }

    /* prefix[i] = Z_0 ... Z_i; inv = 1 / prefix[n - 1]; then backwards
     * 1 / Z_i = inv prefix[i - 1], inv = inv Z_i. */
    fe_copy(prefix[0], pts[0].Z);
    for (i = 1; i < n; i++)
        fe_mul(prefix[i], prefix[i - 1], pts[i].Z);
    fe_invert(inv, prefix[n - 1]);
    for (i = n - 1; i >= 0; i--) {
        if (i > 0) {
            fe_mul(zinv, inv, prefix[i - 1]);
            fe_mul(inv, inv, pts[i].Z);
        } else {
            fe_copy(zinv, inv);
        }
        fe_mul(x, pts[i].X, zinv);
        fe_mul(y, pts[i].Y, zinv);
        e = &comb_table[i / COMB_COLS][i % COMB_COLS];
        e->f.pad = 0;
        fe_add(e->f.ypx, y, x);
        fe_sub(e->f.ymx, y, x);
        fe_mul(e->f.t2d, x, y);
        fe_mul(e->f.t2d, e->f.t2d, ed_2d);
    }
    comb_ready = 1;
}

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

int mlkem_x25519_public(uint8_t out[32], const uint8_t k[32])
{
    comb_state st;
    int i;
    int8_t carry = 0;

    if (!CRYPTO_THREAD_run_once(&comb_once, comb_init) || !comb_ready)
        return 0;
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
    return 1;
}

#endif /* MLKEM_X25519_NATIVE */
