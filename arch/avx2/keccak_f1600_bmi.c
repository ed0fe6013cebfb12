/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_f1600_bmi.c: the vector backends' single-state Keccak-f[1600]:
 * arch/keccak_simd.h with one state per "vector" (KS_N = 1, a uint64_t),
 * compiled with -mbmi -mbmi2 so that chi's ~b & c is one andn and a
 * rotation one rorx (three-operand: no register copies). With andn the
 * plain round needs no lane complementing (keccak/keccak_p1600.c uses it
 * because baseline x86-64 has no and-not). Every CPU with AVX2 that
 * arch/dispatch.c accepts also has BMI1 and BMI2 (it checks both).
 */
#include <stdint.h>

#include "arch/x86_64.h"

#define KS_N 1
#define KS_V uint64_t
#define KS_LOAD(p) (*(p))
#define KS_STORE(p, v) (*(p) = (v))
#define KS_XOR(a, b) ((a) ^ (b))
#define KS_XOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
#define KS_ROL(a, n) (((a) << (n)) | ((a) >> (64 - (n))))
#define KS_CHI(a, b, c) ((a) ^ (~(b) & (c)))
#define KS_IOTA(a, rc) ((a) ^ (rc))
#define KS_PERMUTE_ONLY
/* The only function: KS_FN(permute), on a plain 25-lane state. */
#define KS_FN(name) mlkem_keccak_f1600_bmi

#include "arch/keccak_simd.h"
