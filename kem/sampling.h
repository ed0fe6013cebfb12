/* SPDX-License-Identifier: Apache-2.0 */
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
 * Both samplers are jobs of the stream scheduler (kem/lanes.h): the *_jobs
 * forms queue them on a caller's schedule, beside other streams of the
 * same operation (H(ek), G, J); the plain forms run them on their own.
 */
#ifndef MLKEM_KEM_SAMPLING_H
#define MLKEM_KEM_SAMPLING_H

#include <stdint.h>

#include "kem/lanes.h"

/*
 * The k x k matrix Â from rho (Algorithm 13 lines 3-7 = Algorithm 14 lines
 * 4-8): Â[i][j] = SampleNTT(rho || j || i). Stored transposed:
 * at[i * k + j] = Â[j][i] = SampleNTT(rho || i || j), so that row i of the
 * storage is row i of Â^T (what K-PKE.Encrypt multiplies by, Algorithm 14
 * line 19). Coefficients in [0, q), in the kernel set's NTT-domain order.
 * rho is public.
 */
void mlkem_sample_ntt_matrix_transposed(int16_t (*at)[256],
                                        const uint8_t rho[32], unsigned k);
/* The same as k^2 jobs (jobs[k * k], alive until e has run) queued on e,
 * entry by entry in storage order. */
void mlkem_sample_ntt_matrix_jobs(mlkem_lanes *e, mlkem_job jobs[],
                                  int16_t (*at)[256], const uint8_t rho[32],
                                  unsigned k);

/*
 * r[i] = SamplePolyCBD_eta[i](PRF_eta[i](seed, nonce0 + i)) for i < n
 * (n <= 2 MLKEM_MAX_K + 1, eta[i] in {2, 3}). Implements Algorithm 13 lines
 * 8-15 and Algorithm 14 lines 9-17. Outputs in [-eta, eta]; seed is secret
 * and every intermediate buffer is wiped.
 */
void mlkem_sample_poly_cbd_prf(int16_t *const r[], const unsigned eta[],
                               unsigned n, const uint8_t seed[32],
                               uint8_t nonce0);
/* The same as n jobs (jobs[n]) queued on e; seed must stay valid until e
 * has run (e wipes its own buffers, the caller the seed). */
void mlkem_sample_poly_cbd_jobs(mlkem_lanes *e, mlkem_job jobs[],
                                int16_t *const r[], const unsigned eta[],
                                unsigned n, const uint8_t seed[32],
                                uint8_t nonce0);

#endif /* MLKEM_KEM_SAMPLING_H */
