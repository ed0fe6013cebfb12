/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ntt.c: the twiddle layouts and the portable instance of the NTT kernels
 * (kem/ntt_template.h): NTT, NTT^-1, the multiplication cache and
 * MultiplyNTTs, named *_portable (kem/poly_kernels.h).
 *
 * References
 *   [FIPS203] NIST FIPS 203, §4.3 and Appendix A (the zetas).
 *
 * Every table below is expanded from the one table of kem/zetas.h by
 * designated initializers: the compiler places each zeta (or its q^-1
 * twin, or its negation) where the layout wants it, so no value is written
 * twice in the source. ntt_template.h documents each layout.
 */
#include <stdint.h>

#include "kem/poly.h"
#include "kem/zetas.h"

/* v * q^-1 mod 2^16 as a signed 16-bit constant expression: q^-1 mod 2^16 =
 * 62209 (= -3327); v + 2^16 keeps the product non-negative and below 2^32
 * for |v| <= 1664; the low half is read as signed as in mlkem_lo16, with no
 * out-of-range conversion. */
#define ZQ(v)                                                                 \
    ((int16_t)((int32_t)((((uint32_t)((v) + 65536) * 62209u) & 0xffffu) ^    \
                         0x8000u) -                                           \
               0x8000))

#define AT(i, v) [(i)] = (v),
#define AT_Q(i, v) [(i)] = ZQ(v),
const int16_t mlkem_zetas[128] = {MLKEM_ZETAS(AT)};
const int16_t mlkem_zetas_qinv[128] = {MLKEM_ZETAS(AT_Q)};

#define REV(i, v) [127 - (i)] = (v),
#define REV_Q(i, v) [127 - (i)] = ZQ(v),
const int16_t mlkem_zetas_rev[128] = {MLKEM_ZETAS(REV)};
const int16_t mlkem_zetas_rev_qinv[128] = {MLKEM_ZETAS(REV_Q)};

/* Eight lanes of zeta i at block b: entries 8b .. 8b + 7. */
#define LANES(b, v)                                                           \
    [8 * (b) + 0] = (v), [8 * (b) + 1] = (v), [8 * (b) + 2] = (v),            \
    [8 * (b) + 3] = (v), [8 * (b) + 4] = (v), [8 * (b) + 5] = (v),            \
    [8 * (b) + 6] = (v), [8 * (b) + 7] = (v),
#define L8(i, v) LANES((i) - 16, v)
#define L8_Q(i, v) LANES((i) - 16, ZQ(v))
#define INV_L8(i, v) LANES(31 - (i), v)
#define INV_L8_Q(i, v) LANES(31 - (i), ZQ(v))
const int16_t mlkem_zetas_lane8[128] = {MLKEM_ZETAS_16_31(L8)};
const int16_t mlkem_zetas_lane8_qinv[128] = {MLKEM_ZETAS_16_31(L8_Q)};
const int16_t mlkem_zetas_inv_lane8[128] = {MLKEM_ZETAS_16_31(INV_L8)};
const int16_t mlkem_zetas_inv_lane8_qinv[128] = {MLKEM_ZETAS_16_31(INV_L8_Q)};

/* gamma_2m = zetas[64 + m], gamma_2m+1 = -zetas[64 + m]. */
#define GAMMA(i, v) [2 * ((i) - 64)] = (v), [2 * ((i) - 64) + 1] = -(v),
#define GAMMA_Q(i, v) [2 * ((i) - 64)] = ZQ(v), [2 * ((i) - 64) + 1] = ZQ(-(v)),
const int16_t mlkem_gammas[128] = {MLKEM_ZETAS_64_127(GAMMA)};
const int16_t mlkem_gammas_qinv[128] = {MLKEM_ZETAS_64_127(GAMMA_Q)};

#define MLKEM_NTT_FN(name) name##_portable
#include "kem/ntt_template.h"
