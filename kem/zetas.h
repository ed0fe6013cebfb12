/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zetas.h: the one twiddle table of kem/, FIPS 203 Appendix A in Montgomery
 * form: entry i is zeta^BitRev7(i) * 2^16 mod q, centred, zeta = 17.
 *
 * It is written once, as X-macro lists of (index, value) pairs split at the
 * NTT's layer boundaries (indices 1-15 serve layers len = 128 .. 16, 16-31
 * len = 8, 32-63 len = 4, 64-127 len = 2 and MultiplyNTTs' gammas). kem/ntt.c
 * expands the lists into the table mlkem_zetas and into the layouts the
 * vectorizable loops read (each zeta's product with q^-1 mod 2^16, the
 * table reversed for NTT^-1, one copy per lane for the len = 8 layers, the
 * +-gamma pairs): those are derived from these values by the compiler, not
 * written out again. test/kem/test_ntt.c recomputes the values from
 * zeta = 17 and BitRev7 and checks every derived layout.
 */
#ifndef MLKEM_KEM_ZETAS_H
#define MLKEM_KEM_ZETAS_H

/* Indices 0 .. 15 (0 is unused by the NTT: zeta^0 = 1 in Montgomery form). */
#define MLKEM_ZETAS_0_15(X) \
    X(  0,  -1044) X(  1,   -758) X(  2,   -359) X(  3,  -1517) \
    X(  4,   1493) X(  5,   1422) X(  6,    287) X(  7,    202) \
    X(  8,   -171) X(  9,    622) X( 10,   1577) X( 11,    182) \
    X( 12,    962) X( 13,  -1202) X( 14,  -1474) X( 15,   1468)

/* Indices 16 .. 31: the len = 8 layers. */
#define MLKEM_ZETAS_16_31(X) \
    X( 16,    573) X( 17,  -1325) X( 18,    264) X( 19,    383) \
    X( 20,   -829) X( 21,   1458) X( 22,  -1602) X( 23,   -130) \
    X( 24,   -681) X( 25,   1017) X( 26,    732) X( 27,    608) \
    X( 28,  -1542) X( 29,    411) X( 30,   -205) X( 31,  -1571)

/* Indices 32 .. 63: the len = 4 layers. */
#define MLKEM_ZETAS_32_63(X) \
    X( 32,   1223) X( 33,    652) X( 34,   -552) X( 35,   1015) \
    X( 36,  -1293) X( 37,   1491) X( 38,   -282) X( 39,  -1544) \
    X( 40,    516) X( 41,     -8) X( 42,   -320) X( 43,   -666) \
    X( 44,  -1618) X( 45,  -1162) X( 46,    126) X( 47,   1469) \
    X( 48,   -853) X( 49,    -90) X( 50,   -271) X( 51,    830) \
    X( 52,    107) X( 53,  -1421) X( 54,   -247) X( 55,   -951) \
    X( 56,   -398) X( 57,    961) X( 58,  -1508) X( 59,   -725) \
    X( 60,    448) X( 61,  -1065) X( 62,    677) X( 63,  -1275)

/* Indices 64 .. 127: the len = 2 layers; gamma_2m = zetas[64 + m],
 * gamma_2m+1 = -zetas[64 + m] (Algorithm 11). */
#define MLKEM_ZETAS_64_127(X) \
    X( 64,  -1103) X( 65,    430) X( 66,    555) X( 67,    843) \
    X( 68,  -1251) X( 69,    871) X( 70,   1550) X( 71,    105) \
    X( 72,    422) X( 73,    587) X( 74,    177) X( 75,   -235) \
    X( 76,   -291) X( 77,   -460) X( 78,   1574) X( 79,   1653) \
    X( 80,   -246) X( 81,    778) X( 82,   1159) X( 83,   -147) \
    X( 84,   -777) X( 85,   1483) X( 86,   -602) X( 87,   1119) \
    X( 88,  -1590) X( 89,    644) X( 90,   -872) X( 91,    349) \
    X( 92,    418) X( 93,    329) X( 94,   -156) X( 95,    -75) \
    X( 96,    817) X( 97,   1097) X( 98,    603) X( 99,    610) \
    X(100,   1322) X(101,  -1285) X(102,  -1465) X(103,    384) \
    X(104,  -1215) X(105,   -136) X(106,   1218) X(107,  -1335) \
    X(108,   -874) X(109,    220) X(110,  -1187) X(111,  -1659) \
    X(112,  -1185) X(113,  -1530) X(114,  -1278) X(115,    794) \
    X(116,  -1510) X(117,   -854) X(118,   -870) X(119,    478) \
    X(120,   -108) X(121,   -308) X(122,    996) X(123,    991) \
    X(124,    958) X(125,  -1460) X(126,   1522) X(127,   1628)

#define MLKEM_ZETAS(X)                                                        \
    MLKEM_ZETAS_0_15(X) MLKEM_ZETAS_16_31(X) MLKEM_ZETAS_32_63(X)             \
    MLKEM_ZETAS_64_127(X)

#endif /* MLKEM_KEM_ZETAS_H */
