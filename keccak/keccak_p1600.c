/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_p1600.c: the single-state Keccak-f[1600] permutation.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.2 (step mappings theta, rho, pi, chi, iota),
 *             §3.3 (Algorithm 7, KECCAK-p[b, n_r]), §3.4 (Keccak-f = n_r 24).
 *
 * Portable C, tuned for 64-bit targets: in-register state, rotations by
 * constants, lane complementing, two rounds per loop iteration.
 */
#include "keccak/keccak.h"

#include "keccak/keccak_kernels.h"
#include "keccak/keccak_lanes.h"

/* Round constants RC[i_r] of iota (FIPS 202 §3.2.5, Algorithm 6, built from
 * rc(t) of Algorithm 5); test/keccak recomputes them from the LFSR. */
const uint64_t mlkem_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL,
    0x8000000080008000ULL, 0x000000000000808BULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008AULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800AULL, 0x800000008000000AULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* Rotate left by a constant 0 < n < 64 (compiles to one rol). */
#define ROL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/*
 * One round, FIPS 202 §3.3 Rnd(A, i_r) = iota(chi(pi(rho(theta(A)))), i_r),
 * from the 25 variables A##00..A##24 (lane x + 5y) into E##00..E##24.
 *
 * theta (Algorithm 1): column parities c_x and d_x = c_{x-1} ^ rol(c_{x+1}, 1).
 * rho + pi (Algorithms 2, 3): B[x, y] = rol(A[(x + 3y) mod 5, x] ^ d, r)
 *   with the rho offsets r as constants, so output row y reads the lanes
 *   row 0: 0, 6, 12, 18, 24    row 1: 3, 9, 10, 16, 22
 *   row 2: 1, 7, 13, 19, 20    row 3: 4, 5, 11, 17, 23
 *   row 4: 2, 8, 14, 15, 21
 * chi (Algorithm 4) with lane complementing: the state between rounds
 * holds lanes 1, 2, 8, 12, 17, 20 complemented (the "lane complementing
 * transform" of the Keccak team's implementation overview; the pattern is
 * called "bebigokimisa" after the lane names). Complements commute with
 * rotation and pass through XOR, so each row's five inputs b0..b4 reach chi
 * with a known set of them complemented; writing
 *   out_x = b_x ^ (~b_{x+1} & b_{x+2})
 * in terms of the stored values, with De Morgan (~u & ~v = ~(u | v)), lets
 * every row get by with one NOT (n) instead of five, and yields exactly the
 * complemented pattern again on output. Per row (inputs marked ~ arrive
 * complemented; outputs marked ~ leave complemented):
 *   row 0: in ~b0 b1 ~b2 ~b3 b4,  out b0 ~b1 ~b2 b3 b4, n = ~b2
 *   row 1: in ~b0 b1 ~b2 b3 b4,   out b0 b1 b2 ~b3 b4,  n = ~b4
 *   row 2: in ~b0 b1 ~b2 b3 b4,   out b0 b1 ~b2 b3 b4,  n = ~b3
 *   row 3: in b0 ~b1 b2 ~b3 ~b4,  out b0 b1 ~b2 b3 b4,  n = ~b3
 *   row 4: in ~b0 b1 b2 ~b3 b4,   out ~b0 b1 b2 b3 b4,  n = ~b1
 * (the input pattern is the stored one after theta: d_0 and d_3 come out
 * complemented because columns 0..3 hold an odd number of complemented
 * lanes). test/keccak checks the result against a spec-literal
 * implementation.
 * The order of the five chi statements inside each row does not matter for
 * the result; the one below gave gcc 12 and clang 14 the fewest register
 * copies and spills (x86-64 has 16 registers for 25 lanes, 5 d's, 5 b's).
 * iota (Algorithm 6): lane 0 ^= RC[i_r].
 */
#define KECCAK_ROUND(A, E, rc)                                                \
    do {                                                                      \
        const uint64_t c0 = A##00 ^ A##05 ^ A##10 ^ A##15 ^ A##20;            \
        const uint64_t c1 = A##01 ^ A##06 ^ A##11 ^ A##16 ^ A##21;            \
        const uint64_t c2 = A##02 ^ A##07 ^ A##12 ^ A##17 ^ A##22;            \
        const uint64_t c3 = A##03 ^ A##08 ^ A##13 ^ A##18 ^ A##23;            \
        const uint64_t c4 = A##04 ^ A##09 ^ A##14 ^ A##19 ^ A##24;            \
        const uint64_t d0 = c4 ^ ROL64(c1, 1);                                \
        const uint64_t d1 = c0 ^ ROL64(c2, 1);                                \
        const uint64_t d2 = c1 ^ ROL64(c3, 1);                                \
        const uint64_t d3 = c2 ^ ROL64(c4, 1);                                \
        const uint64_t d4 = c3 ^ ROL64(c0, 1);                                \
        uint64_t b0, b1, b2, b3, b4, n;                                       \
        /* row 0 */                                                           \
        b0 = A##00 ^ d0;                                                      \
        b1 = ROL64(A##06 ^ d1, 44);                                           \
        b2 = ROL64(A##12 ^ d2, 43);                                           \
        b3 = ROL64(A##18 ^ d3, 21);                                           \
        b4 = ROL64(A##24 ^ d4, 14);                                           \
        n = ~b2;                                                              \
        E##00 = b0 ^ (b1 | b2) ^ (rc);                                        \
        E##02 = b2 ^ (b3 & b4);                                               \
        E##04 = b4 ^ (b0 & b1);                                               \
        E##03 = b3 ^ (b4 | b0);                                               \
        E##01 = b1 ^ (n | b3);                                                \
        /* row 1 */                                                           \
        b0 = ROL64(A##03 ^ d3, 28);                                           \
        b1 = ROL64(A##09 ^ d4, 20);                                           \
        b2 = ROL64(A##10 ^ d0, 3);                                            \
        b3 = ROL64(A##16 ^ d1, 45);                                           \
        b4 = ROL64(A##22 ^ d2, 61);                                           \
        n = ~b4;                                                              \
        E##05 = b0 ^ (b1 | b2);                                               \
        E##07 = b2 ^ (b3 | n);                                                \
        E##06 = b1 ^ (b2 & b3);                                               \
        E##09 = b4 ^ (b0 & b1);                                               \
        E##08 = b3 ^ (b4 | b0);                                               \
        /* row 2 */                                                           \
        b0 = ROL64(A##01 ^ d1, 1);                                            \
        b1 = ROL64(A##07 ^ d2, 6);                                            \
        b2 = ROL64(A##13 ^ d3, 25);                                           \
        b3 = ROL64(A##19 ^ d4, 8);                                            \
        b4 = ROL64(A##20 ^ d0, 18);                                           \
        n = ~b3;                                                              \
        E##14 = b4 ^ (b0 & b1);                                               \
        E##11 = b1 ^ (b2 & b3);                                               \
        E##12 = b2 ^ (n & b4);                                                \
        E##13 = n ^ (b4 | b0);                                                \
        E##10 = b0 ^ (b1 | b2);                                               \
        /* row 3 */                                                           \
        b0 = ROL64(A##04 ^ d4, 27);                                           \
        b1 = ROL64(A##05 ^ d0, 36);                                           \
        b2 = ROL64(A##11 ^ d1, 10);                                           \
        b3 = ROL64(A##17 ^ d2, 15);                                           \
        b4 = ROL64(A##23 ^ d3, 56);                                           \
        n = ~b3;                                                              \
        E##17 = b2 ^ (n | b4);                                                \
        E##16 = b1 ^ (b2 | b3);                                               \
        E##18 = n ^ (b4 & b0);                                                \
        E##15 = b0 ^ (b1 & b2);                                               \
        E##19 = b4 ^ (b0 | b1);                                               \
        /* row 4 */                                                           \
        b0 = ROL64(A##02 ^ d2, 62);                                           \
        b1 = ROL64(A##08 ^ d3, 55);                                           \
        b2 = ROL64(A##14 ^ d4, 39);                                           \
        b3 = ROL64(A##15 ^ d0, 41);                                           \
        b4 = ROL64(A##21 ^ d1, 2);                                            \
        n = ~b1;                                                              \
        E##20 = b0 ^ (n & b2);                                                \
        E##22 = b2 ^ (b3 & b4);                                               \
        E##24 = b4 ^ (b0 & b1);                                               \
        E##23 = b3 ^ (b4 | b0);                                               \
        E##21 = n ^ (b2 | b3);                                                \
    } while (0)

/*
 * Keccak-f[1600] = Keccak-p[1600, 24] (§3.4; Algorithm 7 with n_r = 24 runs
 * rounds i_r = 0..23). The state lives in 25 local variables (registers and
 * stack slots the compiler chooses), two rounds per iteration so the two
 * variable sets swap roles without copies. The complement pattern is applied
 * on entry and removed on exit.
 *
 * Measured on an AMD Zen 4 (rdtsc ticks, bench/): ~760
 * per call with gcc 12 -O3 and with clang 14. Tried and slower there:
 * unrolling all 24 rounds (~960-980, probably because 20 KB of code no
 * longer fits the op cache) and accumulating the next round's column
 * parities during chi (~785 gcc: five more live registers, more spills).
 * The loop is dispatch bound (~220 instructions per round, 135 of them
 * logic); BMI1/BMI2 (andn, rorx) would save copies but are ISA flags,
 * which keccak/ does not use.
 */
/*@ requires \valid(s + (0 .. 24));
    assigns s[0 .. 24] \from s[0 .. 24]; // proof/drivers/perm.c */
void mlkem_keccak_f1600_portable(uint64_t s[25])
{
    uint64_t a00 = s[0], a01 = ~s[1], a02 = ~s[2], a03 = s[3], a04 = s[4];
    uint64_t a05 = s[5], a06 = s[6], a07 = s[7], a08 = ~s[8], a09 = s[9];
    uint64_t a10 = s[10], a11 = s[11], a12 = ~s[12], a13 = s[13], a14 = s[14];
    uint64_t a15 = s[15], a16 = s[16], a17 = ~s[17], a18 = s[18], a19 = s[19];
    uint64_t a20 = ~s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
    uint64_t e00, e01, e02, e03, e04, e05, e06, e07, e08, e09, e10, e11, e12;
    uint64_t e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;

    for (unsigned r = 0; r < 24; r += 2) {
        KECCAK_ROUND(a, e, mlkem_keccak_rc[r]);
        KECCAK_ROUND(e, a, mlkem_keccak_rc[r + 1]);
    }

    s[0] = a00, s[1] = ~a01, s[2] = ~a02, s[3] = a03, s[4] = a04;
    s[5] = a05, s[6] = a06, s[7] = a07, s[8] = ~a08, s[9] = a09;
    s[10] = a10, s[11] = a11, s[12] = ~a12, s[13] = a13, s[14] = a14;
    s[15] = a15, s[16] = a16, s[17] = ~a17, s[18] = a18, s[19] = a19;
    s[20] = ~a20, s[21] = a21, s[22] = a22, s[23] = a23, s[24] = a24;
}

void mlkem_keccak_f1600(uint64_t s[25])
{
    mlkem_keccak_kernels()->f1600(s);
}
