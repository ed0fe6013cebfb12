/*
 * ntt.c: the number-theoretic transform on R_q = Z_q[X]/(X^256 + 1), its
 * inverse, and multiplication in the NTT domain (portable C kernels).
 *
 * References
 *   [FIPS203] NIST FIPS 203, §4.3: Algorithm 9 (NTT), Algorithm 10 (NTT^-1),
 *             Algorithm 11 (MultiplyNTTs), Algorithm 12 (BaseCaseMultiply),
 *             and the zeta values of Appendix A.
 *   [REF]     pq-crystals/kyber ref/ntt.c: same butterfly structure with
 *             Montgomery-form zetas; bounds re-derived here.
 *   [MLKN]    mlkem-native: the "mulcache" idea (b1 * gamma computed once per
 *             operand) used by basemul_acc.
 *
 * Deviations from the spec, all invisible outside this file:
 *   - zetas are stored in Montgomery form (zeta^BitRev7(i) * 2^16 mod q,
 *     centred) together with their products with q^-1 mod 2^16, so one
 *     mlkem_fqmul_pre() computes zeta * x exactly;
 *   - coefficients are int16_t, reduced lazily (bounds in each comment);
 *   - NTT^-1 ends by multiplying with 2^16 / 128 instead of 1/128 (3303 in
 *     the spec), so its output carries a factor 2^16 that cancels the 2^-16
 *     left by basemul_acc (the reference implementation's convention);
 *   - basemul_acc accumulates the k products of a row in 32 bits and reduces
 *     once (Algorithm 11 applied k times and summed).
 * These are the contracts of arch/backend.h; kem/poly.h restates them.
 *
 * Shape of the code. Every layer is a loop over independent butterflies
 * on 16-bit values with 16 x 16-bit high/low products (kem/reduce.h). That
 * is plain C, but it is the shape compilers' vectorizers map onto 128-bit
 * SIMD (SSE2, NEON) without any ISA flag: 8 lanes per instruction. How a
 * layer is written decides which loop gets vectorized (measured with gcc 12
 * and clang 14 on x86-64): layers with span >= 16 are flat loops with one
 * zeta per block; the span-8 layers read their zeta per lane from a table;
 * the span-4 and span-2 layers process one group of 8 coefficients per
 * iteration, which compilers vectorize across groups.
 */
#include <stdint.h>
#include <string.h>

#include "arch/backend.h"
#include "kem/poly.h"
#include "kem/reduce.h"

/* The kernels' names. This file is also compiled a second time, with ISA
 * flags, by a vector backend (arch/avx2/poly_avx2.c defines MLKEM_NTT_FN
 * to name its copies *_avx2): the same loops, vectorized wider by the
 * compiler. The shared tables are defined only in the portable instance. */
#ifndef MLKEM_NTT_FN
#define MLKEM_NTT_FN(name) name##_portable
#define MLKEM_NTT_TABLES 1
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MLKEM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MLKEM_ALWAYS_INLINE inline
#endif

/* mlkem_zetas[i] = zeta^BitRev7(i) * 2^16 mod q, centred, zeta = 17
 * (FIPS 203 Appendix A in Montgomery form); mlkem_zetas_qinv[i] =
 * mlkem_zetas[i] * q^-1 mod 2^16 (signed). mlkem_gammas[p] =
 * zeta^(2 BitRev7(p) + 1) * 2^16 mod q, centred (the gamma of Algorithm 11
 * for coefficient pair p; gammas[2m] = zetas[64+m], gammas[2m+1] =
 * -zetas[64+m]), and mlkem_gammas_qinv likewise. mlkem_zetas_rev[i] =
 * mlkem_zetas[127 - i] (and its twin): NTT^-1 walks the zetas downwards, and
 * reading them upwards lets compilers vectorize its first two layers.
 * test/kem/test_ntt.c recomputes all tables from zeta = 17 and BitRev7. */
#ifdef MLKEM_NTT_TABLES
const int16_t mlkem_zetas[128] = {
     -1044,   -758,   -359,  -1517,   1493,   1422,    287,    202,
      -171,    622,   1577,    182,    962,  -1202,  -1474,   1468,
       573,  -1325,    264,    383,   -829,   1458,  -1602,   -130,
      -681,   1017,    732,    608,  -1542,    411,   -205,  -1571,
      1223,    652,   -552,   1015,  -1293,   1491,   -282,  -1544,
       516,     -8,   -320,   -666,  -1618,  -1162,    126,   1469,
      -853,    -90,   -271,    830,    107,  -1421,   -247,   -951,
      -398,    961,  -1508,   -725,    448,  -1065,    677,  -1275,
     -1103,    430,    555,    843,  -1251,    871,   1550,    105,
       422,    587,    177,   -235,   -291,   -460,   1574,   1653,
      -246,    778,   1159,   -147,   -777,   1483,   -602,   1119,
     -1590,    644,   -872,    349,    418,    329,   -156,    -75,
       817,   1097,    603,    610,   1322,  -1285,  -1465,    384,
     -1215,   -136,   1218,  -1335,   -874,    220,  -1187,  -1659,
     -1185,  -1530,  -1278,    794,  -1510,   -854,   -870,    478,
      -108,   -308,    996,    991,    958,  -1460,   1522,   1628,
};
const int16_t mlkem_zetas_qinv[128] = {
       -20,  31498,  14745,    787,  13525, -12402,  28191, -16694,
    -20907,  27758,  -3799, -15690,  10690,   1358, -11202,  31164,
     -5827,  17363, -26360, -29057,   5571,  -1102,  21438, -26242,
    -28073,  24313, -10532,   8800,  18426,   8859,  26675, -16163,
     -5689,  -6516,   1496,  30967, -23565,  20179,  20710,  25080,
    -12796,  26616,  16064, -12442,   9134,   -650, -25986,  27837,
     19883, -28250, -15887,  -8898, -28309,   9075, -30199,  18249,
     13426,  14017, -29156, -12757,  16832,   4311, -24155, -17915,
      -335,  11182, -11477,  13387, -32227, -14233,  20494, -21655,
    -27738,  13131,    945,  -4587, -14883,  23092,   6182,   5493,
     32010, -32502,  10631,  30317,  29175, -18741, -28762,  12639,
    -18486,  20100,  17560,  18525, -14430,  19529,  -5276, -12619,
    -31183,  20297,  25435,   2146,  -7382,  15355,  24391, -32384,
    -20927,  -6280,  10946, -14903,  24214, -11044,  16989,  14469,
     10335, -21498,  -7934, -20198, -22502,  23210,  10906, -17442,
     31636, -23860,  28644, -20257,  23998,   7756, -17422,  23132,
};
const int16_t mlkem_zetas_rev[128] = {
      1628,   1522,  -1460,    958,    991,    996,   -308,   -108,
       478,   -870,   -854,  -1510,    794,  -1278,  -1530,  -1185,
     -1659,  -1187,    220,   -874,  -1335,   1218,   -136,  -1215,
       384,  -1465,  -1285,   1322,    610,    603,   1097,    817,
       -75,   -156,    329,    418,    349,   -872,    644,  -1590,
      1119,   -602,   1483,   -777,   -147,   1159,    778,   -246,
      1653,   1574,   -460,   -291,   -235,    177,    587,    422,
       105,   1550,    871,  -1251,    843,    555,    430,  -1103,
     -1275,    677,  -1065,    448,   -725,  -1508,    961,   -398,
      -951,   -247,  -1421,    107,    830,   -271,    -90,   -853,
      1469,    126,  -1162,  -1618,   -666,   -320,     -8,    516,
     -1544,   -282,   1491,  -1293,   1015,   -552,    652,   1223,
     -1571,   -205,    411,  -1542,    608,    732,   1017,   -681,
      -130,  -1602,   1458,   -829,    383,    264,  -1325,    573,
      1468,  -1474,  -1202,    962,    182,   1577,    622,   -171,
       202,    287,   1422,   1493,  -1517,   -359,   -758,  -1044,
};
const int16_t mlkem_zetas_rev_qinv[128] = {
     23132, -17422,   7756,  23998, -20257,  28644, -23860,  31636,
    -17442,  10906,  23210, -22502, -20198,  -7934, -21498,  10335,
     14469,  16989, -11044,  24214, -14903,  10946,  -6280, -20927,
    -32384,  24391,  15355,  -7382,   2146,  25435,  20297, -31183,
    -12619,  -5276,  19529, -14430,  18525,  17560,  20100, -18486,
     12639, -28762, -18741,  29175,  30317,  10631, -32502,  32010,
      5493,   6182,  23092, -14883,  -4587,    945,  13131, -27738,
    -21655,  20494, -14233, -32227,  13387, -11477,  11182,   -335,
    -17915, -24155,   4311,  16832, -12757, -29156,  14017,  13426,
     18249, -30199,   9075, -28309,  -8898, -15887, -28250,  19883,
     27837, -25986,   -650,   9134, -12442,  16064,  26616, -12796,
     25080,  20710,  20179, -23565,  30967,   1496,  -6516,  -5689,
    -16163,  26675,   8859,  18426,   8800, -10532,  24313, -28073,
    -26242,  21438,  -1102,   5571, -29057, -26360,  17363,  -5827,
     31164, -11202,   1358,  10690, -15690,  -3799,  27758, -20907,
    -16694,  28191, -12402,  13525,    787,  14745,  31498,    -20,
};
const int16_t mlkem_gammas[128] = {
     -1103,   1103,    430,   -430,    555,   -555,    843,   -843,
     -1251,   1251,    871,   -871,   1550,  -1550,    105,   -105,
       422,   -422,    587,   -587,    177,   -177,   -235,    235,
      -291,    291,   -460,    460,   1574,  -1574,   1653,  -1653,
      -246,    246,    778,   -778,   1159,  -1159,   -147,    147,
      -777,    777,   1483,  -1483,   -602,    602,   1119,  -1119,
     -1590,   1590,    644,   -644,   -872,    872,    349,   -349,
       418,   -418,    329,   -329,   -156,    156,    -75,     75,
       817,   -817,   1097,  -1097,    603,   -603,    610,   -610,
      1322,  -1322,  -1285,   1285,  -1465,   1465,    384,   -384,
     -1215,   1215,   -136,    136,   1218,  -1218,  -1335,   1335,
      -874,    874,    220,   -220,  -1187,   1187,  -1659,   1659,
     -1185,   1185,  -1530,   1530,  -1278,   1278,    794,   -794,
     -1510,   1510,   -854,    854,   -870,    870,    478,   -478,
      -108,    108,   -308,    308,    996,   -996,    991,   -991,
       958,   -958,  -1460,   1460,   1522,  -1522,   1628,  -1628,
};
const int16_t mlkem_gammas_qinv[128] = {
      -335,    335,  11182, -11182, -11477,  11477,  13387, -13387,
    -32227,  32227, -14233,  14233,  20494, -20494, -21655,  21655,
    -27738,  27738,  13131, -13131,    945,   -945,  -4587,   4587,
    -14883,  14883,  23092, -23092,   6182,  -6182,   5493,  -5493,
     32010, -32010, -32502,  32502,  10631, -10631,  30317, -30317,
     29175, -29175, -18741,  18741, -28762,  28762,  12639, -12639,
    -18486,  18486,  20100, -20100,  17560, -17560,  18525, -18525,
    -14430,  14430,  19529, -19529,  -5276,   5276, -12619,  12619,
    -31183,  31183,  20297, -20297,  25435, -25435,   2146,  -2146,
     -7382,   7382,  15355, -15355,  24391, -24391, -32384,  32384,
    -20927,  20927,  -6280,   6280,  10946, -10946, -14903,  14903,
     24214, -24214, -11044,  11044,  16989, -16989,  14469, -14469,
     10335, -10335, -21498,  21498,  -7934,   7934, -20198,  20198,
    -22502,  22502,  23210, -23210,  10906, -10906, -17442,  17442,
     31636, -31636, -23860,  23860,  28644, -28644, -20257,  20257,
     23998, -23998,   7756,  -7756, -17422,  17422,  23132, -23132,
};
#endif /* MLKEM_NTT_TABLES */

/* The zetas of the len = 8 layers, one per coefficient lane: entry 8g + l
 * is mlkem_zetas[16 + g] (NTT, block g) and mlkem_zetas[31 - g] (NTT^-1),
 * with their q^-1 twins. Reading the zeta per lane from a table keeps the
 * compiler's vectorizer on the 8 lanes of each block; with a broadcast
 * zeta per 8-lane block gcc vectorized across blocks instead, transposing
 * the data (measured 6x slower for that layer). */
static const int16_t ntt_zetas8[128] = {
       573,    573,    573,    573,    573,    573,    573,    573,
     -1325,  -1325,  -1325,  -1325,  -1325,  -1325,  -1325,  -1325,
       264,    264,    264,    264,    264,    264,    264,    264,
       383,    383,    383,    383,    383,    383,    383,    383,
      -829,   -829,   -829,   -829,   -829,   -829,   -829,   -829,
      1458,   1458,   1458,   1458,   1458,   1458,   1458,   1458,
     -1602,  -1602,  -1602,  -1602,  -1602,  -1602,  -1602,  -1602,
      -130,   -130,   -130,   -130,   -130,   -130,   -130,   -130,
      -681,   -681,   -681,   -681,   -681,   -681,   -681,   -681,
      1017,   1017,   1017,   1017,   1017,   1017,   1017,   1017,
       732,    732,    732,    732,    732,    732,    732,    732,
       608,    608,    608,    608,    608,    608,    608,    608,
     -1542,  -1542,  -1542,  -1542,  -1542,  -1542,  -1542,  -1542,
       411,    411,    411,    411,    411,    411,    411,    411,
      -205,   -205,   -205,   -205,   -205,   -205,   -205,   -205,
     -1571,  -1571,  -1571,  -1571,  -1571,  -1571,  -1571,  -1571,
};
static const int16_t ntt_zetas8_qinv[128] = {
     -5827,  -5827,  -5827,  -5827,  -5827,  -5827,  -5827,  -5827,
     17363,  17363,  17363,  17363,  17363,  17363,  17363,  17363,
    -26360, -26360, -26360, -26360, -26360, -26360, -26360, -26360,
    -29057, -29057, -29057, -29057, -29057, -29057, -29057, -29057,
      5571,   5571,   5571,   5571,   5571,   5571,   5571,   5571,
     -1102,  -1102,  -1102,  -1102,  -1102,  -1102,  -1102,  -1102,
     21438,  21438,  21438,  21438,  21438,  21438,  21438,  21438,
    -26242, -26242, -26242, -26242, -26242, -26242, -26242, -26242,
    -28073, -28073, -28073, -28073, -28073, -28073, -28073, -28073,
     24313,  24313,  24313,  24313,  24313,  24313,  24313,  24313,
    -10532, -10532, -10532, -10532, -10532, -10532, -10532, -10532,
      8800,   8800,   8800,   8800,   8800,   8800,   8800,   8800,
     18426,  18426,  18426,  18426,  18426,  18426,  18426,  18426,
      8859,   8859,   8859,   8859,   8859,   8859,   8859,   8859,
     26675,  26675,  26675,  26675,  26675,  26675,  26675,  26675,
    -16163, -16163, -16163, -16163, -16163, -16163, -16163, -16163,
};
static const int16_t invntt_zetas8[128] = {
     -1571,  -1571,  -1571,  -1571,  -1571,  -1571,  -1571,  -1571,
      -205,   -205,   -205,   -205,   -205,   -205,   -205,   -205,
       411,    411,    411,    411,    411,    411,    411,    411,
     -1542,  -1542,  -1542,  -1542,  -1542,  -1542,  -1542,  -1542,
       608,    608,    608,    608,    608,    608,    608,    608,
       732,    732,    732,    732,    732,    732,    732,    732,
      1017,   1017,   1017,   1017,   1017,   1017,   1017,   1017,
      -681,   -681,   -681,   -681,   -681,   -681,   -681,   -681,
      -130,   -130,   -130,   -130,   -130,   -130,   -130,   -130,
     -1602,  -1602,  -1602,  -1602,  -1602,  -1602,  -1602,  -1602,
      1458,   1458,   1458,   1458,   1458,   1458,   1458,   1458,
      -829,   -829,   -829,   -829,   -829,   -829,   -829,   -829,
       383,    383,    383,    383,    383,    383,    383,    383,
       264,    264,    264,    264,    264,    264,    264,    264,
     -1325,  -1325,  -1325,  -1325,  -1325,  -1325,  -1325,  -1325,
       573,    573,    573,    573,    573,    573,    573,    573,
};
static const int16_t invntt_zetas8_qinv[128] = {
    -16163, -16163, -16163, -16163, -16163, -16163, -16163, -16163,
     26675,  26675,  26675,  26675,  26675,  26675,  26675,  26675,
      8859,   8859,   8859,   8859,   8859,   8859,   8859,   8859,
     18426,  18426,  18426,  18426,  18426,  18426,  18426,  18426,
      8800,   8800,   8800,   8800,   8800,   8800,   8800,   8800,
    -10532, -10532, -10532, -10532, -10532, -10532, -10532, -10532,
     24313,  24313,  24313,  24313,  24313,  24313,  24313,  24313,
    -28073, -28073, -28073, -28073, -28073, -28073, -28073, -28073,
    -26242, -26242, -26242, -26242, -26242, -26242, -26242, -26242,
     21438,  21438,  21438,  21438,  21438,  21438,  21438,  21438,
     -1102,  -1102,  -1102,  -1102,  -1102,  -1102,  -1102,  -1102,
      5571,   5571,   5571,   5571,   5571,   5571,   5571,   5571,
    -29057, -29057, -29057, -29057, -29057, -29057, -29057, -29057,
    -26360, -26360, -26360, -26360, -26360, -26360, -26360, -26360,
     17363,  17363,  17363,  17363,  17363,  17363,  17363,  17363,
     -5827,  -5827,  -5827,  -5827,  -5827,  -5827,  -5827,  -5827,
};

/* Last layer of NTT^-1 with line 14's factor folded in: the product of
 * zetas[1] = -758 and f = 1441 (see mlkem_invntt_portable) in Montgomery
 * form, -758 * 1441 * 2^-16 mod q = 1397, and its q^-1 twin. */
#define INVNTT_ZF 1397
#define INVNTT_ZF_QINV 5237
#define INVNTT_F 1441
#define INVNTT_F_QINV (-10079)

/*
 * One layer of Algorithm 9 (lines 5-10) with span len >= 16: for each block
 * s the same zeta (index i0 + s) for len independent Cooley-Tukey
 * butterflies (x, y) <- (x + zeta y, x - zeta y). Written as flat loops
 * over the coefficients so that compilers vectorize the inner loop (8
 * lanes of 16-bit high/low products on SSE2 / NEON).
 */
static MLKEM_ALWAYS_INLINE void ntt_layer(int16_t r[256], const unsigned len,
                                          const unsigned i0)
{
    for (unsigned s = 0; s < 128 / len; s++) {
        const int16_t z = mlkem_zetas[i0 + s], zq = mlkem_zetas_qinv[i0 + s];
        for (unsigned l = 0; l < len; l++) {
            int16_t t = mlkem_fqmul_pre(r[2 * len * s + len + l], z, zq);
            int16_t a = r[2 * len * s + l];
            r[2 * len * s + len + l] = (int16_t)(a - t);
            r[2 * len * s + l] = (int16_t)(a + t);
        }
    }
}

/* One layer of Algorithm 10 (lines 5-10) with span len >= 16: zeta index
 * i0 - s for block s, Gentleman-Sande butterflies (x, y) <- (x + y,
 * zeta (y - x)); with reduce set, the sums are Barrett-reduced. */
static MLKEM_ALWAYS_INLINE void invntt_layer(int16_t r[256], const unsigned len,
                                             const unsigned i0,
                                             const int reduce)
{
    for (unsigned s = 0; s < 128 / len; s++) {
        const int16_t z = mlkem_zetas[i0 - s], zq = mlkem_zetas_qinv[i0 - s];
        for (unsigned l = 0; l < len; l++) {
            int16_t a = r[2 * len * s + l], b = r[2 * len * s + len + l];
            int16_t sum = (int16_t)(a + b);
            r[2 * len * s + l] = reduce ? mlkem_barrett_reduce(sum) : sum;
            r[2 * len * s + len + l] =
                mlkem_fqmul_pre((int16_t)(b - a), z, zq);
        }
    }
}

/*
 * Implements FIPS 203, Algorithm 9 (NTT), lines 1-14, in place.
 * Input |r_i| < q; output |r_i| < 8q, the NTT of the input (no extra
 * factor), in the spec's order.
 * Bounds: each of the 7 layers replaces (a, b) by (a + t, a - t) with
 * t = zeta b (Montgomery) and |t| < q (|zeta * b| <= 1664 * 8q < q * 2^15),
 * so magnitudes grow by < q per layer: < q + 7q = 8q = 26,632 < 2^15.
 * Shape: layers len = 128 .. 16 are flat loops (ntt_layer), len = 8 reads
 * its zetas per lane, and len = 4 and 2 run on one group of 8 coefficients
 * per iteration; compilers vectorize that loop across 8 groups, so the two
 * layers within a group cost a transpose in and out but no per-coefficient
 * shuffles of zetas.
 */
void MLKEM_NTT_FN(mlkem_ntt)(int16_t r[256])
{
    /* Lines 2-11 for len = 128, 64, 32, 16 (zeta indices 1 .. 15). */
    ntt_layer(r, 128, 1);
    ntt_layer(r, 64, 2);
    ntt_layer(r, 32, 4);
    ntt_layer(r, 16, 8);
    /* len = 8 (indices 16 .. 31). */
    for (unsigned s = 0; s < 16; s++) {
        for (unsigned l = 0; l < 8; l++) {
            int16_t t = mlkem_fqmul_pre(r[16 * s + 8 + l],
                                        ntt_zetas8[8 * s + l],
                                        ntt_zetas8_qinv[8 * s + l]);
            int16_t a = r[16 * s + l];
            r[16 * s + 8 + l] = (int16_t)(a - t);
            r[16 * s + l] = (int16_t)(a + t);
        }
    }
    /* len = 4 (index 32 + g for group g of 8 coefficients) and len = 2
     * (indices 64 + 2g, 65 + 2g for its two blocks of 4). */
    for (unsigned g = 0; g < 32; g++) {
        int16_t c[8];
        for (unsigned e = 0; e < 8; e++)
            c[e] = r[8 * g + e];
        const int16_t z4 = mlkem_zetas[32 + g], z4q = mlkem_zetas_qinv[32 + g];
        for (unsigned e = 0; e < 4; e++) {
            int16_t t = mlkem_fqmul_pre(c[e + 4], z4, z4q);
            c[e + 4] = (int16_t)(c[e] - t);
            c[e] = (int16_t)(c[e] + t);
        }
        for (unsigned h = 0; h < 2; h++) {
            const int16_t z2 = mlkem_zetas[64 + 2 * g + h];
            const int16_t z2q = mlkem_zetas_qinv[64 + 2 * g + h];
            for (unsigned e = 4 * h; e < 4 * h + 2; e++) {
                int16_t t = mlkem_fqmul_pre(c[e + 2], z2, z2q);
                c[e + 2] = (int16_t)(c[e] - t);
                c[e] = (int16_t)(c[e] + t);
            }
        }
        for (unsigned e = 0; e < 8; e++)
            r[8 * g + e] = c[e];
    }
}

/*
 * Implements FIPS 203, Algorithm 10 (NTT^-1), lines 1-14, in place, with
 * line 14's factor 1/128 replaced by 2^16/128 (see the file comment).
 * Input: any int16_t. Output: |r_i| < q, equal to NTT^-1(input) * 2^16.
 * Bounds (reduction is lazy: two Barrett reductions instead of one per
 * layer). A Montgomery product by a zeta (|zeta| <= 1664) of a value v
 * satisfies |result| <= |v| * 1664 / 2^16 + 1666 (high half of the
 * product, minus the high half of t*q with |t| <= 2^15). Every input is
 * first Barrett-reduced to |.| <= 1664. Each layer maps values bounded by
 * B to sums bounded by 2B and products bounded by 2B * 1664 / 2^16 + 1666
 * < 2B, so after layers len = 2, 4, 8, 16 everything is below 16 * 1664 =
 * 26,624 < 2^15 (and the differences fed to the products, also below 2B,
 * fit too). The sums of layer len = 16 are Barrett-reduced as they are
 * formed (its products are already below 2 * 8 * 1664 * 1664 / 2^16 + 1666
 * < 2,343), so layers len = 32, 64 start from values <= 2,343 and end below
 * 4 * 2,343 = 9,372. The last layer, len = 128, folds in line 14: its sums
 * are multiplied by f = 2^32 / 128 mod q = 1441 (Montgomery form of
 * 2^16 / 128), its differences by zeta_1 * f (INVNTT_ZF, one Montgomery
 * product); the inputs are below 2 * 9,372 = 18,744, and 18,744 * 1664 <
 * q * 2^15, so every output is a Montgomery product with |.| < q.
 */
void MLKEM_NTT_FN(mlkem_invntt)(int16_t r[256])
{
    /* Barrett on input; len = 2 (zeta indices 127 - 2g, 126 - 2g for the
     * two blocks of group g, read as mlkem_zetas_rev[2g], [2g + 1]) and
     * len = 4 (63 - g = mlkem_zetas_rev[64 + g]), one group of 8
     * coefficients per iteration (the mirror image of the NTT's last two
     * layers; ascending table reads keep the loop vectorizable). */
    for (unsigned g = 0; g < 32; g++) {
        int16_t c[8];
        for (unsigned e = 0; e < 8; e++)
            c[e] = mlkem_barrett_reduce(r[8 * g + e]);
        for (unsigned h = 0; h < 2; h++) {
            const int16_t z2 = mlkem_zetas_rev[2 * g + h];
            const int16_t z2q = mlkem_zetas_rev_qinv[2 * g + h];
            for (unsigned e = 4 * h; e < 4 * h + 2; e++) {
                int16_t a = c[e], b = c[e + 2];
                c[e] = (int16_t)(a + b);
                c[e + 2] = mlkem_fqmul_pre((int16_t)(b - a), z2, z2q);
            }
        }
        const int16_t z4 = mlkem_zetas_rev[64 + g];
        const int16_t z4q = mlkem_zetas_rev_qinv[64 + g];
        for (unsigned e = 0; e < 4; e++) {
            int16_t a = c[e], b = c[e + 4];
            c[e] = (int16_t)(a + b);
            c[e + 4] = mlkem_fqmul_pre((int16_t)(b - a), z4, z4q);
        }
        for (unsigned e = 0; e < 8; e++)
            r[8 * g + e] = c[e];
    }
    /* len = 8 (indices 31 .. 16), zetas per lane. */
    for (unsigned s = 0; s < 16; s++) {
        for (unsigned l = 0; l < 8; l++) {
            int16_t a = r[16 * s + l], b = r[16 * s + 8 + l];
            r[16 * s + l] = (int16_t)(a + b);
            r[16 * s + 8 + l] = mlkem_fqmul_pre((int16_t)(b - a),
                                                invntt_zetas8[8 * s + l],
                                                invntt_zetas8_qinv[8 * s + l]);
        }
    }
    /* len = 16 (indices 15 .. 8) with reduced sums, then 32, 64. */
    invntt_layer(r, 16, 15, 1);
    invntt_layer(r, 32, 7, 0);
    invntt_layer(r, 64, 3, 0);
    /* len = 128 (index 1) and line 14, times 2^16. */
    for (unsigned l = 0; l < 128; l++) {
        int16_t a = r[l], b = r[128 + l];
        r[l] = mlkem_fqmul_pre((int16_t)(a + b), INVNTT_F, INVNTT_F_QINV);
        r[128 + l] = mlkem_fqmul_pre((int16_t)(b - a), INVNTT_ZF,
                                     INVNTT_ZF_QINV);
    }
}

/*
 * The k-term product of basemul_acc for a constant k (so that the loop over
 * the k terms is unrolled and the loop over coefficient pairs vectorizes).
 */
static MLKEM_ALWAYS_INLINE void basemul_acc_k(int16_t r[256],
                                              const int16_t *a,
                                              const int16_t *b,
                                              const unsigned k)
{
    int16_t bg[4][128]; /* b1 * gamma for each pair of each b_i */

    for (unsigned i = 0; i < k; i++)
        for (unsigned p = 0; p < 128; p++)
            bg[i][p] = mlkem_fqmul_pre(b[256 * i + 2 * p + 1], mlkem_gammas[p],
                                       mlkem_gammas_qinv[p]);
    for (unsigned p = 0; p < 128; p++) {
        int32_t c0 = 0, c1 = 0;
        for (unsigned i = 0; i < k; i++) {
            const int16_t *x = a + 256 * i + 2 * p;
            const int16_t *y = b + 256 * i + 2 * p;
            c0 += (int32_t)x[0] * y[0] + (int32_t)x[1] * bg[i][p];
            c1 += (int32_t)x[0] * y[1] + (int32_t)x[1] * y[0];
        }
        r[2 * p] = mlkem_montgomery_reduce(c0);
        r[2 * p + 1] = mlkem_montgomery_reduce(c1);
    }
}

/*
 * r = sum_{i<k} a_i o b_i * 2^-16, where o is MultiplyNTTs. Implements FIPS
 * 203, Algorithm 11 (MultiplyNTTs) for each of the k products and sums them,
 * with Algorithm 12 (BaseCaseMultiply) inlined: for the pair (a0, a1),
 * (b0, b1) and gamma = zeta^(2 BitRev7(p) + 1),
 *   c0 = a0 b0 + a1 b1 gamma,   c1 = a0 b1 + a1 b0.
 * b1 gamma is computed first (Montgomery, gamma in Montgomery form, so
 * exactly b1 gamma mod q with |.| < q); then both sums are formed in 32
 * bits and reduced once, leaving the factor 2^-16.
 * a and b point at k polynomials stored contiguously (a row of the matrix, a
 * vector). Contract: 1 <= k <= 4, |a_i| <= q, |b_i| < q. Output |r_i| < q.
 * Bounds: per term |a0 b0 + a1 (b1 gamma)| and |a0 b1 + a1 b0| are < 2 q^2;
 * over k <= 4 terms < 8 q^2 = 88,657,928 < q * 2^15 = 109,084,672, the
 * Montgomery input bound (and far inside int32).
 */
void MLKEM_NTT_FN(mlkem_basemul_acc)(int16_t r[256], const int16_t *a,
                                     const int16_t *b, unsigned k)
{
    switch (k) {
    case 1: basemul_acc_k(r, a, b, 1); break;
    case 2: basemul_acc_k(r, a, b, 2); break;
    case 3: basemul_acc_k(r, a, b, 3); break;
    default: basemul_acc_k(r, a, b, 4); break;
    }
}
