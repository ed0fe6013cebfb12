/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x4_avx512vl.c: the avx512 backend's four-state Keccak: the layout
 * of the avx2 backend (arch/keccak_simd.h, 256-bit vectors), with the
 * AVX-512VL forms of the operations: vprolq rotates a 64-bit lane in one
 * instruction and vpternlogq does a three-input XOR (theta's parities) or
 * chi's b0 ^ (~b1 & b2) in one (truth tables 0x96 and 0xd2 over the inputs
 * 0xf0, 0xcc, 0xaa). Compiled with -mavx512f -mavx512vl; reached only when
 * arch/dispatch.c has seen AVX-512F and VL and the ZMM/opmask state enabled
 * in XCR0. The layout is the avx2 backend's, and so are the byte
 * functions (arch/avx2/keccak_x4_avx2.c).
 */
#include <immintrin.h>

#include "arch/x86_64.h"

#define KS_N 4
#define KS_V __m256i
#define KS_LOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define KS_STORE(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define KS_XOR(a, b) _mm256_xor_si256((a), (b))
#define KS_XOR3(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x96)
#define KS_XOR5(a, b, c, d, e) KS_XOR3(KS_XOR3(a, b, c), d, e)
#define KS_ROL(a, n) _mm256_rol_epi64((a), (n))
#define KS_CHI(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0xd2)
#define KS_IOTA(a, rc) _mm256_xor_si256((a), _mm256_set1_epi64x((long long)(rc)))
#define KS_PERMUTE_ONLY
#define KS_FN(name) mlkem_keccak_x4_##name##_avx512vl_lanes
#define KS_STATE mlkem_keccak_x4
#define KS_API(name) mlkem_keccak_x4_##name##_avx512

#include "arch/keccak_simd.h"
