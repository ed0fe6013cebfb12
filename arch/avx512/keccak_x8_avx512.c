/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_x8_avx512.c: the avx512 backend's eight-state Keccak: one lane of
 * each of eight states per 512-bit register (arch/keccak_simd.h with
 * KS_N = 8), vprolq for the rotations and vpternlogq for theta's parities
 * and chi (see keccak_x4_avx512vl.c). Compiled with -mavx512f; reached only
 * when arch/dispatch.c has seen AVX-512F and the ZMM state enabled.
 */
#include <immintrin.h>

#include "arch/x86_64.h"

#define KS_N 8
#define KS_V __m512i
#define KS_LOAD(p) _mm512_load_si512((const void *)(p))
#define KS_STORE(p, v) _mm512_store_si512((void *)(p), (v))
#define KS_XOR(a, b) _mm512_xor_si512((a), (b))
#define KS_XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define KS_XOR5(a, b, c, d, e) KS_XOR3(KS_XOR3(a, b, c), d, e)
#define KS_ROL(a, n) _mm512_rol_epi64((a), (n))
#define KS_CHI(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xd2)
#define KS_IOTA(a, rc) _mm512_xor_si512((a), _mm512_set1_epi64((long long)(rc)))
#define KS_FN(name) mlkem_keccak_x8_##name##_avx512_lanes
#define KS_STATE mlkem_keccak_x8
#define KS_API(name) mlkem_keccak_x8_##name##_avx512

#include "arch/keccak_simd.h"
