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

/* The state of keygen's schedule: which streams are done, which rows of
 * t_hat are encoded, and how far H(ek_pke) has got. */
typedef struct {
    const mlkem_params *p;
    uint8_t *ek;                  /* ek_pke, filled row by row */
    uint8_t *h;
    int16_t (*t_hat)[256];
    int16_t (*s_hat)[256];
    int16_t (*at_hat)[256];
    int16_t (*e)[256];
    int16_t (*s_cache)[128];
    const uint8_t *rho;
    unsigned entries[MLKEM_MAX_K]; /* SampleNTT streams done, per row of Â */
    unsigned prf;                 /* PRF streams done */
    unsigned rows;                /* rows of t_hat encoded */
    size_t avail;                 /* bytes of ek_pke ready */
    size_t hashed;                /* bytes of ek_pke absorbed into hctx */
    size_t pending;               /* bytes the running H instalment adds */
    int h_busy;                   /* an H job is queued or running */
    unsigned hcur;                /* hctx[hcur]: the state after `hashed` */
    mlkem_keccak_ctx hctx[2];
    mlkem_job hjob[2];
} keygen_schedule;

static void keygen_progress(mlkem_lanes *e, keygen_schedule *ks);

static void keygen_stream_done(mlkem_lanes *e, mlkem_job *j)
{
    keygen_schedule *ks = (keygen_schedule *)j->arg;
    if (j->kind == MLKEM_JOB_SAMPLE_NTT)
        ks->entries[j->suffix[1]]++; /* SampleNTT(rho || j || i): row i */
    else
        ks->prf++;
    keygen_progress(e, ks);
}

static void keygen_h_done(mlkem_lanes *e, mlkem_job *j)
{
    keygen_schedule *ks = (keygen_schedule *)j->arg;
    ks->hashed += ks->pending;
    ks->hcur ^= 1;
    ks->h_busy = 0;
    keygen_progress(e, ks);
}

/* Called whenever a stream finishes: lines 16-17 once the PRF streams are
 * in, lines 18-19 for every row of Â that is complete (in order), and the
 * next piece of H(ek_pke) over the whole blocks that are ready, queued
 * ahead of the waiting SampleNTT streams (the last piece pads and outputs
 * once all of ek_pke is there). */
static void keygen_progress(mlkem_lanes *e, keygen_schedule *ks)
{
    const mlkem_params *p = ks->p;
    const unsigned k = p->k;

    if (ks->prf == 2 * k) {
        /* Lines 16-17, and s_hat's multiplication cache for the k rows. */
        mlkem_polyvec_ntt(ks->s_hat, k);
        mlkem_polyvec_ntt(ks->e, k);
        mlkem_polyvec_mulcache(ks->s_cache, (const int16_t(*)[256])ks->s_hat,
                               k);
        ks->prf++; /* done once */
    }
    while (ks->prf > 2 * k && ks->rows < k && ks->entries[ks->rows] == k) {
        keygen_row(k, ks->rows, ks->ek, ks->t_hat,
                   (const int16_t(*)[256])ks->s_hat,
                   (const int16_t(*)[128])ks->s_cache,
                   (const int16_t(*)[256])ks->at_hat, ks->e[ks->rows]);
        ks->rows++;
        ks->avail = 384 * (size_t)ks->rows;
        if (ks->rows == k) {
            memcpy(ks->ek + 384 * k, ks->rho, 32);
            ks->avail = p->ek_bytes;
        }
    }
    if (ks->h_busy)
        return;
    mlkem_job *hj = &ks->hjob[ks->hcur];
    const mlkem_keccak_ctx *from = ks->hashed != 0 ? &ks->hctx[ks->hcur] : NULL;
    if (ks->avail == p->ek_bytes) {
        mlkem_job_sha3_256(hj, ks->h, ks->ek + ks->hashed,
                           p->ek_bytes - ks->hashed, NULL, 0);
        hj->resume = from;
        ks->h_busy = 1; /* the last piece: nothing follows */
        mlkem_lanes_push_front(e, hj);
    } else if (ks->avail - ks->hashed >= MLKEM_SHA3_256_RATE) {
        const size_t n = ks->avail - ks->hashed;
        ks->pending = n - n % MLKEM_SHA3_256_RATE;
        mlkem_job_absorb(hj, &ks->hctx[ks->hcur ^ 1], from,
                         MLKEM_SHA3_256_RATE, ks->ek + ks->hashed, n);
        hj->done = keygen_h_done;
        hj->arg = ks;
        ks->h_busy = 1;
        mlkem_lanes_push_front(e, hj);
    }
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
 * Order of work: G; then one schedule (kem/lanes.h) of the k^2 SampleNTT
 * streams of lines 3-7 (row 0 of Â first) and the 2k PRF streams of lines
 * 8-15, in which each finished stream may complete a row of Â, whose row
 * of t_hat (lines 16-19) is then computed at once, and each row of ek_pke
 * lets SHA3-256 absorb its whole blocks in a lane beside the SampleNTT
 * streams still running (keygen_progress). So most of H's serial chain
 * shares parallel calls with the matrix instead of running after it.
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
    keygen_schedule ks;
    mlkem_lanes lanes;
    mlkem_job jobs[MLKEM_MAX_K * MLKEM_MAX_K + 2 * MLKEM_MAX_K];

    /* Line 1: (rho, sigma) = G(d || k), k as one byte (FIPS 203 final). */
    mlkem_lanes_init(&lanes, 0);
    mlkem_job_sha3_512(&jobs[0], g, d, 32, &kb, 1);
    mlkem_lanes_push(&lanes, &jobs[0]);
    mlkem_lanes_run(&lanes);
    memcpy(rho, g, 32);
    MLKEM_CT_DECLASSIFY(rho, 32); /* public: part of ek */

    memset(&ks, 0, sizeof(ks));
    ks.p = p;
    ks.ek = ek_pke;
    ks.h = h;
    ks.t_hat = t_hat;
    ks.s_hat = s_hat;
    ks.at_hat = at_hat;
    ks.e = e;
    ks.s_cache = s_cache;
    ks.rho = rho;

    /* Lines 3-7, row 0 of Â first (entries Â[i][j] = SampleNTT(rho || j ||
     * i) at at_hat[j * k + i]); lines 2, 8-15 (s[i] with N = i, e[i] with N
     * = k + i) right after it: the PRF streams, shorter, fill the lanes the
     * row leaves; then rows 1 .. k - 1. */
    mlkem_lanes_init(&lanes, 0);
    for (unsigned j = 0; j < k; j++)
        mlkem_job_sample_ntt(&jobs[j], at_hat[j * k], rho, (uint8_t)j, 0);
    for (unsigned i = 0; i < k; i++) {
        r[i] = s_hat[i];
        r[k + i] = e[i];
        eta[i] = eta[k + i] = p->eta1;
    }
    for (unsigned j = 0; j < k; j++)
        mlkem_lanes_push(&lanes, &jobs[j]);
    mlkem_sample_poly_cbd_jobs(&lanes, jobs + k, r, eta, 2 * k, g + 32, 0);
    for (unsigned i = 1; i < k; i++)
        for (unsigned j = 0; j < k; j++) {
            mlkem_job *jb = &jobs[3 * k + (i - 1) * k + j];
            mlkem_job_sample_ntt(jb, at_hat[j * k + i], rho, (uint8_t)j,
                                 (uint8_t)i);
            mlkem_lanes_push(&lanes, jb);
        }
    for (unsigned i = 0; i < k * k + 2 * k; i++) {
        jobs[i].done = keygen_stream_done;
        jobs[i].arg = &ks;
    }
    mlkem_lanes_run(&lanes);

    for (unsigned i = 0; i < k; i++)
        mlkem_poly_normalize(s_hat[i]);

    mlkem_cleanse(g, sizeof(g));
    mlkem_cleanse(e, sizeof(e[0]) * k);
    mlkem_cleanse(s_cache, sizeof(s_cache[0]) * k);
    mlkem_cleanse(&ks, sizeof(ks));
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
