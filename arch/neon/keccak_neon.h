/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_neon.h: one Keccak-f[1600] round, written once for the two
 * kinds of vector lanes the AArch64 kernels use: a NEON q register holding
 * lane (x,y) of two states (or of one, in lane 0), with plain Advanced SIMD
 * or with the Armv8.2 SHA3 instructions. The hybrid permutations
 * (keccak_x4_neon.c, keccak_sha3.c) interleave a vector round with scalar
 * rounds in one loop body, so the round is a macro over an "operation
 * set" P rather than a whole permutation function (arch/keccak_simd.h's
 * shape). The scalar round (one state in general-purpose registers, every
 * rotation folded into an operand) has a form of its own, generated:
 * keccak_scalar_round.h.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.2 (theta, rho, pi, chi, iota), §3.3.
 *   [HYBRID]  H. Becker, M. J. Kannwischer, ePrint 2022/1243: running
 *             scalar Keccak states beside NEON ones on AArch64.
 *
 * An operation set P is a group of macros, named by prefix:
 *   P##_T              the lane type
 *   P##_XOR5(a..e)     a ^ b ^ c ^ d ^ e (a column parity)
 *   P##_D(c0, c2)      c0 ^ rol(c2, 1)   (theta's d; RAX1)
 *   P##_XOR(a, d)      a ^ d
 *   P##_XROL(a, d, n)  rol(a ^ d, n), 0 < n < 64   (XAR by 64 - n)
 *   P##_CHI(a, b, c)   a ^ (~b & c)      (BCAX a, c, b; BIC + EOR)
 *   P##_IOTA(a, rc)    a ^ rc            (rc a uint64_t)
 *
 * The round reads the 25 lanes A##00 .. A##24 (lane (x,y) is A##(x + 5y),
 * two decimal digits) and writes E##00 .. E##24; FIPS 202 §3.3:
 *   theta (Algorithm 1): c_x = column parity, d_x = c_{x-1} ^ rol(c_{x+1},1);
 *   rho + pi (Algorithms 2, 3): output row y reads the lanes
 *     row 0: 0, 6, 12, 18, 24    row 1: 3, 9, 10, 16, 22
 *     row 2: 1, 7, 13, 19, 20    row 3: 4, 5, 11, 17, 23
 *     row 4: 2, 8, 14, 15, 21
 *   each XORed with its column's d and rotated by its rho offset (Table 2);
 *   chi (Algorithm 4): e_x = b_x ^ (~b_{x+1} & b_{x+2}) per row;
 *   iota (Algorithm 6): lane 0 ^= RC[i_r].
 * It is the plain (not lane-complemented) form: AArch64 has an and-not in
 * both register files (BIC), so complementing would save nothing.
 * Nothing depends on the state's values (constant time).
 */
#ifndef MLKEM_ARCH_NEON_KECCAK_NEON_H
#define MLKEM_ARCH_NEON_KECCAK_NEON_H

#include <stdint.h>

#include "keccak/keccak_lanes.h"

/* Theta's XOR, rho and pi for the five lanes of column x (d its theta
 * value): lane a_k goes to B value b_k, rotated by r_k; lane (0,0) of
 * column 0 is not rotated (NK_ROUND writes it with P##_XOR). */
#define NK_COL(P, A, d, b0, a0, r0, b1, a1, r1, b2, a2, r2, b3, a3, r3, b4,  \
               a4, r4)                                                        \
    const P##_T b0 = P##_XROL(A##a0, d, r0);                                  \
    const P##_T b1 = P##_XROL(A##a1, d, r1);                                  \
    const P##_T b2 = P##_XROL(A##a2, d, r2);                                  \
    const P##_T b3 = P##_XROL(A##a3, d, r3);                                  \
    const P##_T b4 = P##_XROL(A##a4, d, r4)

/* Chi on output row y: E##(5y + x) from the B values b(5y + x). */
#define NK_CHI_ROW(P, E, e0, e1, e2, e3, e4, b0, b1, b2, b3, b4)             \
    E##e0 = P##_CHI(b0, b1, b2);                                              \
    E##e1 = P##_CHI(b1, b2, b3);                                              \
    E##e2 = P##_CHI(b2, b3, b4);                                              \
    E##e3 = P##_CHI(b3, b4, b0);                                              \
    E##e4 = P##_CHI(b4, b0, b1)

/* Round i_r with round constant rc: A -> E (E may be A: every lane of A is
 * read before E##00 is written). B value 5y + x is output row y's lane x
 * before chi. Theta works column by column so that few values are live
 * at once (the lanes, and at most four parities and d values beside them:
 * the order of keccak_scalar_round.h): a column's lanes become B values
 * once its parity is taken and its d is known. */
#define NK_ROUND(P, A, E, rc)                                                 \
    do {                                                                      \
        const P##_T c1 = P##_XOR5(A##01, A##06, A##11, A##16, A##21);         \
        const P##_T c0 = P##_XOR5(A##00, A##05, A##10, A##15, A##20);         \
        const P##_T c2 = P##_XOR5(A##02, A##07, A##12, A##17, A##22);         \
        const P##_T d1 = P##_D(c0, c2);                                       \
        NK_COL(P, A, d1, b10, 01, 1, b01, 06, 44, b17, 11, 10, b08, 16, 45,   \
               b24, 21, 2);                                                   \
        const P##_T c3 = P##_XOR5(A##03, A##08, A##13, A##18, A##23);         \
        const P##_T d4 = P##_D(c3, c0);                                       \
        const P##_T d2 = P##_D(c1, c3);                                       \
        NK_COL(P, A, d2, b20, 02, 62, b11, 07, 6, b02, 12, 43, b18, 17, 15,   \
               b09, 22, 61);                                                  \
        const P##_T c4 = P##_XOR5(A##04, A##09, A##14, A##19, A##24);         \
        NK_COL(P, A, d4, b15, 04, 27, b06, 09, 20, b22, 14, 39, b13, 19, 8,   \
               b04, 24, 14);                                                  \
        const P##_T d0 = P##_D(c4, c1);                                       \
        const P##_T d3 = P##_D(c2, c4);                                       \
        const P##_T b00 = P##_XOR(A##00, d0);                                 \
        const P##_T b16 = P##_XROL(A##05, d0, 36);                            \
        const P##_T b07 = P##_XROL(A##10, d0, 3);                             \
        const P##_T b23 = P##_XROL(A##15, d0, 41);                            \
        const P##_T b14 = P##_XROL(A##20, d0, 18);                            \
        NK_COL(P, A, d3, b05, 03, 28, b21, 08, 55, b12, 13, 25, b03, 18, 21,  \
               b19, 23, 56);                                                  \
        NK_CHI_ROW(P, E, 00, 01, 02, 03, 04, b00, b01, b02, b03, b04);        \
        E##00 = P##_IOTA(E##00, (rc));                                        \
        NK_CHI_ROW(P, E, 05, 06, 07, 08, 09, b05, b06, b07, b08, b09);        \
        NK_CHI_ROW(P, E, 10, 11, 12, 13, 14, b10, b11, b12, b13, b14);        \
        NK_CHI_ROW(P, E, 15, 16, 17, 18, 19, b15, b16, b17, b18, b19);        \
        NK_CHI_ROW(P, E, 20, 21, 22, 23, 24, b20, b21, b22, b23, b24);        \
    } while (0)

/* Declarations of the 25 lanes A##00 .. A##24 of type T, and their load
 * from / store to a state whose lane j is at p[stride * j]. */
#define NK_DECL(T, A)                                                         \
    T A##00, A##01, A##02, A##03, A##04, A##05, A##06, A##07, A##08, A##09,   \
        A##10, A##11, A##12, A##13, A##14, A##15, A##16, A##17, A##18,        \
        A##19, A##20, A##21, A##22, A##23, A##24
#define NK_LANES(X, A)                                                        \
    X(A##00, 0); X(A##01, 1); X(A##02, 2); X(A##03, 3); X(A##04, 4);          \
    X(A##05, 5); X(A##06, 6); X(A##07, 7); X(A##08, 8); X(A##09, 9);          \
    X(A##10, 10); X(A##11, 11); X(A##12, 12); X(A##13, 13); X(A##14, 14);     \
    X(A##15, 15); X(A##16, 16); X(A##17, 17); X(A##18, 18); X(A##19, 19);     \
    X(A##20, 20); X(A##21, 21); X(A##22, 22); X(A##23, 23); X(A##24, 24)

#endif /* MLKEM_ARCH_NEON_KECCAK_NEON_H */
