/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sampling.c: SampleNTT (Algorithm 7) for the matrix Â, SamplePolyCBD
 * (Algorithm 8) with PRF for s, e, y, e1, e2, and their portable kernels
 * (the rejection loop and the centred binomial distribution).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithms 7, 8; §4.1 (PRF, XOF); Algorithm 13
 *             lines 3-15; Algorithm 14 lines 4-17.
 *   [FIPS202] NIST FIPS 202: SHAKE128 (rate 168), SHAKE256 (rate 136).
 *
 * The streams run as jobs of kem/lanes.h, side by side on the lanes of the
 * installed Keccak set's parallel states (or on single sponges where that
 * set prefers). SampleNTT runs the rejection loop on each SHAKE128 block
 * as it is squeezed; three blocks (336 candidates) are enough with
 * probability about 0.992.
 */
#include "kem/sampling.h"

#include <string.h>

#include "common/bytes.h"
#include "keccak/keccak.h"
#include "kem/mlkem.h"
#include "kem/poly.h"

/*
 * Implements FIPS 203, Algorithm 7 (SampleNTT), lines 5-12, on a buffer of
 * XOF output: every 3 bytes give two 12-bit candidates d1, d2, each kept if
 * below q, until len values are written. Returns the number written.
 * Public data only (the XOF output of rho), so branches and store positions
 * may depend on it; what is avoided is a hard-to-predict branch per
 * candidate (19% are rejected).
 * Fast path, while at least eight output slots are free: 12 bytes are read
 * as two little-endian words (bytes 0-7 and 4-11), giving eight candidates
 * as 12-bit fields (bits 0, 12, 24, 36 of the first word and 16, 28, 40, 52
 * of the second: byte 6 starts at bit 48 of the first and bit 16 of the
 * second). Each candidate is stored unconditionally right after the ones
 * kept before it (overwriting a rejected one), and the count advances by
 * (d - q) >> 31, i.e. 1 exactly when d < q (d < 2^12, so d - q does not
 * wrap past 2^31). The last few slots are filled by the literal form of
 * lines 8-11.
 */
unsigned mlkem_sample_ntt_rej_portable(int16_t *r, unsigned len,
                                       const uint8_t *buf, size_t buflen)
{
    unsigned ctr = 0;
    size_t pos = 0;

    while (ctr + 8 <= len && pos + 12 <= buflen) {
        const uint64_t w0 = mlkem_load64le(buf + pos);
        const uint64_t w1 = mlkem_load64le(buf + pos + 4);
        uint32_t d[8];
        d[0] = (uint32_t)w0 & 0xfff;
        d[1] = (uint32_t)(w0 >> 12) & 0xfff;
        d[2] = (uint32_t)(w0 >> 24) & 0xfff;
        d[3] = (uint32_t)(w0 >> 36) & 0xfff;
        d[4] = (uint32_t)(w1 >> 16) & 0xfff;
        d[5] = (uint32_t)(w1 >> 28) & 0xfff;
        d[6] = (uint32_t)(w1 >> 40) & 0xfff;
        d[7] = (uint32_t)(w1 >> 52);
        pos += 12;
        for (unsigned j = 0; j < 8; j++) {
            r[ctr] = (int16_t)d[j];
            ctr += (d[j] - MLKEM_Q) >> 31;
        }
    }
    while (ctr < len && pos + 3 <= buflen) {
        uint16_t d1 = (uint16_t)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));
        pos += 3;
        if (d1 < MLKEM_Q)
            r[ctr++] = (int16_t)d1;
        if (d2 < MLKEM_Q && ctr < len)
            r[ctr++] = (int16_t)d2;
    }
    return ctr;
}

/* One SHAKE128 block of each listed lane through the installed set's
 * rejection loop, the bytes read with the installed Keccak set's
 * extract_bytes (its own layout). */
void mlkem_sample_ntt_x4_portable(const mlkem_keccak_x4 *st, unsigned lanes,
                                  int16_t *const r[4], unsigned ctr[4])
{
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();
    uint8_t buf[MLKEM_SHAKE128_RATE];

    for (unsigned l = 0; l < 4; l++) {
        if (!((lanes >> l) & 1))
            continue;
        mlkem_keccak_x4_extract_bytes(st, l, 0, buf, sizeof(buf));
        ctr[l] += pk->sample_ntt_rej(r[l] + ctr[l], 256 - ctr[l], buf,
                                     sizeof(buf));
    }
}

/* ---- SampleNTT for the matrix ------------------------------------------- */

void mlkem_sample_ntt_matrix_jobs(mlkem_lanes *e, mlkem_job jobs[],
                                  int16_t (*at)[256], const uint8_t rho[32],
                                  unsigned k)
{
    /* Entry i * k + j holds Â[j][i] = SampleNTT(rho || i || j). */
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = 0; j < k; j++) {
            mlkem_job_sample_ntt(&jobs[i * k + j], at[i * k + j], rho,
                                 (uint8_t)i, (uint8_t)j);
            mlkem_lanes_push(e, &jobs[i * k + j]);
        }
}

void mlkem_sample_ntt_matrix_transposed(int16_t (*at)[256],
                                        const uint8_t rho[32], unsigned k)
{
    mlkem_lanes e;
    mlkem_job jobs[MLKEM_MAX_K * MLKEM_MAX_K];

    mlkem_lanes_init(&e, 1);
    mlkem_sample_ntt_matrix_jobs(&e, jobs, at, rho, k);
    mlkem_lanes_run(&e);
}

/*
 * Implements FIPS 203, Algorithm 8 (SamplePolyCBD_eta), lines 1-6, on
 * 64 * eta bytes: f_i = sum_{j<eta} b[2 i eta + j] - sum_{j<eta}
 * b[2 i eta + eta + j]. Bit-sliced: adding the eta shifted copies of a word
 * masked to every eta-th bit leaves in each eta-bit field the sum of its
 * bits; a coefficient is then the difference of two adjacent fields. No
 * branches or indices depend on the (secret) bytes.
 */
void mlkem_sample_poly_cbd_portable(int16_t r[256], const uint8_t *buf,
                                    unsigned eta)
{
    if (eta == 2) {
        /* one byte = two coefficients: bit pairs (0,1) - (2,3) and
         * (4,5) - (6,7) */
        for (unsigned i = 0; i < 128; i++) {
            uint32_t t = buf[i];
            uint32_t d = (t & 0x55u) + ((t >> 1) & 0x55u);
            r[2 * i] = (int16_t)((int16_t)(d & 3) - (int16_t)((d >> 2) & 3));
            r[2 * i + 1] =
                (int16_t)((int16_t)((d >> 4) & 3) - (int16_t)((d >> 6) & 3));
        }
    } else { /* eta == 3 */
        for (unsigned i = 0; i < 64; i++) {
            uint32_t t = mlkem_load24le(buf + 3 * i);
            uint32_t d = (t & 0x249249u) + ((t >> 1) & 0x249249u) +
                         ((t >> 2) & 0x249249u);
            for (unsigned j = 0; j < 4; j++) {
                int16_t x = (int16_t)((d >> (6 * j)) & 7);
                int16_t y = (int16_t)((d >> (6 * j + 3)) & 7);
                r[4 * i + j] = (int16_t)(x - y);
            }
        }
    }
}

void mlkem_sample_poly_cbd_jobs(mlkem_lanes *e, mlkem_job jobs[],
                                int16_t *const r[], const unsigned eta[],
                                unsigned n, const uint8_t seed[32],
                                uint8_t nonce0)
{
    for (unsigned i = 0; i < n; i++) {
        mlkem_job_cbd(&jobs[i], r[i], seed, (uint8_t)(nonce0 + i), eta[i]);
        mlkem_lanes_push(e, &jobs[i]);
    }
}

void mlkem_sample_poly_cbd_prf(int16_t *const r[], const unsigned eta[],
                               unsigned n, const uint8_t seed[32],
                               uint8_t nonce0)
{
    mlkem_lanes e;
    mlkem_job jobs[2 * MLKEM_MAX_K + 1];

    mlkem_lanes_init(&e, 1);
    mlkem_sample_poly_cbd_jobs(&e, jobs, r, eta, n, seed, nonce0);
    mlkem_lanes_run(&e);
}
