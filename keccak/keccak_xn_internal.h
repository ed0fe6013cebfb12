/*
 * keccak_xn_internal.h: the parallel-state (PlSnP) functions, written once
 * for N = 4 and N = 8. keccak_x4.c and keccak_x8.c each define MLKEM_XN and
 * include this file; it expands to
 *
 *   mlkem_keccak_xN_{init,xor_bytes,extract_bytes,permute}_portable
 *       the portable kernels for the backend table (arch/backend.h): N
 *       separate 25-lane states, instance i at s[25 * i ...], permuted one
 *       after the other with the single-state kernel;
 *   keccak_xN_{init,xor_bytes,extract_bytes,permute}
 *       the public entry points (keccak/keccak.h), dispatched through
 *       mlkem_backend()->xN_* so a vector backend's layout is used
 *       consistently;
 *   keccak_xN_{absorb_once,squeezeblocks,cleanse}
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
#error "define MLKEM_XN (4 or 8) before including keccak_xn_internal.h"
#endif

#include "keccak/keccak.h"

#include "arch/backend.h"
#include "keccak/keccak_internal.h"

#define XN_CAT_(a, b, c) a##b##c
#define XN_CAT(a, b, c) XN_CAT_(a, b, c)
/* keccak_xN (the type), keccak_xN_<f> (public), xN_<f> (backend slot),
 * mlkem_keccak_xN_<f>_portable (portable kernel). */
#define XN_T XN_CAT(keccak_x, MLKEM_XN, )
#define XN_PUB(f) XN_CAT(keccak_x, MLKEM_XN, _##f)
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

void XN_PORT(permute)(XN_T *st)
{
    for (unsigned i = 0; i < MLKEM_XN; i++)
        mlkem_keccakf1600_portable(&st->s[25 * i]);
}

/* ---- Public entry points: through the backend table --------------------- */

void XN_PUB(init)(XN_T *st)
{
    mlkem_backend()->XN_SLOT(init)(st);
}

void XN_PUB(xor_bytes)(XN_T *st, unsigned lane, unsigned offset,
                       const uint8_t *in, size_t len)
{
    mlkem_backend()->XN_SLOT(xor_bytes)(st, lane, offset, in, len);
}

void XN_PUB(extract_bytes)(const XN_T *st, unsigned lane, unsigned offset,
                           uint8_t *out, size_t len)
{
    mlkem_backend()->XN_SLOT(extract_bytes)(st, lane, offset, out, len);
}

void XN_PUB(permute)(XN_T *st)
{
    mlkem_backend()->XN_SLOT(permute)(st);
}

/* ---- Sponges on the slots ----------------------------------------------- */

/* Algorithm 8 steps 1-6 for all instances at once (same rate, same inlen):
 * whole blocks are XORed and permuted, then the tail is XORed and padded
 * (dsbyte at inlen mod rate, 0x80 in the last byte of the block). The last
 * permutation is left to squeezeblocks. */
void XN_PUB(absorb_once)(XN_T *st, unsigned rate, uint8_t dsbyte,
                         const uint8_t *const in[MLKEM_XN], size_t inlen)
{
    const struct mlkem_backend *b = mlkem_backend();
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
    const struct mlkem_backend *b = mlkem_backend();

    for (size_t blk = 0; blk < nblocks; blk++) {
        b->XN_SLOT(permute)(st);
        for (unsigned i = 0; i < MLKEM_XN; i++)
            if (out[i] != NULL) /* public: which lanes the caller uses */
                b->XN_SLOT(extract_bytes)(st, i, 0, out[i] + blk * rate,
                                          rate);
    }
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
