/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ge25519.h: points of edwards25519 for the fixed-base comb of x25519.c:
 * extended coordinates, the complete addition and doubling, and the shape
 * of the comb's table (comb_table.h, made by gen_comb_table.c). Static
 * functions in a header, as fe25519.h.
 *
 * References
 *   [RFC8032] EdDSA: §5.1 (edwards25519: d, and the base point B).
 *   [HWCD08]  Hisil, Wong, Carter, Dawson, "Twisted Edwards curves
 *             revisited" (ASIACRYPT 2008): extended coordinates, the
 *             addition (§3.2, a = -1, k = 2d) and doubling (§3.3) used here;
 *             both are complete on edwards25519 (a = -1 is a square mod p
 *             and d is not), so no input needs special handling.
 */
#ifndef MLKEM_CURVE25519_GE25519_H
#define MLKEM_CURVE25519_GE25519_H

#include <stdint.h>

#include "common/compiler.h"
#include "curve25519/fe25519.h"

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

/* The comb's table: entry [i][j] is 256^i (j + 1) B, i = 0..31, j = 0..7
 * (public). */
#define COMB_ROWS 32
#define COMB_COLS 8

/* r = p + q ([HWCD08] §3.2, a = -1, k = 2d) with q given as y + x, y - x,
 * 2 d x y in projective form over qz, or affine when qz is NULL (the
 * comb's mixed addition: one multiplication fewer). r may be p. Complete:
 * any two points, equal or not, identity or not. */
static MLKEM_UNUSED void ge_add_core(ge_p3 *r, const ge_p3 *p, const fe qypx,
                                     const fe qymx, const fe qt2d,
                                     const uint64_t *qz, ge_scratch *s)
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

static MLKEM_UNUSED void ge_madd(ge_p3 *r, const ge_p3 *p, const ge_precomp *q,
                                 ge_scratch *s)
{
    ge_add_core(r, p, q->f.ypx, q->f.ymx, q->f.t2d, NULL, s);
}

/* r = 2 p ([HWCD08] §3.3, a = -1); r may be p. */
static MLKEM_UNUSED void ge_dbl(ge_p3 *r, const ge_p3 *p, ge_scratch *s)
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

#endif /* MLKEM_CURVE25519_GE25519_H */
