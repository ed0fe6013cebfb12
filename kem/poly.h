/* SPDX-License-Identifier: Apache-2.0 */
/*
 * poly.h: polynomials in R_q / T_q and vectors of them, their byte
 * encodings and compression (internal to kem/).
 *
 * References
 *   [FIPS203] NIST FIPS 203: §4.2.1 (Compress_d, Decompress_d, eq. 4.7-4.8),
 *             Algorithm 5 (ByteEncode_d), Algorithm 6 (ByteDecode_d), §4.3
 *             (NTT, Algorithms 9-12), §7.2 (modulus check).
 *
 * Representation. A polynomial is int16_t[256]; a vector of k polynomials is
 * int16_t[k][256] (k <= MLKEM_MAX_K). Coefficients are congruent mod q to the
 * spec's values and bounded as stated per function ("|a| < q" means
 * -q < a < q). Values from ByteDecode_12 and the matrix sampler are in
 * [0, q). NTT-domain polynomials (T_q) are in the installed kernel set's
 * order (kem/poly_kernels.h); the byte encodings convert.
 *
 * The functions named after an operation below reach the installed kernel
 * set (kem/poly_kernels.h, which gives each contract) once per polynomial;
 * the element-wise helpers are plain C here.
 */
#ifndef MLKEM_KEM_POLY_H
#define MLKEM_KEM_POLY_H

#include <stddef.h>
#include <stdint.h>

#include "kem/mlkem.h"
#include "kem/poly_kernels.h"

/* The twiddles (kem/ntt.c), all expanded from the one table kem/zetas.h
 * (test/kem/test_ntt.c checks each layout against mlkem_zetas):
 *   mlkem_zetas[i]            zeta^BitRev7(i) * 2^16 mod q, centred, zeta =
 *                             17: FIPS 203 Appendix A in Montgomery form;
 *   *_qinv                    each entry times q^-1 mod 2^16 (signed), what
 *                             mlkem_fqmul_pre needs with it;
 *   mlkem_zetas_rev[i]        mlkem_zetas[127 - i] (NTT^-1 walks the zetas
 *                             downwards; ascending reads vectorize);
 *   mlkem_zetas_lane8[8s + l] mlkem_zetas[16 + s] (NTT, len = 8, block s);
 *   mlkem_zetas_inv_lane8[8s + l] mlkem_zetas[31 - s] (NTT^-1, len = 8);
 *   mlkem_gammas[p]           zeta^(2 BitRev7(p) + 1) * 2^16, centred, the
 *                             gamma of Algorithm 11: +mlkem_zetas[64 + p/2]
 *                             for even p, - for odd p. */
extern const int16_t mlkem_zetas[128];
extern const int16_t mlkem_zetas_qinv[128];
extern const int16_t mlkem_zetas_rev[128];
extern const int16_t mlkem_zetas_rev_qinv[128];
extern const int16_t mlkem_zetas_lane8[128];
extern const int16_t mlkem_zetas_lane8_qinv[128];
extern const int16_t mlkem_zetas_inv_lane8[128];
extern const int16_t mlkem_zetas_inv_lane8_qinv[128];
extern const int16_t mlkem_gammas[128];
extern const int16_t mlkem_gammas_qinv[128];

/* ---- Element-wise (kem/poly.c) -------------------------------------------- */

/* r = a + b, r = a - b (no reduction: the caller keeps |a| + |b| < 2^15). */
void mlkem_poly_add(int16_t r[256], const int16_t a[256], const int16_t b[256]);
void mlkem_poly_sub(int16_t r[256], const int16_t a[256], const int16_t b[256]);
/* Barrett-reduce then map to [0, q) (the canonical representative). */
void mlkem_poly_normalize(int16_t r[256]);

/* ---- Through the kernel set (kem/poly.c) ---------------------------------- */

/* Reduce every coefficient: any int16_t in, congruent out with |r_i| < q. */
void mlkem_poly_reduce(int16_t r[256]);
/* r = r * 2^16 mod q (|r| < q out), undoing multiply_ntts_acc's 2^-16. */
void mlkem_poly_tomont(int16_t r[256]);
/* NTT (Algorithm 9) then reduce: |r_i| < q in and out. */
void mlkem_poly_ntt(int16_t r[256]);
void mlkem_polyvec_ntt(int16_t (*v)[256], unsigned k);
/* NTT without the reduction: |r_i| < q in, |r_i| < 8q out (for a term
 * that is only added to a reduced one and reduced with it). */
void mlkem_polyvec_ntt_lazy(int16_t (*v)[256], unsigned k);
/* NTT^-1 (Algorithm 10) times 2^16: any int16_t in, |r_i| < q out. */
void mlkem_poly_ntt_inv_tomont(int16_t r[256]);
/* The multiplication caches of k polynomials (|b_i| < q). */
void mlkem_polyvec_mulcache(int16_t (*c)[128], const int16_t (*b)[256],
                            unsigned k);
/* r = sum_{i<k} a[i] o b[i] * 2^-16 (MultiplyNTTs, Algorithms 11-12),
 * bc = the caches of b. |a| <= q, |b| < q in; |r_i| < q out. */
void mlkem_polyvec_multiply_ntts_acc(int16_t r[256], const int16_t (*a)[256],
                                     const int16_t (*b)[256],
                                     const int16_t (*bc)[128], unsigned k);

/* ByteEncode_12 (Algorithm 5): |a_i| < q in (NTT domain), 384 bytes out. */
void mlkem_byte_encode_12(uint8_t out[384], const int16_t a[256]);
/* ByteDecode_12 (Algorithm 6) without line 3's "mod q": raw 12-bit values,
 * and 0xffffffff if every value is < q, else 0 (the §7.2 modulus check:
 * ByteEncode_12(ByteDecode_12(x)) = x exactly when all values are < q).
 * Computed without branches, so usable on secret input (dk's s); the caller
 * decides whether to branch on the verdict (see each call site). */
uint32_t mlkem_byte_decode_12(int16_t r[256], const uint8_t in[384]);
/* ByteEncode_d(Compress_d(a)), d in {1, 4, 5, 10, 11}: 32 d bytes; input
 * |a_i| < q. d = 1 is the message encoding of Algorithm 15 line 7. */
void mlkem_byte_encode_compress(uint8_t *out, const int16_t a[256],
                                unsigned d);
/* Decompress_d(ByteDecode_d(in)), d in {1, 4, 5, 10, 11}: values in [0, q).
 * d = 1 is Algorithm 14 line 20 (mu from m). */
void mlkem_decompress_byte_decode(int16_t r[256], const uint8_t *in,
                                  unsigned d);

/* ---- Scalar forms (kem/compress.c, for tests and the portable kernels) ---- */

/* A_d of the fixed-point Compress_d (kem/compress.c). */
extern const uint32_t mlkem_compress_a[12];
/* Compress_d (eq. 4.7) of x in [0, q), d in {1, 4, 5, 10, 11}. */
uint16_t mlkem_compress_d(uint16_t x, unsigned d);
/* Decompress_d (eq. 4.8) of y in [0, 2^d), d in {1, 4, 5, 10, 11}. */
uint16_t mlkem_decompress_d(uint16_t y, unsigned d);

#endif /* MLKEM_KEM_POLY_H */
