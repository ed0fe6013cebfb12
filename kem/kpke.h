/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kpke.h: K-PKE, the CPA-secure encryption scheme under ML-KEM (internal).
 *
 * References
 *   [FIPS203] NIST FIPS 203, §5: Algorithm 13 (K-PKE.KeyGen), Algorithm 14
 *             (K-PKE.Encrypt), Algorithm 15 (K-PKE.Decrypt).
 *
 * The functions work on expanded keys (kem/poly.h representation):
 *   t_hat[k]   NTT-domain t, coefficients in (-q, q): [0, q) when decoded
 *              from ek, the set's Barrett reduction when made by keygen;
 *   s_hat[k]   NTT-domain s, the same (decoded from dk, or NTT(s) reduced);
 *   at_hat[k*k] the matrix Â stored transposed, at_hat[i*k + j] = Â[j][i]
 *              (kem/sampling.h), coefficients in [0, q).
 * Decoding ek (Algorithm 14 lines 2-3, with the §7.2 check) and expanding Â
 * (lines 4-8) happen once when a key is parsed (kem/mlkem.c), not per call.
 */
#ifndef MLKEM_KEM_KPKE_H
#define MLKEM_KEM_KPKE_H

#include <stdint.h>

#include "kem/lanes.h"
#include "kem/mlkem.h"

/* Algorithm 13 in full: from d, fills t_hat, s_hat, at_hat, rho and
 * ek_pke = ByteEncode_12(t_hat) || rho (p->ek_bytes), and h =
 * H(ek_pke) (SHA3-256, what ML-KEM.KeyGen_internal caches). */
void mlkem_kpke_keygen(const mlkem_params *p, uint8_t *ek_pke, uint8_t h[32],
                       int16_t (*t_hat)[256], int16_t (*s_hat)[256],
                       int16_t (*at_hat)[256], uint8_t rho[32],
                       const uint8_t d[32]);

/* The noise of one encryption (Algorithm 14 lines 9-17): y, e1, e2, and
 * the PRF streams that sample them. */
typedef struct {
    int16_t y[MLKEM_MAX_K][256];
    int16_t e1[MLKEM_MAX_K][256];
    int16_t e2[256];
    mlkem_job y_job[MLKEM_MAX_K], e1_job[MLKEM_MAX_K], e2_job;
} mlkem_kpke_noise;

/* Algorithm 14 lines 9-17: queues the 2k + 1 PRF streams from the
 * randomness r on e; n holds the noise once e has run (r must stay valid
 * until then). */
void mlkem_kpke_sample_noise(const mlkem_params *p, mlkem_lanes *e,
                             mlkem_kpke_noise *n, const uint8_t r[32]);

/* Algorithm 14 lines 18-24: c (p->ct_bytes) from m and the sampled noise
 * (which it wipes). */
void mlkem_kpke_encrypt(const mlkem_params *p, uint8_t *c,
                        const int16_t (*t_hat)[256],
                        const int16_t (*at_hat)[256], const uint8_t m[32],
                        mlkem_kpke_noise *n);

/* Algorithm 15 lines 1-8 with s_hat already decoded (line 5). */
void mlkem_kpke_decrypt(const mlkem_params *p, uint8_t m[32],
                        const int16_t (*s_hat)[256], const uint8_t *c);

#endif /* MLKEM_KEM_KPKE_H */
