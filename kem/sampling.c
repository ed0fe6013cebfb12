/*
 * sampling.c: SampleNTT (Algorithm 7) for the matrix Â, SamplePolyCBD
 * (Algorithm 8) with PRF for s, e, y, e1, e2, and their portable kernels
 * (the rejection loop and the centred binomial distribution).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithms 7, 8; §4.1 (PRF, XOF); Algorithm 13
 *             lines 3-15; Algorithm 14 lines 4-17.
 *   [FIPS202] NIST FIPS 202: SHAKE128 (rate 168), SHAKE256 (rate 136).
 *
 * Permutation budget (see kem/sampling.h): independent streams go through
 * x8 / x4 states in groups sized by the installed Keccak set
 * (keccak/keccak_kernels.h x8_min / x4_min: the portable set uses groups of
 * exactly four, a vector set also fills part of a group), leftovers through
 * single sponges. SampleNTT squeezes 3 SHAKE128 blocks (504 bytes, 336
 * candidates) at once, which is enough with probability about 0.992, and
 * then one block at a time only for the streams still short (a short lane
 * of a group continues in a single-state sponge unless all its lanes are
 * short).
 */
#include "kem/sampling.h"

#include <string.h>

#include "common/bytes.h"
#include "common/ct.h"
#include "keccak/keccak.h"
#include "keccak/keccak_kernels.h"
#include "kem/mlkem.h"
#include "kem/poly.h"

#define XOF_BLOCKS_FIRST 3 /* 3 * 168 = 504 bytes, a multiple of 3 */

/*
 * Implements FIPS 203, Algorithm 7 (SampleNTT), lines 5-12, on a buffer of
 * XOF output: every 3 bytes give two 12-bit candidates d1, d2, each kept if
 * below q, until len values are written. Returns the number written.
 * Public data only (the XOF output of rho), so branches and store positions
 * may depend on it; what is avoided is a hard-to-predict branch per
 * candidate (19% are rejected).
 * Fast path, while at least eight output slots are free: 12 bytes are read
 * as two little-endian words (bytes 0-7 and 4-11), giving eight candidates
 * as 12-bit fields (bits 0, 12, 24, 36 of the first word and 16, 28, 40, 52
 * of the second: byte 6 starts at bit 48 of the first and bit 16 of the
 * second). Each candidate is stored unconditionally right after the ones
 * kept before it (overwriting a rejected one), and the count advances by
 * (d - q) >> 31, i.e. 1 exactly when d < q (d < 2^12, so d - q does not
 * wrap past 2^31). The last few slots are filled by the literal form of
 * lines 8-11.
 */
unsigned mlkem_sample_ntt_rej_portable(int16_t *r, unsigned len,
                                       const uint8_t *buf, size_t buflen)
{
    unsigned ctr = 0;
    size_t pos = 0;

    while (ctr + 8 <= len && pos + 12 <= buflen) {
        const uint64_t w0 = mlkem_load64le(buf + pos);
        const uint64_t w1 = mlkem_load64le(buf + pos + 4);
        uint32_t d[8];
        d[0] = (uint32_t)w0 & 0xfff;
        d[1] = (uint32_t)(w0 >> 12) & 0xfff;
        d[2] = (uint32_t)(w0 >> 24) & 0xfff;
        d[3] = (uint32_t)(w0 >> 36) & 0xfff;
        d[4] = (uint32_t)(w1 >> 16) & 0xfff;
        d[5] = (uint32_t)(w1 >> 28) & 0xfff;
        d[6] = (uint32_t)(w1 >> 40) & 0xfff;
        d[7] = (uint32_t)(w1 >> 52);
        pos += 12;
        for (unsigned j = 0; j < 8; j++) {
            r[ctr] = (int16_t)d[j];
            ctr += (d[j] - MLKEM_Q) >> 31;
        }
    }
    while (ctr < len && pos + 3 <= buflen) {
        uint16_t d1 = (uint16_t)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));
        pos += 3;
        if (d1 < MLKEM_Q)
            r[ctr++] = (int16_t)d1;
        if (d2 < MLKEM_Q && ctr < len)
            r[ctr++] = (int16_t)d2;
    }
    return ctr;
}

/* SampleNTT of one seed rho || b0 || b1 with a single-state SHAKE128
 * (Algorithm 7 lines 1-4 absorb, then the loop of lines 5-12 blockwise). */
static void sample_ntt_x1(int16_t r[256], const uint8_t seed[34])
{
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();
    uint8_t buf[XOF_BLOCKS_FIRST * MLKEM_SHAKE128_RATE];
    mlkem_keccak_ctx ctx;

    mlkem_shake128_init(&ctx);
    mlkem_keccak_absorb(&ctx, seed, 34);
    mlkem_shake_finalize(&ctx);
    mlkem_keccak_squeezeblocks(&ctx, buf, XOF_BLOCKS_FIRST);
    unsigned ctr = pk->sample_ntt_rej(r, 256, buf, sizeof(buf));
    while (ctr < 256) {
        mlkem_keccak_squeezeblocks(&ctx, buf, 1);
        ctr += pk->sample_ntt_rej(r + ctr, 256 - ctr, buf, MLKEM_SHAKE128_RATE);
    }
    pk->ntt_pack(r);
}

/* ---- Groups of parallel streams ---------------------------------------- */

/* Up to eight independent sponges with the same rate and input length, on
 * an x4 or an x8 state as the installed Keccak set prefers for the group's
 * size (keccak/keccak_kernels.h x4_min / x8_min). Lanes beyond `used` absorb a copy of
 * lane 0's input and are never read. */
typedef struct {
    union {
        mlkem_keccak_x4 x4;
        mlkem_keccak_x8 x8;
    } u;
    unsigned width; /* 4 or 8 */
    unsigned used;  /* lanes that carry a stream */
} xn_group;

/* How many of `left` streams the next group takes (0: go single), and
 * which width it uses. Depends only on public counts. */
static unsigned xn_plan(const struct mlkem_keccak_kernels *b, unsigned left,
                        unsigned *width)
{
    if (b->x8_min != 0 && left >= b->x8_min) {
        *width = 8;
        return left < 8 ? left : 8;
    }
    if (left >= b->x4_min) {
        *width = 4;
        return left < 4 ? left : 4;
    }
    return 0;
}

/* Lane l of a group reads its input at in + l * stride and writes its
 * output at out + l * stride (the rows of the caller's 2-D arrays). */
static void xn_absorb_once(xn_group *g, unsigned rate, const uint8_t *in,
                           size_t stride, size_t inlen)
{
    const uint8_t *lanes[8];

    for (unsigned l = 0; l < 8; l++)
        lanes[l] = in + (l < g->used ? l : 0) * stride;
    if (g->width == 8)
        mlkem_keccak_x8_absorb_once(&g->u.x8, rate, 0x1f, lanes, inlen);
    else
        mlkem_keccak_x4_absorb_once(&g->u.x4, rate, 0x1f, lanes, inlen);
}

static void xn_squeezeblocks(xn_group *g, unsigned rate, uint8_t *out,
                             size_t stride, size_t nblocks)
{
    uint8_t *lanes[8];

    for (unsigned l = 0; l < 8; l++)
        lanes[l] = l < g->used ? out + l * stride : NULL;
    if (g->width == 8)
        mlkem_keccak_x8_squeezeblocks(&g->u.x8, rate, lanes, nblocks);
    else
        mlkem_keccak_x4_squeezeblocks(&g->u.x4, rate, lanes, nblocks);
}

/* Continue lane l of a finished SHAKE128 group (all of its current block
 * consumed) as a single-state sponge. */
static void xn_lane_to_ctx(mlkem_keccak_ctx *ctx, const xn_group *g,
                           unsigned l)
{
    if (g->width == 8)
        mlkem_keccak_x8_lane_to_ctx(&g->u.x8, l, MLKEM_SHAKE128_RATE, ctx);
    else
        mlkem_keccak_x4_lane_to_ctx(&g->u.x4, l, MLKEM_SHAKE128_RATE, ctx);
}

static void xn_cleanse(xn_group *g)
{
    mlkem_cleanse(&g->u, sizeof(g->u));
}

/*
 * SampleNTT of g->used seeds at once: 3 blocks for every lane, then, for
 * the rare lanes still short of 256 values, more blocks. Only if all lanes
 * are short does the group squeeze again; otherwise each short lane moves
 * to a single-state sponge, so no finished lane is permuted.
 */
static void sample_ntt_xn(xn_group *g, int16_t *const r[],
                          const uint8_t seed[][34])
{
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();
    uint8_t buf[8][XOF_BLOCKS_FIRST * MLKEM_SHAKE128_RATE];
    unsigned ctr[8], all_short;

    xn_absorb_once(g, MLKEM_SHAKE128_RATE, seed[0], sizeof(seed[0]), 34);
    xn_squeezeblocks(g, MLKEM_SHAKE128_RATE, buf[0], sizeof(buf[0]),
                     XOF_BLOCKS_FIRST);
    for (unsigned l = 0; l < g->used; l++)
        ctr[l] = pk->sample_ntt_rej(r[l], 256, buf[l], sizeof(buf[l]));
    /* Public data: the branches below depend only on rho. */
    for (;;) {
        all_short = 1;
        for (unsigned l = 0; l < g->used; l++)
            all_short &= ctr[l] < 256;
        if (!all_short)
            break;
        xn_squeezeblocks(g, MLKEM_SHAKE128_RATE, buf[0], sizeof(buf[0]), 1);
        for (unsigned l = 0; l < g->used; l++)
            ctr[l] += pk->sample_ntt_rej(r[l] + ctr[l], 256 - ctr[l], buf[l],
                                     MLKEM_SHAKE128_RATE);
    }
    for (unsigned l = 0; l < g->used; l++) {
        if (ctr[l] < 256) {
            mlkem_keccak_ctx ctx;
            xn_lane_to_ctx(&ctx, g, l);
            while (ctr[l] < 256) {
                mlkem_keccak_squeezeblocks(&ctx, buf[l], 1);
                ctr[l] += pk->sample_ntt_rej(r[l] + ctr[l], 256 - ctr[l],
                                             buf[l], MLKEM_SHAKE128_RATE);
            }
        }
    }
    for (unsigned l = 0; l < g->used; l++)
        pk->ntt_pack(r[l]);
}

void mlkem_sample_ntt_matrix_transposed(int16_t (*at)[256],
                                        const uint8_t rho[32], unsigned k)
{
    const struct mlkem_keccak_kernels *b = mlkem_keccak_kernels();
    const unsigned n = k * k;
    uint8_t seed[8][34];
    int16_t *r[8];
    unsigned e = 0;

    for (unsigned l = 0; l < 8; l++)
        memcpy(seed[l], rho, 32);
    /* Entry e = i * k + j holds Â[j][i] = SampleNTT(rho || i || j). */
    while (e < n) {
        xn_group g;
        g.used = xn_plan(b, n - e, &g.width);
        if (g.used == 0)
            break;
        for (unsigned l = 0; l < g.used; l++) {
            seed[l][32] = (uint8_t)((e + l) / k);
            seed[l][33] = (uint8_t)((e + l) % k);
            r[l] = at[e + l];
        }
        sample_ntt_xn(&g, r, (const uint8_t(*)[34])seed);
        e += g.used;
    }
    for (; e < n; e++) {
        seed[0][32] = (uint8_t)(e / k);
        seed[0][33] = (uint8_t)(e % k);
        sample_ntt_x1(at[e], seed[0]);
    }
}

/*
 * Implements FIPS 203, Algorithm 8 (SamplePolyCBD_eta), lines 1-6, on
 * 64 * eta bytes: f_i = sum_{j<eta} b[2 i eta + j] - sum_{j<eta}
 * b[2 i eta + eta + j]. Bit-sliced: adding the eta shifted copies of a word
 * masked to every eta-th bit leaves in each eta-bit field the sum of its
 * bits; a coefficient is then the difference of two adjacent fields. No
 * branches or indices depend on the (secret) bytes.
 */
void mlkem_sample_poly_cbd_portable(int16_t r[256], const uint8_t *buf,
                                    unsigned eta)
{
    if (eta == 2) {
        /* one byte = two coefficients: bit pairs (0,1) - (2,3) and
         * (4,5) - (6,7) */
        for (unsigned i = 0; i < 128; i++) {
            uint32_t t = buf[i];
            uint32_t d = (t & 0x55u) + ((t >> 1) & 0x55u);
            r[2 * i] = (int16_t)((int16_t)(d & 3) - (int16_t)((d >> 2) & 3));
            r[2 * i + 1] =
                (int16_t)((int16_t)((d >> 4) & 3) - (int16_t)((d >> 6) & 3));
        }
    } else { /* eta == 3 */
        for (unsigned i = 0; i < 64; i++) {
            uint32_t t = mlkem_load24le(buf + 3 * i);
            uint32_t d = (t & 0x249249u) + ((t >> 1) & 0x249249u) +
                         ((t >> 2) & 0x249249u);
            for (unsigned j = 0; j < 4; j++) {
                int16_t x = (int16_t)((d >> (6 * j)) & 7);
                int16_t y = (int16_t)((d >> (6 * j + 3)) & 7);
                r[4 * i + j] = (int16_t)(x - y);
            }
        }
    }
}

#define PRF_MAX_BLOCKS 2 /* 64 * 3 = 192 bytes <= 2 * 136 */

static unsigned prf_blocks(unsigned eta)
{
    return (64 * eta + MLKEM_SHAKE256_RATE - 1) / MLKEM_SHAKE256_RATE;
}

void mlkem_sample_poly_cbd_prf(int16_t *const r[], const unsigned eta[],
                               unsigned n, const uint8_t seed[32],
                               uint8_t nonce0)
{
    const struct mlkem_keccak_kernels *b = mlkem_keccak_kernels();
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();
    uint8_t in[8][33];
    uint8_t buf[8][PRF_MAX_BLOCKS * MLKEM_SHAKE256_RATE];
    unsigned idx[2 * MLKEM_MAX_K + 1];

    for (unsigned l = 0; l < 8; l++)
        memcpy(in[l], seed, 32);

    /* One pass per eta: streams of equal length share parallel calls. */
    for (unsigned e = 2; e <= 3; e++) {
        const unsigned nb = prf_blocks(e);
        unsigned m = 0, s = 0;
        for (unsigned i = 0; i < n; i++) {
            if (eta[i] == e)
                idx[m++] = i;
        }
        while (s < m) {
            xn_group g;
            g.used = xn_plan(b, m - s, &g.width);
            if (g.used == 0)
                break;
            for (unsigned l = 0; l < g.used; l++)
                in[l][32] = (uint8_t)(nonce0 + idx[s + l]);
            xn_absorb_once(&g, MLKEM_SHAKE256_RATE, in[0], sizeof(in[0]), 33);
            xn_squeezeblocks(&g, MLKEM_SHAKE256_RATE, buf[0], sizeof(buf[0]), nb);
            xn_cleanse(&g);
            for (unsigned l = 0; l < g.used; l++)
                pk->sample_poly_cbd(r[idx[s + l]], buf[l], e);
            s += g.used;
        }
        for (; s < m; s++) {
            mlkem_keccak_ctx ctx;
            in[0][32] = (uint8_t)(nonce0 + idx[s]);
            mlkem_shake256_init(&ctx);
            mlkem_keccak_absorb(&ctx, in[0], 33);
            mlkem_shake_finalize(&ctx);
            mlkem_keccak_squeezeblocks(&ctx, buf[0], nb);
            mlkem_keccak_ctx_cleanse(&ctx);
            pk->sample_poly_cbd(r[idx[s]], buf[0], e);
        }
    }
    mlkem_cleanse(in, sizeof(in));
    mlkem_cleanse(buf, sizeof(buf));
}
