/* SPDX-License-Identifier: Apache-2.0 */
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
 * reduced to |t_hat_i| < q (what ByteEncode_12 and MultiplyNTTs accept: no
 * conditional add to [0, q)), and its 384 bytes of ek_pke (line 19). Â[i][j] =
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
    /* |t_hat| < q, |e_hat| < 8q: the sum is below 9q < 2^15 */
    mlkem_poly_add(t_hat[i], t_hat[i], e_hat);
    mlkem_poly_reduce(t_hat[i]);
    mlkem_byte_encode_12(ek_pke + 384 * i, t_hat[i]);
}

/* Row i of Â (Algorithm 13 lines 3-7) queued on e: Â[i][j] =
 * SampleNTT(rho || j || i) into at_hat[j * k + i] (transposed storage),
 * by row[j]. */
static void push_matrix_row(mlkem_lanes *e, mlkem_job row[],
                            int16_t (*at_hat)[256], const uint8_t rho[32],
                            unsigned k, unsigned i)
{
    for (unsigned j = 0; j < k; j++) {
        mlkem_job_sample_ntt(&row[j], at_hat[j * k + i], rho, (uint8_t)j,
                             (uint8_t)i);
        mlkem_lanes_push(e, &row[j]);
    }
}

/* The SHAKE and SHA-3 streams of K-PKE.KeyGen after G, by name. */
typedef struct {
    mlkem_job a[MLKEM_MAX_K][MLKEM_MAX_K]; /* a[i][j] samples Â[i][j] */
    mlkem_job s[MLKEM_MAX_K];              /* PRF_eta1(sigma, i) -> s[i] */
    mlkem_job e[MLKEM_MAX_K];              /* PRF_eta1(sigma, k + i) -> e[i] */
    mlkem_job h;                           /* H(ek_pke), fed row by row */
    mlkem_keccak_ctx h_state;
} keygen_streams;

/*
 * Implements FIPS 203, Algorithm 13 (K-PKE.KeyGen), lines 1-20, and also
 * returns H(ek_pke) (ML-KEM's H(ek), Algorithm 16 line 3), computed as
 * ek_pke is produced.
 * Deviations: Â is stored transposed (at_hat, see kem/kpke.h) and kept for
 * later encryptions; line 18 takes row i of Â from column i of at_hat; the
 * outputs are the expanded t_hat, s_hat (|x| < q: reduced, not made
 * canonical, kem/kpke.h) plus ek_pke; dk_pke =
 * ByteEncode_12(s_hat) (line 20) is left to the caller, who encodes it only
 * when asked.
 * Order of work: G; then one schedule (kem/lanes.h) of the k^2 SampleNTT
 * streams of lines 3-7 (row 0 of Â first), the 2k PRF streams of lines
 * 8-15, and H(ek_pke). Each row of t_hat (lines 16-19) is computed as soon
 * as the noise and its row of Â are in, while the later rows are still
 * sampled, and each row of ek_pke lets SHA3-256 absorb its whole blocks in
 * a lane beside them. So most of H's serial chain shares parallel calls
 * with the matrix instead of running after it.
 */
void mlkem_kpke_keygen(const mlkem_params *p, uint8_t *ek_pke, uint8_t h[32],
                       int16_t (*t_hat)[256], int16_t (*s_hat)[256],
                       int16_t (*at_hat)[256], uint8_t rho[32],
                       const uint8_t d[32])
{
    const unsigned k = p->k;
    const uint8_t kb = (uint8_t)k;
    uint8_t g[64]; /* rho || sigma */
    const uint8_t *sigma = g + 32;
    int16_t e[MLKEM_MAX_K][256];
    int16_t s_cache[MLKEM_MAX_K][128];
    mlkem_lanes lanes;
    mlkem_job g_job;
    keygen_streams st;

    /* Line 1: (rho, sigma) = G(d || k), k as one byte (FIPS 203 final). */
    mlkem_lanes_init(&lanes, 0);
    mlkem_job_sha3_512(&g_job, g, d, 32, &kb, 1);
    mlkem_lanes_push(&lanes, &g_job);
    mlkem_lanes_run(&lanes);
    memcpy(rho, g, 32);
    MLKEM_CT_DECLASSIFY(rho, 32); /* public: part of ek */

    /* Lines 3-15 as one batch: row 0 of Â first, then s[i] (N = i) and
     * e[i] (N = k + i), shorter streams that fill the lanes the row leaves,
     * then rows 1 .. k - 1; and H(ek_pke), fed as ek_pke is encoded. */
    mlkem_lanes_init(&lanes, 0);
    push_matrix_row(&lanes, st.a[0], at_hat, rho, k, 0);
    for (unsigned i = 0; i < k; i++) {
        mlkem_job_cbd(&st.s[i], s_hat[i], sigma, (uint8_t)i, p->eta1);
        mlkem_lanes_push(&lanes, &st.s[i]);
    }
    for (unsigned i = 0; i < k; i++) {
        mlkem_job_cbd(&st.e[i], e[i], sigma, (uint8_t)(k + i), p->eta1);
        mlkem_lanes_push(&lanes, &st.e[i]);
    }
    for (unsigned i = 1; i < k; i++)
        push_matrix_row(&lanes, st.a[i], at_hat, rho, k, i);
    mlkem_job_sha3_256_fed(&st.h, h, ek_pke, p->ek_bytes, &st.h_state);
    mlkem_lanes_push(&lanes, &st.h);

    /* Lines 16-17: s_hat = NTT(s), e_hat = NTT(e), and s_hat's
     * multiplication cache for the k rows of line 18. */
    mlkem_lanes_wait_all(&lanes, st.s, k);
    mlkem_lanes_wait_all(&lanes, st.e, k);
    mlkem_polyvec_ntt(s_hat, k);
    mlkem_polyvec_ntt_lazy(e, k); /* |e_hat| < 8q: keygen_row reduces */
    mlkem_polyvec_mulcache(s_cache, (const int16_t(*)[256])s_hat, k);

    /* Lines 18-19, row by row as the rows of Â come in: t_hat[i] and its
     * 384 bytes of ek_pke, then rho; H(ek_pke) takes each row as it is
     * encoded. */
    for (unsigned i = 0; i < k; i++) {
        mlkem_lanes_wait_all(&lanes, st.a[i], k);
        keygen_row(k, i, ek_pke, t_hat, (const int16_t(*)[256])s_hat,
                   (const int16_t(*)[128])s_cache,
                   (const int16_t(*)[256])at_hat, e[i]);
        if (i + 1 < k) {
            mlkem_lanes_feed(&lanes, &st.h, 384 * (size_t)(i + 1));
        } else {
            memcpy(ek_pke + 384 * k, rho, 32);
            mlkem_lanes_feed(&lanes, &st.h, p->ek_bytes);
        }
    }
    mlkem_lanes_run(&lanes);

    mlkem_cleanse(g, sizeof(g));
    mlkem_cleanse(e, sizeof(e[0]) * k);
    mlkem_cleanse(s_cache, sizeof(s_cache[0]) * k);
    mlkem_cleanse(&st.h_state, sizeof(st.h_state));
}

/* Implements FIPS 203, Algorithm 14 (K-PKE.Encrypt), lines 9-17: y[i]
 * (N = i, eta1), e1[i] (N = k + i, eta2), e2 (N = 2k, eta2). */
void mlkem_kpke_sample_noise(const mlkem_params *p, mlkem_lanes *e,
                             mlkem_kpke_noise *n, const uint8_t r[32])
{
    const unsigned k = p->k;

    for (unsigned i = 0; i < k; i++) {
        mlkem_job_cbd(&n->y_job[i], n->y[i], r, (uint8_t)i, p->eta1);
        mlkem_lanes_push(e, &n->y_job[i]);
    }
    for (unsigned i = 0; i < k; i++) {
        mlkem_job_cbd(&n->e1_job[i], n->e1[i], r, (uint8_t)(k + i), p->eta2);
        mlkem_lanes_push(e, &n->e1_job[i]);
    }
    mlkem_job_cbd(&n->e2_job, n->e2, r, (uint8_t)(2 * k), p->eta2);
    mlkem_lanes_push(e, &n->e2_job);
}

/*
 * Implements FIPS 203, Algorithm 14 (K-PKE.Encrypt), lines 18-24, with the
 * noise of lines 9-17 sampled by the caller (mlkem_kpke_sample_noise, so
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
