/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aarch64.h: the AArch64 backends' kernels (arch/neon/) and the CPU test
 * that guards them.
 *
 * Two backends share this code:
 *   neon       Advanced SIMD (ASIMD), which every little-endian AArch64
 *              Linux system has: the polynomial slots, and the Keccak x4 /
 *              x8 slots as a NEON 2-way permutation run beside two scalar
 *              states (the hybrid scheme of [HYBRID]);
 *   neon-sha3  the same, with the Armv8.2 SHA3 instructions (EOR3, RAX1,
 *              XAR, BCAX) in the vector part of the hybrid and in a
 *              single-state permutation; only when getauxval(AT_HWCAP)
 *              reports HWCAP_SHA3 (the files are compiled with the sha3
 *              target flag, so the compiler may use those instructions
 *              anywhere in them).
 * Big-endian AArch64 and 32-bit Arm build none of this and run the portable
 * kernel (arch/CMakeLists.txt).
 *
 * References
 *   [HYBRID] H. Becker, M. J. Kannwischer, "Hybrid scalar/vector
 *            implementations of Keccak and SPHINCS+ on AArch64", ePrint
 *            2022/1243.
 */
#ifndef MLKEM_ARCH_AARCH64_H
#define MLKEM_ARCH_AARCH64_H

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak.h"
#include "keccak/keccak_kernels.h"
#include "kem/poly_kernels.h"

/* Usable features, from the kernel's hardware capabilities: the bits of
 * mlkem_arch_cpu_features() (arch/dispatch.h) and of a backend's `needs`. */
#define MLKEM_AARCH64_NEON 0x1u /* HWCAP_ASIMD */
#define MLKEM_AARCH64_SHA3 0x2u /* HWCAP_SHA3 (with ASIMD) */
/* MIDR_EL1 names a core that issues the SHA3 instructions on every vector
 * pipe (arch/dispatch.c's table; read when HWCAP_CPUID is reported) */
#define MLKEM_AARCH64_FAST_SHA3 0x4u

/* arch/neon/poly_neon.c: NTT, NTT^-1 (spec order), the multiplication
 * cache and MultiplyNTTs, Barrett and Montgomery-domain reductions. */
void mlkem_ntt_neon(int16_t r[256]);
void mlkem_ntt_inv_neon(int16_t r[256]);
void mlkem_mulcache_neon(int16_t c[128], const int16_t b[256]);
void mlkem_multiply_ntts_acc_neon(int16_t r[256], const int16_t *a,
                                  const int16_t *b, const int16_t *bc,
                                  unsigned k);
void mlkem_poly_reduce_neon(int16_t r[256]);
void mlkem_poly_tomont_neon(int16_t r[256]);

/* arch/neon/codec_neon.c: ByteEncode_12 / ByteDecode_12, the compressed
 * encodings, SamplePolyCBD and the rejection loop of SampleNTT. */
void mlkem_byte_encode_12_neon(uint8_t out[384], const int16_t a[256]);
uint32_t mlkem_byte_decode_12_neon(int16_t r[256], const uint8_t in[384]);
void mlkem_byte_encode_compress_neon(uint8_t *out, const int16_t a[256],
                                     unsigned d);
void mlkem_decompress_byte_decode_neon(int16_t r[256], const uint8_t *in,
                                       unsigned d);
void mlkem_sample_poly_cbd_neon(int16_t r[256], const uint8_t *buf,
                                unsigned eta);
unsigned mlkem_sample_ntt_rej_neon(int16_t *r, unsigned len,
                                   const uint8_t *buf, size_t buflen);
/* arch/neon/sampling_neon.c: SampleNTT's block straight from an x4 state,
 * in the hybrid layout (neon, neon-sha3) and the pair layout
 * (neon-sha3x2). */
void mlkem_sample_ntt_x4_neon(const mlkem_keccak_x4 *st, unsigned lanes,
                              int16_t *const r[4], unsigned ctr[4]);
void mlkem_sample_ntt_x4_sha3x2(const mlkem_keccak_x4 *st, unsigned lanes,
                                int16_t *const r[4], unsigned ctr[4]);

/* arch/neon/keccak_x4_neon.c: the x4 layout of both backends (states 0
 * and 1 interleaved lane by lane, states 2 and 3 as plain 25-lane states;
 * an x8 is two such groups), its byte functions, and the hybrid
 * permutation with plain NEON for the interleaved pair. */
void mlkem_keccak_x4_xor_bytes_neon(mlkem_keccak_x4 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len);
void mlkem_keccak_x4_extract_bytes_neon(const mlkem_keccak_x4 *st,
                                        unsigned lane, unsigned offset,
                                        uint8_t *out, size_t len);
void mlkem_keccak_x4_permute_neon(mlkem_keccak_x4 *st);
void mlkem_keccak_x8_xor_bytes_neon(mlkem_keccak_x8 *st, unsigned lane,
                                    unsigned offset, const uint8_t *in,
                                    size_t len);
void mlkem_keccak_x8_extract_bytes_neon(const mlkem_keccak_x8 *st,
                                        unsigned lane, unsigned offset,
                                        uint8_t *out, size_t len);
void mlkem_keccak_x4_clear_lane_neon(mlkem_keccak_x4 *st, unsigned lane);
void mlkem_keccak_x8_clear_lane_neon(mlkem_keccak_x8 *st, unsigned lane);
void mlkem_keccak_x8_permute_neon(mlkem_keccak_x8 *st);
/* The single state in general-purpose registers (the neon backend's f1600). */
void mlkem_keccak_f1600_scalar(uint64_t s[25]);

/* arch/neon/keccak_sha3.c (sha3 target flag): the single-state
 * permutation, and the hybrid permutation of the same x4 / x8 layout with
 * the SHA3 instructions for the interleaved pair. */
void mlkem_keccak_f1600_sha3(uint64_t s[25]);
void mlkem_keccak_x4_permute_sha3(mlkem_keccak_x4 *st);
void mlkem_keccak_x8_permute_sha3(mlkem_keccak_x8 *st);
/* arch/neon/keccak_sha3x2.c (sha3 target flag): the neon-sha3x2 backend's
 * x4 / x8 layout (states interleaved in pairs, every pair in q registers)
 * and its permutation, two states at a time in SHA3 instructions. */
void mlkem_keccak_x4_xor_bytes_sha3x2(mlkem_keccak_x4 *st, unsigned lane,
                                      unsigned offset, const uint8_t *in,
                                      size_t len);
void mlkem_keccak_x4_extract_bytes_sha3x2(const mlkem_keccak_x4 *st,
                                          unsigned lane, unsigned offset,
                                          uint8_t *out, size_t len);
void mlkem_keccak_x4_clear_lane_sha3x2(mlkem_keccak_x4 *st, unsigned lane);
void mlkem_keccak_x4_permute_sha3x2(mlkem_keccak_x4 *st);
void mlkem_keccak_x4_permute_lanes_sha3x2(mlkem_keccak_x4 *st, unsigned lanes);
void mlkem_keccak_x8_xor_bytes_sha3x2(mlkem_keccak_x8 *st, unsigned lane,
                                      unsigned offset, const uint8_t *in,
                                      size_t len);
void mlkem_keccak_x8_extract_bytes_sha3x2(const mlkem_keccak_x8 *st,
                                          unsigned lane, unsigned offset,
                                          uint8_t *out, size_t len);
void mlkem_keccak_x8_clear_lane_sha3x2(mlkem_keccak_x8 *st, unsigned lane);
void mlkem_keccak_x8_permute_sha3x2(mlkem_keccak_x8 *st);

#endif /* MLKEM_ARCH_AARCH64_H */
