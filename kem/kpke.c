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

/* t_hat[i] = sum_j Â[i][j] o s_hat[j] + e_hat[i] (Algorithm 13 line 18),
 * normalized, and its 384 bytes of ek_pke (line 19). Â[i][j] =
 * at_hat[j * k + i] (transposed storage); s_hat's cache serves every row. */
static void keygen_row(unsigned k, unsigned i, uint8_t *ek_pke,
                       int16_t (*t_hat)[256], const int16_t (*s_hat)[256],
                       const int16_t (*s_cache)[128],
                       const int16_t (*at_hat)[256], const int16_t e_hat[256])
{
    int16_t row[MLKEM_MAX_K][256];

    for (unsigned j = 0; j < k; j++)
        memcpy(row[j], at_hat[j * k + i], sizeof(row[j]));
    mlkem_polyvec_multiply_ntts_acc(t_hat[i], (const int16_t(*)[256])row,
                                    s_hat, s_cache, k);
    mlkem_poly_tomont(t_hat[i]);
    mlkem_poly_add(t_hat[i], t_hat[i], e_hat);
    mlkem_poly_normalize(t_hat[i]);
    mlkem_byte_encode_12(ek_pke + 384 * i, t_hat[i]);
}

/*
 * Implements FIPS 203, Algorithm 13 (K-PKE.KeyGen), lines 1-20, and also
 * returns H(ek_pke) (ML-KEM's H(ek), Algorithm 16 line 3), computed as
 * ek_pke is produced.
 * Deviations: Â is stored transposed (at_hat, see kem/kpke.h) and kept for
 * later encryptions; line 18 takes row i of Â from column i of at_hat; the
 * outputs are the expanded t_hat, s_hat (in [0, q)) plus ek_pke; dk_pke =
 * ByteEncode_12(s_hat) (line 20) is left to the caller, who encodes it only
 * when asked.
 * Order of work (kem/lanes.h schedules): G; the PRF streams of lines 8-15
 * with the SampleNTT streams of row 0 of Â; then for each further row i,
 * its SampleNTT streams beside the whole SHA3-256 blocks of ek_pke that
 * rows 0 .. i - 1 have produced; the last blocks of H(ek_pke) after row
 * k - 1. So H's serial chain of blocks mostly shares parallel calls with
 * the matrix instead of running after it.
 */
void mlkem_kpke_keygen(const mlkem_params *p, uint8_t *ek_pke, uint8_t h[32],
                       int16_t (*t_hat)[256], int16_t (*s_hat)[256],
                       int16_t (*at_hat)[256], uint8_t rho[32],
                       const uint8_t d[32])
{
    const unsigned k = p->k;
    uint8_t kb = (uint8_t)k;
    uint8_t g[64]; /* rho || sigma */
    int16_t e[MLKEM_MAX_K][256];
    int16_t s_cache[MLKEM_MAX_K][128];
    int16_t *r[2 * MLKEM_MAX_K];
    unsigned eta[2 * MLKEM_MAX_K];
    mlkem_keccak_ctx hctx[2];
    size_t hashed = 0; /* bytes of ek_pke in hctx */
    mlkem_lanes lanes;
    mlkem_job jobs[1 + MLKEM_MAX_K + 2 * MLKEM_MAX_K];

    /* Line 1: (rho, sigma) = G(d || k), k as one byte (FIPS 203 final). */
    mlkem_lanes_init(&lanes, 0);
    mlkem_job_sha3_512(&jobs[0], g, d, 32, &kb, 1);
    mlkem_lanes_push(&lanes, &jobs[0]);
    mlkem_lanes_run(&lanes);
    memcpy(rho, g, 32);
    MLKEM_CT_DECLASSIFY(rho, 32); /* public: part of ek */

    /* Lines 2, 8-15: s[i] with N = i, e[i] with N = k + i; lines 3-7 for
     * row 0 of Â (entries Â[0][j] = SampleNTT(rho || j || 0)). */
    mlkem_lanes_init(&lanes, 0);
    for (unsigned i = 0; i < k; i++) {
        r[i] = s_hat[i];
        r[k + i] = e[i];
        eta[i] = eta[k + i] = p->eta1;
    }
    mlkem_sample_poly_cbd_jobs(&lanes, jobs + k, r, eta, 2 * k, g + 32, 0);
    for (unsigned j = 0; j < k; j++) {
        mlkem_job_sample_ntt(&jobs[j], at_hat[j * k], rho, (uint8_t)j, 0);
        mlkem_lanes_push(&lanes, &jobs[j]);
    }
    mlkem_lanes_run(&lanes);

    /* Lines 16-17, and s_hat's multiplication cache for the k rows. */
    mlkem_polyvec_ntt(s_hat, k);
    mlkem_polyvec_ntt(e, k);
    mlkem_polyvec_mulcache(s_cache, (const int16_t(*)[256])s_hat, k);

    /* Lines 18-19 row by row; row i + 1 of Â is sampled beside the hash of
     * what rows 0 .. i encoded. */
    mlkem_sha3_256_init(&hctx[0]);
    for (unsigned i = 0; i < k; i++) {
        keygen_row(k, i, ek_pke, t_hat, (const int16_t(*)[256])s_hat,
                   (const int16_t(*)[128])s_cache,
                   (const int16_t(*)[256])at_hat, e[i]);
        if (i + 1 == k)
            break;
        mlkem_lanes_init(&lanes, 0);
        mlkem_job_absorb(&jobs[k], &hctx[(i + 1) % 2], &hctx[i % 2],
                         MLKEM_SHA3_256_RATE, ek_pke + hashed,
                         384 * (i + 1) - hashed);
        mlkem_lanes_push(&lanes, &jobs[k]);
        for (unsigned j = 0; j < k; j++) {
            mlkem_job_sample_ntt(&jobs[j], at_hat[j * k + i + 1], rho,
                                 (uint8_t)j, (uint8_t)(i + 1));
            mlkem_lanes_push(&lanes, &jobs[j]);
        }
        mlkem_lanes_run(&lanes);
        hashed += (384 * (i + 1) - hashed) / MLKEM_SHA3_256_RATE *
                  MLKEM_SHA3_256_RATE;
    }
    for (unsigned i = 0; i < k; i++)
        mlkem_poly_normalize(s_hat[i]);

    /* Line 19: ek_pke = ByteEncode_12(t_hat) || rho; the rest of
     * H(ek_pke). */
    memcpy(ek_pke + 384 * k, rho, 32);
    mlkem_lanes_init(&lanes, 0);
    mlkem_job_sha3_256(&jobs[0], h, ek_pke + hashed, p->ek_bytes - hashed,
                       NULL, 0);
    jobs[0].resume = &hctx[(k - 1) % 2];
    mlkem_lanes_push(&lanes, &jobs[0]);
    mlkem_lanes_run(&lanes);

    mlkem_cleanse(g, sizeof(g));
    mlkem_cleanse(e, sizeof(e[0]) * k);
    mlkem_cleanse(s_cache, sizeof(s_cache[0]) * k);
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

    mlkem_cleanse(n->y, sizeof(n->y[0]) * k);
    mlkem_cleanse(n->e1, sizeof(n->e1[0]) * k);
    mlkem_cleanse(n->e2, sizeof(n->e2));
    mlkem_cleanse(y_cache, sizeof(y_cache[0]) * k);
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

    mlkem_cleanse(u, sizeof(u[0]) * k);
    mlkem_cleanse(u_cache, sizeof(u_cache[0]) * k);
    mlkem_cleanse(w, sizeof(w));
    mlkem_cleanse(v, sizeof(v));
}
