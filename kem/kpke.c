/*
 * kpke.c: K-PKE.KeyGen, K-PKE.Encrypt, K-PKE.Decrypt.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §5, Algorithms 13, 14, 15; §3.3 (intermediate
 *             values are destroyed when no longer needed).
 *
 * Arithmetic domains: MultiplyNTTs leaves a factor 2^-16, which NTT^-1 (in
 * Encrypt and Decrypt) or tomont (in KeyGen) cancels, so every value below
 * is the spec's value mod q. Secret intermediates (sigma, s, e, y, e1, e2,
 * w) are wiped before return.
 */
#include "kem/kpke.h"

#include <string.h>

#include "common/ct.h"
#include "keccak/keccak.h"
#include "kem/poly.h"
#include "kem/sampling.h"

/*
 * Implements FIPS 203, Algorithm 13 (K-PKE.KeyGen), lines 1-20.
 * Deviations: Â is stored transposed (at_hat, see kem/kpke.h) and kept for
 * later encryptions; line 18 takes row i of Â from column i of at_hat; the
 * outputs are the expanded t_hat, s_hat (in [0, q)) plus ek_pke; dk_pke =
 * ByteEncode_12(s_hat) (line 20) is left to the caller, who encodes it only
 * when asked. Lines 3-15 (the k^2 SampleNTT streams and the 2k PRF streams,
 * all independent once G has run) are one schedule of kem/lanes.h, so the
 * streams that do not fill a parallel call alone (the ninth matrix entry
 * for k = 3) run beside the PRF.
 */
void mlkem_kpke_keygen(const mlkem_params *p, uint8_t *ek_pke,
                       int16_t (*t_hat)[256], int16_t (*s_hat)[256],
                       int16_t (*at_hat)[256], uint8_t rho[32],
                       const uint8_t d[32])
{
    const unsigned k = p->k;
    uint8_t kb = (uint8_t)k;
    uint8_t g[64]; /* rho || sigma */
    int16_t e[MLKEM_MAX_K][256];
    int16_t row[MLKEM_MAX_K][256];
    int16_t s_cache[MLKEM_MAX_K][128];
    int16_t *r[2 * MLKEM_MAX_K];
    unsigned eta[2 * MLKEM_MAX_K];
    mlkem_lanes lanes;
    mlkem_job jobs[MLKEM_MAX_K * MLKEM_MAX_K + 2 * MLKEM_MAX_K];

    /* Line 1: (rho, sigma) = G(d || k), k as one byte (FIPS 203 final). */
    mlkem_lanes_init(&lanes, 0);
    mlkem_job_sha3_512(&jobs[0], g, d, 32, &kb, 1);
    mlkem_lanes_push(&lanes, &jobs[0]);
    mlkem_lanes_run(&lanes);
    memcpy(rho, g, 32);
    MLKEM_CT_DECLASSIFY(rho, 32); /* public: part of ek */

    /* Lines 3-7: Â from rho (transposed storage); lines 2, 8-15: s[i] with
     * N = i, e[i] with N = k + i. */
    mlkem_lanes_init(&lanes, 1);
    mlkem_sample_ntt_matrix_jobs(&lanes, jobs, at_hat, rho, k);
    for (unsigned i = 0; i < k; i++) {
        r[i] = s_hat[i];
        r[k + i] = e[i];
        eta[i] = eta[k + i] = p->eta1;
    }
    mlkem_sample_poly_cbd_jobs(&lanes, jobs + k * k, r, eta, 2 * k, g + 32, 0);
    mlkem_lanes_run(&lanes);

    /* Lines 16-17. */
    mlkem_polyvec_ntt(s_hat, k);
    mlkem_polyvec_ntt(e, k);

    /* Line 18: t_hat[i] = sum_j Â[i][j] o s_hat[j] + e_hat[i], with
     * Â[i][j] = at_hat[j * k + i]; s_hat's multiplication cache serves all
     * k rows. */
    mlkem_polyvec_mulcache(s_cache, (const int16_t(*)[256])s_hat, k);
    for (unsigned i = 0; i < k; i++) {
        for (unsigned j = 0; j < k; j++)
            memcpy(row[j], at_hat[j * k + i], sizeof(row[j]));
        mlkem_polyvec_multiply_ntts_acc(t_hat[i], (const int16_t(*)[256])row,
                                        (const int16_t(*)[256])s_hat,
                                        (const int16_t(*)[128])s_cache, k);
        mlkem_poly_tomont(t_hat[i]);
        mlkem_poly_add(t_hat[i], t_hat[i], e[i]);
        mlkem_poly_normalize(t_hat[i]);
    }
    for (unsigned i = 0; i < k; i++)
        mlkem_poly_normalize(s_hat[i]);

    /* Line 19: ek_pke = ByteEncode_12(t_hat) || rho. */
    for (unsigned i = 0; i < k; i++)
        mlkem_byte_encode_12(ek_pke + 384 * i, t_hat[i]);
    memcpy(ek_pke + 384 * k, rho, 32);

    mlkem_cleanse(g, sizeof(g));
    mlkem_cleanse(e, sizeof(e));
    mlkem_cleanse(s_cache, sizeof(s_cache));
}

/* Implements FIPS 203, Algorithm 14 (K-PKE.Encrypt), lines 9-17: y[i]
 * (N = i, eta1), e1[i] (N = k + i, eta2), e2 (N = 2k, eta2). */
void mlkem_kpke_noise_jobs(const mlkem_params *p, mlkem_lanes *e,
                           mlkem_job jobs[], mlkem_kpke_noise *n,
                           const uint8_t r[32])
{
    const unsigned k = p->k;
    int16_t *rp[2 * MLKEM_MAX_K + 1];
    unsigned eta[2 * MLKEM_MAX_K + 1];

    for (unsigned i = 0; i < k; i++) {
        rp[i] = n->y[i];
        eta[i] = p->eta1;
        rp[k + i] = n->e1[i];
        eta[k + i] = p->eta2;
    }
    rp[2 * k] = n->e2;
    eta[2 * k] = p->eta2;
    mlkem_sample_poly_cbd_jobs(e, jobs, rp, eta, 2 * k + 1, r, 0);
}

/*
 * Implements FIPS 203, Algorithm 14 (K-PKE.Encrypt), lines 18-24, with the
 * noise of lines 9-17 sampled by the caller (mlkem_kpke_noise_jobs, so
 * that its streams can share parallel calls with G and J).
 * Deviations: lines 1-8 (decode t_hat, check it, expand Â) were done when
 * the key was parsed (Â held transposed, so line 19's Â^T o y_hat is a
 * row-by-row MultiplyNTTs sum).
 */
void mlkem_kpke_encrypt(const mlkem_params *p, uint8_t *c,
                        const int16_t (*t_hat)[256],
                        const int16_t (*at_hat)[256], const uint8_t m[32],
                        mlkem_kpke_noise *n)
{
    const unsigned k = p->k;
    int16_t y_cache[MLKEM_MAX_K][128];
    int16_t mu[256], u[256], v[256];

    /* Line 18, and y_hat's multiplication cache for its k + 1 uses. */
    mlkem_polyvec_ntt(n->y, k);
    mlkem_polyvec_mulcache(y_cache, (const int16_t(*)[256])n->y, k);

    /* Lines 19 and 22: u[i] = NTT^-1(sum_j Â^T[i][j] o y_hat[j]) + e1[i],
     * c1 = ByteEncode_du(Compress_du(u)), one polynomial at a time. */
    for (unsigned i = 0; i < k; i++) {
        mlkem_polyvec_multiply_ntts_acc(u, at_hat + i * k,
                                        (const int16_t(*)[256])n->y,
                                        (const int16_t(*)[128])y_cache, k);
        mlkem_poly_ntt_inv_tomont(u);
        mlkem_poly_add(u, u, n->e1[i]);
        mlkem_poly_reduce(u);
        mlkem_byte_encode_compress(c + 32 * p->du * i, u, p->du);
    }

    /* Lines 20-21, 23: v = NTT^-1(t_hat^T o y_hat) + e2 + mu. */
    mlkem_polyvec_multiply_ntts_acc(v, t_hat, (const int16_t(*)[256])n->y,
                                    (const int16_t(*)[128])y_cache, k);
    mlkem_poly_ntt_inv_tomont(v);
    mlkem_decompress_byte_decode(mu, m, 1);
    mlkem_poly_add(v, v, n->e2);
    mlkem_poly_add(v, v, mu);
    mlkem_poly_reduce(v);
    mlkem_byte_encode_compress(c + 32 * p->du * k, v, p->dv);

    mlkem_cleanse(n, sizeof(*n));
    mlkem_cleanse(y_cache, sizeof(y_cache));
    mlkem_cleanse(mu, sizeof(mu));
    mlkem_cleanse(u, sizeof(u));
    mlkem_cleanse(v, sizeof(v));
}

/*
 * Implements FIPS 203, Algorithm 15 (K-PKE.Decrypt), lines 1-8.
 * Deviation: line 5 (s_hat = ByteDecode_12(dk_pke)) was done when the key
 * was parsed or generated.
 */
void mlkem_kpke_decrypt(const mlkem_params *p, uint8_t m[32],
                        const int16_t (*s_hat)[256], const uint8_t *c)
{
    const unsigned k = p->k;
    int16_t u[MLKEM_MAX_K][256];
    int16_t u_cache[MLKEM_MAX_K][128];
    int16_t w[256], v[256];

    /* Lines 1-4: c1, c2, u' and v'. */
    for (unsigned i = 0; i < k; i++)
        mlkem_decompress_byte_decode(u[i], c + 32 * p->du * i, p->du);
    mlkem_decompress_byte_decode(v, c + 32 * p->du * k, p->dv);

    /* Line 6: w = v' - NTT^-1(s_hat^T o NTT(u')). */
    mlkem_polyvec_ntt(u, k);
    mlkem_polyvec_mulcache(u_cache, (const int16_t(*)[256])u, k);
    mlkem_polyvec_multiply_ntts_acc(w, s_hat, (const int16_t(*)[256])u,
                                    (const int16_t(*)[128])u_cache, k);
    mlkem_poly_ntt_inv_tomont(w);
    mlkem_poly_sub(w, v, w);
    mlkem_poly_reduce(w);

    /* Line 7: m = ByteEncode_1(Compress_1(w)). */
    mlkem_byte_encode_compress(m, w, 1);

    mlkem_cleanse(u, sizeof(u));
    mlkem_cleanse(u_cache, sizeof(u_cache));
    mlkem_cleanse(w, sizeof(w));
    mlkem_cleanse(v, sizeof(v));
}
