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
 *
 * Deviations from the spec, all invisible outside this file:
 *   - zetas are stored in Montgomery form (zeta^BitRev7(i) * 2^16 mod q,
 *     centred), so one Montgomery multiplication computes zeta * x exactly;
 *   - coefficients are int16_t, reduced lazily (bounds in each comment);
 *   - NTT^-1 ends by multiplying with 2^16 / 128 instead of 1/128 (3303 in
 *     the spec), so its output carries a factor 2^16 that cancels the 2^-16
 *     left by basemul_acc (the reference implementation's convention);
 *   - basemul_acc accumulates the k products of a row in 32 bits and reduces
 *     once (Algorithm 11 applied k times and summed).
 * These are the contracts of arch/backend.h; kem/poly.h restates them.
 */
#include <stdint.h>

#include "arch/backend.h"
#include "kem/poly.h"
#include "kem/reduce.h"

/* mlkem_zetas[i] = zeta^BitRev7(i) * 2^16 mod q, centred in [-(q-1)/2,
 * (q-1)/2], zeta = 17 (FIPS 203 Appendix A in Montgomery form).
 * test/kem/test_ntt.c recomputes the table from zeta = 17 and BitRev7. */
const int16_t mlkem_zetas[128] = {
    -1044,  -758,  -359, -1517,  1493,  1422,   287,   202,
     -171,   622,  1577,   182,   962, -1202, -1474,  1468,
      573, -1325,   264,   383,  -829,  1458, -1602,  -130,
     -681,  1017,   732,   608, -1542,   411,  -205, -1571,
     1223,   652,  -552,  1015, -1293,  1491,  -282, -1544,
      516,    -8,  -320,  -666, -1618, -1162,   126,  1469,
     -853,   -90,  -271,   830,   107, -1421,  -247,  -951,
     -398,   961, -1508,  -725,   448, -1065,   677, -1275,
    -1103,   430,   555,   843, -1251,   871,  1550,   105,
      422,   587,   177,  -235,  -291,  -460,  1574,  1653,
     -246,   778,  1159,  -147,  -777,  1483,  -602,  1119,
    -1590,   644,  -872,   349,   418,   329,  -156,   -75,
      817,  1097,   603,   610,  1322, -1285, -1465,   384,
    -1215,  -136,  1218, -1335,  -874,   220, -1187, -1659,
    -1185, -1530, -1278,   794, -1510,  -854,  -870,   478,
     -108,  -308,   996,   991,   958, -1460,  1522,  1628,
};

/*
 * Implements FIPS 203, Algorithm 9 (NTT), lines 1-14, in place.
 * Input |r_i| < q; output |r_i| < 8q, the NTT of the input (no extra
 * factor), in the spec's order.
 * Bounds: each of the 7 layers replaces (a, b) by (a + t, a - t) with
 * t = zeta * b * 2^16 * 2^-16 and |t| < q (Montgomery reduction of
 * |zeta * b| <= 1664 * 8q < q * 2^15), so magnitudes grow by < q per layer:
 * < q + 7q = 8q = 26,632 < 2^15 at the end.
 */
void mlkem_ntt_portable(int16_t r[256])
{
    unsigned i = 1;
    for (unsigned len = 128; len >= 2; len >>= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            const int16_t zeta = mlkem_zetas[i++];
            for (unsigned j = start; j < start + len; j++) {
                int16_t t = mlkem_fqmul(zeta, r[j + len]);
                r[j + len] = (int16_t)(r[j] - t);
                r[j] = (int16_t)(r[j] + t);
            }
        }
    }
}

/*
 * Implements FIPS 203, Algorithm 10 (NTT^-1), lines 1-14, in place, with
 * line 14's factor 1/128 replaced by 2^16/128 (see the file comment).
 * Input: any int16_t. Output: |r_i| < q, equal to NTT^-1(input) * 2^16.
 * Bounds: sums and differences are formed in 32 bits. A sum of two int16_t
 * has |s| <= 2^16, within mlkem_barrett_reduce's range, and leaves
 * |.| <= (q-1)/2. A difference has |d| <= 65535 and |zeta * d| <=
 * 1664 * 65535 = 109,050,240 < q * 2^15 = 109,084,672, so the Montgomery
 * reduction is valid and leaves |.| < q. Every layer therefore maps any
 * int16_t input to |.| < q, and the last multiplication by
 * f = 2^32 / 128 mod q = 1441 (Montgomery form of 2^16 / 128) also gives
 * |.| < q.
 */
void mlkem_invntt_portable(int16_t r[256])
{
    const int16_t f = 1441;
    unsigned i = 127;
    for (unsigned len = 2; len <= 128; len <<= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            const int32_t zeta = mlkem_zetas[i--];
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = r[j];
                int32_t u = r[j + len];
                r[j] = mlkem_barrett_reduce(t + u);
                r[j + len] = mlkem_montgomery_reduce(zeta * (u - t));
            }
        }
    }
    for (unsigned j = 0; j < 256; j++)
        r[j] = mlkem_fqmul(r[j], f);
}

/*
 * r = sum_{i<k} a_i o b_i * 2^-16, where o is MultiplyNTTs. Implements FIPS
 * 203, Algorithm 11 (MultiplyNTTs) for each of the k products and sums them,
 * with Algorithm 12 (BaseCaseMultiply) inlined: for the pair (a0, a1),
 * (b0, b1) and gamma = zeta^(2 BitRev7(i) + 1),
 *   c0 = a0 b0 + a1 b1 gamma,   c1 = a0 b1 + a1 b0.
 * gamma for pairs 2m and 2m+1 is +-mlkem_zetas[64 + m] (Montgomery form),
 * so mont(a1 b1) * gamma_mont = a1 b1 gamma with no extra factor, and the
 * single final Montgomery reduction leaves the factor 2^-16.
 * a and b point at k polynomials stored contiguously (a row of the matrix, a
 * vector). Contract: 1 <= k <= 4, |a_i|, |b_i| < q (or a_i in [0, q]).
 * Output |r_i| < q.
 * Bounds per coefficient pair and per i: |a0 b0| < q^2, |mont(a1 b1) gamma|
 * < q * 1664, |a0 b1 + a1 b0| < 2 q^2; summed over k <= 4 terms the larger
 * is 8 q^2 = 88,657,928 < q * 2^15 = 109,084,672, the Montgomery input
 * bound, and far inside int32.
 */
void mlkem_basemul_acc_portable(int16_t r[256], const int16_t *a,
                                const int16_t *b, unsigned k)
{
    for (unsigned m = 0; m < 64; m++) {
        const int32_t zeta = mlkem_zetas[64 + m];
        int32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
        for (unsigned i = 0; i < k; i++) {
            const int16_t *x = a + 256 * i + 4 * m;
            const int16_t *y = b + 256 * i + 4 * m;
            c0 += (int32_t)x[0] * y[0]
                + zeta * mlkem_montgomery_reduce((int32_t)x[1] * y[1]);
            c1 += (int32_t)x[0] * y[1] + (int32_t)x[1] * y[0];
            c2 += (int32_t)x[2] * y[2]
                - zeta * mlkem_montgomery_reduce((int32_t)x[3] * y[3]);
            c3 += (int32_t)x[2] * y[3] + (int32_t)x[3] * y[2];
        }
        r[4 * m + 0] = mlkem_montgomery_reduce(c0);
        r[4 * m + 1] = mlkem_montgomery_reduce(c1);
        r[4 * m + 2] = mlkem_montgomery_reduce(c2);
        r[4 * m + 3] = mlkem_montgomery_reduce(c3);
    }
}
