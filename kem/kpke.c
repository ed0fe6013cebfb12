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
 * when asked.
 */
void mlkem_kpke_keygen(const mlkem_params *p, uint8_t *ek_pke,
                       int16_t (*t_hat)[256], int16_t (*s_hat)[256],
                       int16_t (*at_hat)[256], uint8_t rho[32],
                       const uint8_t d[32])
{
    const unsigned k = p->k;
    uint8_t in[33];
    uint8_t g[64]; /* rho || sigma */
    int16_t e[MLKEM_MAX_K][256];
    int16_t row[MLKEM_MAX_K][256];
    int16_t s_cache[MLKEM_MAX_K][128];
    int16_t *r[2 * MLKEM_MAX_K];
    unsigned eta[2 * MLKEM_MAX_K];

    /* Line 1: (rho, sigma) = G(d || k), k as one byte (FIPS 203 final). */
    memcpy(in, d, 32);
    in[32] = (uint8_t)k;
    mlkem_sha3_512(g, in, 33);
    memcpy(rho, g, 32);
    MLKEM_CT_DECLASSIFY(rho, 32); /* public: part of ek */

    /* Lines 3-7: Â from rho (transposed storage). */
    mlkem_sample_ntt_matrix_transposed(at_hat, rho, k);

    /* Lines 2, 8-15: s[i] with N = i, e[i] with N = k + i. */
    for (unsigned i = 0; i < k; i++) {
        r[i] = s_hat[i];
        r[k + i] = e[i];
        eta[i] = eta[k + i] = p->eta1;
    }
    mlkem_sample_poly_cbd_prf(r, eta, 2 * k, g + 32, 0);

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

    mlkem_cleanse(in, sizeof(in));
    mlkem_cleanse(g, sizeof(g));
    mlkem_cleanse(e, sizeof(e));
    mlkem_cleanse(s_cache, sizeof(s_cache));
}

/*
 * Implements FIPS 203, Algorithm 14 (K-PKE.Encrypt), lines 9-24.
 * Deviations: lines 1-8 (decode t_hat, check it, expand Â) were done when
 * the key was parsed (Â held transposed, so line 19's Â^T o y_hat is a
 * row-by-row MultiplyNTTs sum); y, e1, e2 are sampled in one batch (nonces
 * 0..2k as in lines 9-17).
 */
void mlkem_kpke_encrypt(const mlkem_params *p, uint8_t *c,
                        const int16_t (*t_hat)[256],
                        const int16_t (*at_hat)[256], const uint8_t m[32],
                        const uint8_t r[32])
{
    const unsigned k = p->k;
    int16_t y[MLKEM_MAX_K][256];
    int16_t e1[MLKEM_MAX_K][256];
    int16_t y_cache[MLKEM_MAX_K][128];
    int16_t e2[256], mu[256], u[256], v[256];
    int16_t *rp[2 * MLKEM_MAX_K + 1];
    unsigned eta[2 * MLKEM_MAX_K + 1];

    /* Lines 9-17: y[i] (N = i, eta1), e1[i] (N = k + i, eta2), e2
     * (N = 2k, eta2). */
    for (unsigned i = 0; i < k; i++) {
        rp[i] = y[i];
        eta[i] = p->eta1;
        rp[k + i] = e1[i];
        eta[k + i] = p->eta2;
    }
    rp[2 * k] = e2;
    eta[2 * k] = p->eta2;
    mlkem_sample_poly_cbd_prf(rp, eta, 2 * k + 1, r, 0);

    /* Line 18, and y_hat's multiplication cache for its k + 1 uses. */
    mlkem_polyvec_ntt(y, k);
    mlkem_polyvec_mulcache(y_cache, (const int16_t(*)[256])y, k);

    /* Lines 19 and 22: u[i] = NTT^-1(sum_j Â^T[i][j] o y_hat[j]) + e1[i],
     * c1 = ByteEncode_du(Compress_du(u)), one polynomial at a time. */
    for (unsigned i = 0; i < k; i++) {
        mlkem_polyvec_multiply_ntts_acc(u, at_hat + i * k,
                                        (const int16_t(*)[256])y,
                                        (const int16_t(*)[128])y_cache, k);
        mlkem_poly_ntt_inv_tomont(u);
        mlkem_poly_add(u, u, e1[i]);
        mlkem_poly_reduce(u);
        mlkem_byte_encode_compress(c + 32 * p->du * i, u, p->du);
    }

    /* Lines 20-21, 23: v = NTT^-1(t_hat^T o y_hat) + e2 + mu. */
    mlkem_polyvec_multiply_ntts_acc(v, t_hat, (const int16_t(*)[256])y,
                                    (const int16_t(*)[128])y_cache, k);
    mlkem_poly_ntt_inv_tomont(v);
    mlkem_decompress_byte_decode(mu, m, 1);
    mlkem_poly_add(v, v, e2);
    mlkem_poly_add(v, v, mu);
    mlkem_poly_reduce(v);
    mlkem_byte_encode_compress(c + 32 * p->du * k, v, p->dv);

    mlkem_cleanse(y, sizeof(y));
    mlkem_cleanse(y_cache, sizeof(y_cache));
    mlkem_cleanse(e1, sizeof(e1));
    mlkem_cleanse(e2, sizeof(e2));
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
