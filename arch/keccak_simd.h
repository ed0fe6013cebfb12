/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_simd.h: Keccak-f[1600] on N interleaved states, written once for
 * any vector type that holds one lane (64 bits) of each of N states.
 *
 * A backend source file (compiled with its own ISA flags) defines
 *   KS_N                 states per vector (4 for 256-bit, 8 for 512-bit)
 *   KS_V                 the vector type
 *   KS_LOAD(p)           load KS_N lanes from a 32/64-byte aligned pointer
 *   KS_STORE(p, v)       store them
 *   KS_XOR(a, b)         a ^ b
 *   KS_XOR5(a,b,c,d,e)   a ^ b ^ c ^ d ^ e (a column parity)
 *   KS_ROL(a, n)         rotate each 64-bit lane left by the constant n
 *   KS_CHI(a, b, c)      a ^ (~b & c)
 *   KS_IOTA(a, rc)       a ^ rc broadcast to every lane
 *   KS_FN(name)          the name of an exported function
 * and includes this file, which defines
 *   void KS_FN(permute)(uint64_t *s)
 *       KS_N states, interleaved: lane j (FIPS 202 lane (x,y), j = x + 5y)
 *       of state i is s[KS_N * j + i]; s is aligned to 32 * KS_N / 4 bytes
 *       (mlkem_keccak_x4 / mlkem_keccak_x8 are 64-byte aligned);
 *   void KS_FN(xor_bytes)(uint64_t *s, unsigned i, unsigned off,
 *                         const uint8_t *in, size_t len)
 *   void KS_FN(extract_bytes)(const uint64_t *s, unsigned i, unsigned off,
 *                             uint8_t *out, size_t len)
 *       byte access to state i (FIPS 202 B.1 byte order) in that layout
 *       (left out when KS_PERMUTE_ONLY is defined: the single BMI state of
 *       arch/avx2/keccak_f1600_bmi.c has keccak_lanes.h's plain ones);
 *   and, when the includer also defines KS_STATE (mlkem_keccak_x4 / mlkem_keccak_x8)
 *   and KS_API(name), the backend-table entry points KS_API(xor_bytes),
 *   KS_API(extract_bytes), KS_API(permute) on that type. An includer that
 *   defines KS_OWN_PERMUTE writes its permutation (and KS_API(permute))
 *   itself, as the x86 x4 / x8 kernels do (arch/gen_keccak_rounds.py), and
 *   needs only KS_N and the names, not the vector operations above.
 * This is the layout and the shape of XKCP's KeccakP-1600-times4-SIMD256
 * (lane-interleaved PlSnP), written here from FIPS 202.
 *
 * The round is the plain (not lane-complemented) form: vector ISAs have an
 * and-not (AVX2 vpandn) or a three-input logic instruction (AVX-512
 * vpternlogq), so complementing saves nothing. Each round, FIPS 202 §3.3:
 *   theta (Algorithm 1): c_x = column parity, d_x = c_{x-1} ^ rol(c_{x+1},1);
 *   rho + pi (Algorithms 2, 3): output row y reads the lanes
 *     row 0: 0, 6, 12, 18, 24    row 1: 3, 9, 10, 16, 22
 *     row 2: 1, 7, 13, 19, 20    row 3: 4, 5, 11, 17, 23
 *     row 4: 2, 8, 14, 15, 21
 *   each XORed with its column's d and rotated by its rho offset;
 *   chi (Algorithm 4): e_x = b_x ^ (~b_{x+1} & b_{x+2}) per row;
 *   iota (Algorithm 6): lane 0 ^= RC[i_r].
 * The rotation offsets and lane order are the ones of keccak/keccak_p1600.c
 * (and FIPS 202 Table 2); test/keccak compares every backend with the
 * portable permutation and with a spec-literal one.
 *
 * No branch or index depends on the state: the permutation is constant time.
 */
#ifndef KS_N
#error "define KS_N, KS_V and the KS_ operations before including keccak_simd.h"
#endif

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak_lanes.h"

/* One output row of rho + pi + chi: five lanes of A, each XORed with its
 * d and rotated, then chi into E. */
#define KS_ROW(E, e0, e1, e2, e3, e4, A, a0, d0, r0, a1, d1, r1, a2, d2, r2,  \
               a3, d3, r3, a4, d4, r4)                                        \
    do {                                                                      \
        const KS_V b0 = KS_ROL(KS_XOR(A##a0, d0), r0);                        \
        const KS_V b1 = KS_ROL(KS_XOR(A##a1, d1), r1);                        \
        const KS_V b2 = KS_ROL(KS_XOR(A##a2, d2), r2);                        \
        const KS_V b3 = KS_ROL(KS_XOR(A##a3, d3), r3);                        \
        const KS_V b4 = KS_ROL(KS_XOR(A##a4, d4), r4);                        \
        E##e0 = KS_CHI(b0, b1, b2);                                           \
        E##e1 = KS_CHI(b1, b2, b3);                                           \
        E##e2 = KS_CHI(b2, b3, b4);                                           \
        E##e3 = KS_CHI(b3, b4, b0);                                           \
        E##e4 = KS_CHI(b4, b0, b1);                                           \
    } while (0)

#define KS_ROUND(A, E, rc)                                                    \
    do {                                                                      \
        const KS_V c0 = KS_XOR5(A##00, A##05, A##10, A##15, A##20);           \
        const KS_V c1 = KS_XOR5(A##01, A##06, A##11, A##16, A##21);           \
        const KS_V c2 = KS_XOR5(A##02, A##07, A##12, A##17, A##22);           \
        const KS_V c3 = KS_XOR5(A##03, A##08, A##13, A##18, A##23);           \
        const KS_V c4 = KS_XOR5(A##04, A##09, A##14, A##19, A##24);           \
        const KS_V d0 = KS_XOR(c4, KS_ROL(c1, 1));                            \
        const KS_V d1 = KS_XOR(c0, KS_ROL(c2, 1));                            \
        const KS_V d2 = KS_XOR(c1, KS_ROL(c3, 1));                            \
        const KS_V d3 = KS_XOR(c2, KS_ROL(c4, 1));                            \
        const KS_V d4 = KS_XOR(c3, KS_ROL(c0, 1));                            \
        {                                                                     \
            const KS_V b0 = KS_XOR(A##00, d0);                                \
            const KS_V b1 = KS_ROL(KS_XOR(A##06, d1), 44);                    \
            const KS_V b2 = KS_ROL(KS_XOR(A##12, d2), 43);                    \
            const KS_V b3 = KS_ROL(KS_XOR(A##18, d3), 21);                    \
            const KS_V b4 = KS_ROL(KS_XOR(A##24, d4), 14);                    \
            E##00 = KS_IOTA(KS_CHI(b0, b1, b2), rc);                          \
            E##01 = KS_CHI(b1, b2, b3);                                       \
            E##02 = KS_CHI(b2, b3, b4);                                       \
            E##03 = KS_CHI(b3, b4, b0);                                       \
            E##04 = KS_CHI(b4, b0, b1);                                       \
        }                                                                     \
        KS_ROW(E, 05, 06, 07, 08, 09, A, 03, d3, 28, 09, d4, 20, 10, d0, 3,   \
               16, d1, 45, 22, d2, 61);                                       \
        KS_ROW(E, 10, 11, 12, 13, 14, A, 01, d1, 1, 07, d2, 6, 13, d3, 25,    \
               19, d4, 8, 20, d0, 18);                                        \
        KS_ROW(E, 15, 16, 17, 18, 19, A, 04, d4, 27, 05, d0, 36, 11, d1, 10,  \
               17, d2, 15, 23, d3, 56);                                       \
        KS_ROW(E, 20, 21, 22, 23, 24, A, 02, d2, 62, 08, d3, 55, 14, d4, 39,  \
               15, d0, 41, 21, d1, 2);                                        \
    } while (0)

/* Keccak-f[1600] (FIPS 202 §3.4, Algorithm 7, 24 rounds) on KS_N states:
 * the 25 lane vectors live in local variables, two rounds per iteration so
 * the two variable sets swap roles without copies. */
#ifndef KS_OWN_PERMUTE
void KS_FN(permute)(uint64_t *s)
{
#define KS_L(j) KS_LOAD(s + KS_N * (j))
    KS_V a00 = KS_L(0), a01 = KS_L(1), a02 = KS_L(2), a03 = KS_L(3);
    KS_V a04 = KS_L(4), a05 = KS_L(5), a06 = KS_L(6), a07 = KS_L(7);
    KS_V a08 = KS_L(8), a09 = KS_L(9), a10 = KS_L(10), a11 = KS_L(11);
    KS_V a12 = KS_L(12), a13 = KS_L(13), a14 = KS_L(14), a15 = KS_L(15);
    KS_V a16 = KS_L(16), a17 = KS_L(17), a18 = KS_L(18), a19 = KS_L(19);
    KS_V a20 = KS_L(20), a21 = KS_L(21), a22 = KS_L(22), a23 = KS_L(23);
    KS_V a24 = KS_L(24);
#undef KS_L
    KS_V e00, e01, e02, e03, e04, e05, e06, e07, e08, e09, e10, e11, e12;
    KS_V e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;

    for (unsigned r = 0; r < 24; r += 2) {
        KS_ROUND(a, e, mlkem_keccak_rc[r]);
        KS_ROUND(e, a, mlkem_keccak_rc[r + 1]);
    }

#define KS_S(j, jj) KS_STORE(s + KS_N * (j), a##jj)
    KS_S(0, 00); KS_S(1, 01); KS_S(2, 02); KS_S(3, 03); KS_S(4, 04);
    KS_S(5, 05); KS_S(6, 06); KS_S(7, 07); KS_S(8, 08); KS_S(9, 09);
    KS_S(10, 10); KS_S(11, 11); KS_S(12, 12); KS_S(13, 13); KS_S(14, 14);
    KS_S(15, 15); KS_S(16, 16); KS_S(17, 17); KS_S(18, 18); KS_S(19, 19);
    KS_S(20, 20); KS_S(21, 21); KS_S(22, 22); KS_S(23, 23); KS_S(24, 24);
#undef KS_S
}
#endif /* KS_OWN_PERMUTE */

#ifndef KS_PERMUTE_ONLY
/* Byte access to state i in the interleaved layout: FIPS 202 B.1 order,
 * byte b of the state is byte b mod 8 of lane b / 8, at
 * s[KS_N * (b / 8) + i] (keccak/keccak_lanes.h's strided helpers). */
void KS_FN(xor_bytes)(uint64_t *s, unsigned i, unsigned off,
                      const uint8_t *in, size_t len)
{
    mlkem_state_xor_bytes_strided(s + i, KS_N, off, in, len);
}

void KS_FN(extract_bytes)(const uint64_t *s, unsigned i, unsigned off,
                          uint8_t *out, size_t len)
{
    mlkem_state_extract_bytes_strided(s + i, KS_N, off, out, len);
}

void KS_FN(clear_lane)(uint64_t *s, unsigned i)
{
    mlkem_state_clear_strided(s + i, KS_N);
}
#endif /* KS_PERMUTE_ONLY */

/* With KS_STATE (mlkem_keccak_x4 or mlkem_keccak_x8, holding exactly one interleaved
 * group) and KS_API(name), also the backend-table functions. */
#ifdef KS_STATE
#ifndef KS_PERMUTE_ONLY
void KS_API(xor_bytes)(KS_STATE *st, unsigned lane, unsigned offset,
                       const uint8_t *in, size_t len)
{
    KS_FN(xor_bytes)(st->s, lane, offset, in, len);
}

void KS_API(extract_bytes)(const KS_STATE *st, unsigned lane, unsigned offset,
                           uint8_t *out, size_t len)
{
    KS_FN(extract_bytes)(st->s, lane, offset, out, len);
}

void KS_API(clear_lane)(KS_STATE *st, unsigned lane)
{
    KS_FN(clear_lane)(st->s, lane);
}
#endif

#ifndef KS_OWN_PERMUTE
void KS_API(permute)(KS_STATE *st)
{
    KS_FN(permute)(st->s);
}
#endif
#endif /* KS_STATE */

#undef KS_ROW
#undef KS_ROUND
