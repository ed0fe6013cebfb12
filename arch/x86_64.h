/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86_64.h: the x86-64 backends' kernels (arch/avx2/, arch/avx512/), each
 * compiled with its own ISA flags, and the CPU test that guards them.
 *
 * Nothing here may be called unless mlkem_arch_cpu_features() (arch/
 * dispatch.h) reported the feature:
 * the files are compiled with -mavx2 / -mavx512f -mavx512vl and the
 * compiler may use those instructions anywhere in them.
 */
#ifndef MLKEM_ARCH_X86_64_H
#define MLKEM_ARCH_X86_64_H

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak.h"
#include "keccak/keccak_kernels.h"
#include "kem/poly_kernels.h"

/* Usable features, the bits of mlkem_arch_cpu_features() and of a
 * backend's `needs`: CPUID says the CPU has them and XCR0 (XGETBV) says
 * the OS saves the register state they need. */
#define MLKEM_X86_AVX2 0x1u      /* AVX2 + BMI1 + BMI2 + POPCNT, YMM state */
#define MLKEM_X86_AVX512 0x2u    /* AVX-512 F + VL, ZMM + opmask state */
#define MLKEM_X86_VBMI2 0x4u     /* AVX512 + BW + VBMI + VBMI2 */
#define MLKEM_X86_INTEL 0x8u     /* vendor GenuineIntel (a tuning choice) */

/* The vector registers an inline-assembly kernel of arch/gen_keccak_rounds.py
 * overwrites, as clobbers: ymm0-15 (AVX2), and ymm/zmm16-31 beside them
 * (AVX-512; an xmmN clobber covers the whole register). */
#define MLKEM_X86_CLOBBER_V0_15                                               \
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",   \
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
#define MLKEM_X86_CLOBBER_V16_31                                              \
    "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",   \
        "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31"

/* arch/avx2/ntt_avx2.c: the NTT-domain kernels in the avx2 set order
 * (arch/avx2/poly_avx2.h) and the element-wise reductions. */
void mlkem_ntt_avx2(int16_t r[256]);
void mlkem_ntt_inv_avx2(int16_t r[256]);
void mlkem_ntt_pack_avx2(int16_t r[256]);
void mlkem_mulcache_avx2(int16_t c[128], const int16_t b[256]);
void mlkem_multiply_ntts_acc_avx2(int16_t r[256], const int16_t *a,
                                  const int16_t *b, const int16_t *bc,
                                  unsigned k);
void mlkem_poly_reduce_avx2(int16_t r[256]);
void mlkem_poly_tomont_avx2(int16_t r[256]);
void mlkem_byte_encode_12_avx2(uint8_t out[384], const int16_t a[256]);
uint32_t mlkem_byte_decode_12_avx2(int16_t r[256], const uint8_t in[384]);

/* arch/avx2/compress_avx2.c, arch/avx2/sampling_avx2.c. */
void mlkem_byte_encode_compress_avx2(uint8_t *out, const int16_t a[256],
                                     unsigned d);
void mlkem_decompress_byte_decode_avx2(int16_t r[256], const uint8_t *in,
                                       unsigned d);
void mlkem_sample_poly_cbd_avx2(int16_t r[256], const uint8_t *buf,
                                unsigned eta);
unsigned mlkem_sample_ntt_rej_avx2(int16_t *r, unsigned len,
                                   const uint8_t *buf, size_t buflen);
void mlkem_sample_ntt_x4_avx2(const mlkem_keccak_x4 *st, unsigned lanes,
                              int16_t *const r[4], unsigned ctr[4]);

/* arch/avx2/keccak_f1600_bmi.c: one state, BMI1 andn + BMI2 rorx. */
void mlkem_keccak_f1600_bmi(uint64_t *s); /* 25 lanes */

/* arch/avx2/keccak_x4_avx2.c: four interleaved states per mlkem_keccak_x4; a
 * mlkem_keccak_x8 is two such groups. */
void mlkem_keccak_x4_xor_bytes_avx2(mlkem_keccak_x4 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len);
void mlkem_keccak_x4_extract_bytes_avx2(const mlkem_keccak_x4 *st, unsigned lane,
                                        unsigned offset, uint8_t *out,
                                        size_t len);
void mlkem_keccak_x4_permute_avx2(mlkem_keccak_x4 *st);
void mlkem_keccak_x4_clear_lane_avx2(mlkem_keccak_x4 *st, unsigned lane);
void mlkem_keccak_x8_xor_bytes_avx2(mlkem_keccak_x8 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len);
void mlkem_keccak_x8_extract_bytes_avx2(const mlkem_keccak_x8 *st, unsigned lane,
                                        unsigned offset, uint8_t *out,
                                        size_t len);
void mlkem_keccak_x8_permute_avx2(mlkem_keccak_x8 *st);
void mlkem_keccak_x8_clear_lane_avx2(mlkem_keccak_x8 *st, unsigned lane);

/* arch/avx512/: four interleaved states in 256-bit registers with the
 * AVX-512VL instructions (the avx2 layout and byte functions), eight in
 * 512-bit registers. */
void mlkem_keccak_x4_permute_avx512(mlkem_keccak_x4 *st);
void mlkem_keccak_x8_xor_bytes_avx512(mlkem_keccak_x8 *st, unsigned lane,
                                      unsigned offset, const uint8_t *in,
                                      size_t len);
void mlkem_keccak_x8_extract_bytes_avx512(const mlkem_keccak_x8 *st, unsigned lane,
                                          unsigned offset, uint8_t *out,
                                          size_t len);
void mlkem_keccak_x8_permute_avx512(mlkem_keccak_x8 *st);
void mlkem_keccak_x8_clear_lane_avx512(mlkem_keccak_x8 *st, unsigned lane);

/* arch/avx512/sampling_vbmi2.c: SampleNTT's rejection step with vpermb /
 * vpcompressw, and its fused form on the x4 state. */
unsigned mlkem_sample_ntt_rej_vbmi2(int16_t *r, unsigned len,
                                    const uint8_t *buf, size_t buflen);
void mlkem_sample_ntt_x4_vbmi2(const mlkem_keccak_x4 *st, unsigned lanes,
                               int16_t *const r[4], unsigned ctr[4]);

#endif /* MLKEM_ARCH_X86_64_H */
