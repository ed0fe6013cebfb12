/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4_template.h: the hybrid x4 permutation of the AArch64 backends,
 * written once for both vector operation sets (keccak_neon.h): plain NEON
 * (keccak_x4_neon.c) and the SHA3 instructions (keccak_sha3.c).
 *
 * References
 *   [HYBRID] H. Becker, M. J. Kannwischer, "Hybrid scalar/vector
 *            implementations of Keccak and SPHINCS+ on AArch64", ePrint
 *            2022/1243: the scheme (mlkem-native's AArch64 x4 kernels run
 *            two states in NEON and two scalar, the same split).
 *
 * The includer defines NK_VEC_T and the NK_VEC_ operation set over
 * uint64x2_t, and NK_X4_PERMUTE, the name of the function defined here:
 *   void NK_X4_PERMUTE(uint64_t s[100])
 * Keccak-f[1600] on the four states of the AArch64 x4 layout
 * (arch/aarch64.h): states 0 and 1 interleaved (lane j of state i at
 * s[2j + i], one q register per lane pair), state 2 at s[50 .. 74], state 3
 * at s[75 .. 99].
 *
 * Why hybrid. A core issues vector and integer instructions to separate
 * pipes. One vector round does the work of two states; a scalar round
 * (which folds rotations into its EOR/BIC operands) does one state. So the
 * loop below runs, per iteration, two vector rounds of the pair and four
 * scalar rounds of one scalar state: states 2 and 3 take the first and the
 * second twelve vector rounds' time. The two instruction streams are
 * independent, so an out-of-order core overlaps them; a core that is
 * vector-bound or scalar-bound still does no more work than running the
 * pair and the two scalar states one after the other.
 * Nothing depends on the states' values (constant time).
 */
#if !defined(NK_VEC_T) || !defined(NK_X4_PERMUTE)
#error "define NK_VEC_T, the NK_VEC_ operations and NK_X4_PERMUTE first"
#endif

void NK_X4_PERMUTE(uint64_t s[100])
{
    NK_DECL(NK_VEC_T, a);
    NK_DECL(NK_VEC_T, e);
#define NK_LOAD_PAIR(v, j) v = vld1q_u64(s + 2 * (j))
    NK_LANES(NK_LOAD_PAIR, a);
#undef NK_LOAD_PAIR

    for (unsigned h = 0; h < 2; h++) {
        uint64_t *q = s + 50 + 25 * h;
        NK_DECL(uint64_t, x);
        NK_DECL(uint64_t, y);
#define NK_LOAD_ONE(v, j) v = q[j]
        NK_LANES(NK_LOAD_ONE, x);
#undef NK_LOAD_ONE
        NKS_ENTER(x);
        /* rv: the vector rounds' constants, rs: the scalar rounds' (two
         * pointers: fewer general registers than indexing by r, which the
         * scalar state needs; 9,495 -> 9,448 and 7,340 -> 7,275
         * instructions per call) */
        const uint64_t *rv = mlkem_keccak_rc + 12 * h;
        for (const uint64_t *rs = mlkem_keccak_rc; rs != mlkem_keccak_rc + 24;
             rs += 4, rv += 2) {
            NK_ROUND(NK_VEC, a, e, rv[0]);
            NKS_ROUND(x, y, rs[0]);
            NKS_ROUND(y, x, rs[1]);
            NK_ROUND(NK_VEC, e, a, rv[1]);
            NKS_ROUND(x, y, rs[2]);
            NKS_ROUND(y, x, rs[3]);
        }
        NKS_LEAVE(x);
#define NK_STORE_ONE(v, j) q[j] = v
        NK_LANES(NK_STORE_ONE, x);
#undef NK_STORE_ONE
    }

#define NK_STORE_PAIR(v, j) vst1q_u64(s + 2 * (j), v)
    NK_LANES(NK_STORE_PAIR, a);
#undef NK_STORE_PAIR
}
