/*
 * sampling.h: SampleNTT (the matrix Â), SamplePolyCBD with PRF (secrets and
 * noise), internal to kem/.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 7 (SampleNTT), Algorithm 8
 *             (SamplePolyCBD_eta), §4.1 (PRF_eta(s, b) = SHAKE256(s || b,
 *             8 * 64 * eta), XOF = SHAKE128), Algorithm 13 lines 3-15 and
 *             Algorithm 14 lines 4-17.
 *
 * Both samplers run independent SHAKE streams four at a time through the
 * parallel Keccak interface (keccak_x4_*), and run a leftover group of one to
 * three streams through single-state sponges, so that no unused lane is ever
 * permuted (the portable x4 permutation costs four single ones).
 */
#ifndef MLKEM_KEM_SAMPLING_H
#define MLKEM_KEM_SAMPLING_H

#include <stdint.h>

/*
 * The k x k matrix Â from rho (Algorithm 13 lines 3-7 = Algorithm 14 lines
 * 4-8): Â[i][j] = SampleNTT(rho || j || i). Stored transposed:
 * at[i * k + j] = Â[j][i] = SampleNTT(rho || i || j), so that row i of the
 * storage is row i of Â^T (what K-PKE.Encrypt multiplies by, Algorithm 14
 * line 19). Coefficients in [0, q). rho is public.
 */
void mlkem_gen_matrix_transposed(int16_t (*at)[256], const uint8_t rho[32],
                                 unsigned k);

/*
 * r[i] = SamplePolyCBD_eta[i](PRF_eta[i](seed, nonce0 + i)) for i < n
 * (n <= 2 MLKEM_MAX_K + 1, eta[i] in {2, 3}). Implements Algorithm 13 lines
 * 8-15 and Algorithm 14 lines 9-17. Outputs in [-eta, eta]; seed is secret
 * and every intermediate buffer is wiped.
 */
void mlkem_sample_cbd_many(int16_t *const r[], const unsigned eta[], unsigned n,
                           const uint8_t seed[32], uint8_t nonce0);

/* SamplePolyCBD_eta (Algorithm 8) on 64 * eta bytes, eta in {2, 3}. */
void mlkem_poly_cbd(int16_t r[256], const uint8_t *buf, unsigned eta);

#endif /* MLKEM_KEM_SAMPLING_H */
