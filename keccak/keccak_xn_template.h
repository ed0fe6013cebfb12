/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_xn_template.h: the parallel-state (PlSnP) functions, written once
 * for N = 4 and N = 8 (a header template: keccak_x4.c and keccak_x8.c each
 * define MLKEM_XN and include it); it expands to
 *
 *   mlkem_keccak_xN_{init,xor_bytes,extract_bytes,permute}_portable
 *       the portable slots (keccak/keccak_kernels.h): N separate 25-lane
 *       states, instance i at s[25 * i ...], permuted one after the other
 *       with the portable single-state kernel;
 *   mlkem_keccak_xN_{init,xor_bytes,extract_bytes,permute}
 *       the public entry points (keccak/keccak.h), through the installed
 *       set's xN_* slots, so one set's state layout is used consistently;
 *   mlkem_keccak_xN_{absorb_once,squeezeblocks,lane_to_ctx,cleanse}
 *       sponges built only on the dispatched slots (they never look at the
 *       state layout).
 *
 * References
 *   [FIPS202] NIST FIPS 202, §4 (Algorithm 8, SPONGE), §5.1 (pad10*1),
 *             Appendix B.2 (suffix and padding bytes).
 *   [XKCP]    doc/PlSnP-documentation.h (AddBytes / ExtractBytes with an
 *             instance index and a byte offset; PermuteAll), and
 *             lib/low/common/PlSnP-Fallback.inc (a parallel permutation
 *             built from the serial one).
 */
#ifndef MLKEM_XN
#error "define MLKEM_XN (4 or 8) before including keccak_xn_template.h"
#endif

#include <string.h>

#include "common/ct.h"
#include "keccak/keccak.h"
#include "keccak/keccak_kernels.h"
#include "keccak/keccak_lanes.h"

#define XN_CAT_(a, b, c) a##b##c
#define XN_CAT(a, b, c) XN_CAT_(a, b, c)
/* mlkem_keccak_xN (the type), mlkem_keccak_xN_<f> (public), xN_<f> (slot),
 * mlkem_keccak_xN_<f>_portable (portable kernel). */
#define XN_T XN_CAT(mlkem_keccak_x, MLKEM_XN, )
#define XN_PUB(f) XN_CAT(mlkem_keccak_x, MLKEM_XN, _##f)
#define XN_SLOT(f) XN_CAT(x, MLKEM_XN, _##f)
#define XN_PORT(f) XN_CAT(mlkem_keccak_x, MLKEM_XN, _##f##_portable)

/* ---- Portable kernels: N independent lane-major states ------------------ */

void XN_PORT(init)(XN_T *st)
{
    memset(st->s, 0, sizeof(st->s));
}

void XN_PORT(xor_bytes)(XN_T *st, unsigned lane, unsigned offset,
                        const uint8_t *in, size_t len)
{
    mlkem_state_xor_bytes(&st->s[25 * lane], offset, in, len);
}

void XN_PORT(extract_bytes)(const XN_T *st, unsigned lane, unsigned offset,
                            uint8_t *out, size_t len)
{
    mlkem_state_extract_bytes(&st->s[25 * lane], offset, out, len);
}

void XN_PORT(clear_lane)(XN_T *st, unsigned lane)
{
    mlkem_state_clear_strided(&st->s[25 * lane], 1);
}

void XN_PORT(permute)(XN_T *st)
{
    for (unsigned i = 0; i < MLKEM_XN; i++)
        mlkem_keccak_f1600_portable(&st->s[25 * i]);
}

/* ---- Public entry points: through the installed slots -------------------- */

void XN_PUB(init)(XN_T *st)
{
    mlkem_keccak_kernels()->XN_SLOT(init)(st);
}

void XN_PUB(xor_bytes)(XN_T *st, unsigned lane, unsigned offset,
                       const uint8_t *in, size_t len)
{
    mlkem_keccak_kernels()->XN_SLOT(xor_bytes)(st, lane, offset, in, len);
}

void XN_PUB(extract_bytes)(const XN_T *st, unsigned lane, unsigned offset,
                           uint8_t *out, size_t len)
{
    mlkem_keccak_kernels()->XN_SLOT(extract_bytes)(st, lane, offset, out, len);
}

void XN_PUB(permute)(XN_T *st)
{
    mlkem_keccak_kernels()->XN_SLOT(permute)(st);
}

/* ---- Sponges on the slots ----------------------------------------------- */

/* Algorithm 8 steps 1-6 for all instances at once (same rate, same inlen):
 * whole blocks are XORed and permuted, then the tail is XORed and padded
 * (dsbyte at inlen mod rate, 0x80 in the last byte of the block). The last
 * permutation is left to squeezeblocks. */
void XN_PUB(absorb_once)(XN_T *st, unsigned rate, uint8_t dsbyte,
                         const uint8_t *const in[MLKEM_XN], size_t inlen)
{
    const struct mlkem_keccak_kernels *b = mlkem_keccak_kernels();
    const uint8_t last = 0x80;
    size_t off = 0;

    b->XN_SLOT(init)(st);
    for (; inlen - off >= rate; off += rate) {
        for (unsigned i = 0; i < MLKEM_XN; i++)
            b->XN_SLOT(xor_bytes)(st, i, 0, in[i] + off, rate);
        b->XN_SLOT(permute)(st);
    }
    const unsigned tail = (unsigned)(inlen - off);
    for (unsigned i = 0; i < MLKEM_XN; i++) {
        b->XN_SLOT(xor_bytes)(st, i, 0, in[i] + off, tail);
        b->XN_SLOT(xor_bytes)(st, i, tail, &dsbyte, 1);
        b->XN_SLOT(xor_bytes)(st, i, rate - 1, &last, 1);
    }
}

/* Algorithm 8 steps 7-10 in whole blocks: permute, copy the rate part of
 * each instance out (skipping instances whose out[i] is NULL). */
void XN_PUB(squeezeblocks)(XN_T *st, unsigned rate,
                           uint8_t *const out[MLKEM_XN], size_t nblocks)
{
    const struct mlkem_keccak_kernels *b = mlkem_keccak_kernels();

    for (size_t blk = 0; blk < nblocks; blk++) {
        b->XN_SLOT(permute)(st);
        for (unsigned i = 0; i < MLKEM_XN; i++)
            if (out[i] != NULL) /* public: which lanes the caller uses */
                b->XN_SLOT(extract_bytes)(st, i, 0, out[i] + blk * rate,
                                          rate);
    }
}

/* The lane's 200 state bytes in FIPS 202 B.1 order, put back into 25
 * lanes. */
void XN_PUB(lane_to_ctx)(const XN_T *st, unsigned lane, unsigned rate,
                         mlkem_keccak_ctx *ctx)
{
    uint8_t bytes[200];

    mlkem_keccak_kernels()->XN_SLOT(extract_bytes)(st, lane, 0, bytes,
                                                   sizeof(bytes));
    memset(ctx->s, 0, sizeof(ctx->s));
    mlkem_state_xor_bytes(ctx->s, 0, bytes, sizeof(bytes));
    mlkem_cleanse(bytes, sizeof(bytes));
    ctx->rate = rate;
    ctx->pos = rate;
}

void XN_PUB(cleanse)(XN_T *st)
{
    mlkem_cleanse(st, sizeof(*st));
}

#undef XN_CAT_
#undef XN_CAT
#undef XN_T
#undef XN_PUB
#undef XN_SLOT
#undef XN_PORT
