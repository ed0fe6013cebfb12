/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sampling.c: SampleNTT (Algorithm 7), SamplePolyCBD (Algorithm 8) and
 * PRF, against plain implementations on test/common's independent SHAKE,
 * under every backend.
 *
 *   - the matrix for k = 2, 3, 4 and many rho: every entry equals
 *     SampleNTT(rho || i || j) read 3 bytes at a time from SHAKE128, all
 *     values < q; enough rho are tried that entries needing a 4th block
 *     occur among the first eight entries and among the last of a k = 3
 *     matrix (the one that may run alone), and the test asserts that they
 *     did (test_lanes.c covers the scheduler's paths one by one);
 *   - the rejection loop (sample_ntt_rej) on crafted buffers (all rejected, all accepted, len cap)
 *     and against the literal rejection loop on random buffers;
 *   - CBD for eta = 2, 3 vs bit-by-bit Algorithm 8, outputs in [-eta, eta];
 *   - mlkem_sample_poly_cbd_prf with the eta patterns of every parameter set and
 *     operation vs SHAKE256(seed || N) + bit-by-bit CBD.
 */
#include "kem/mlkem.h"
#include "kem/sampling.h"
#include "test/common/test_backends.h"
#include "test/kem/kem_test.h"

#define Q 3329

/* Algorithm 8, bit by bit. */
static void cbd_ref(int16_t f[256], const uint8_t *B, unsigned eta)
{
    for (unsigned i = 0; i < 256; i++) {
        int x = 0, y = 0;
        for (unsigned j = 0; j < eta; j++) {
            unsigned bx = 2 * i * eta + j, by = 2 * i * eta + eta + j;
            x += (B[bx / 8] >> (bx % 8)) & 1;
            y += (B[by / 8] >> (by % 8)) & 1;
        }
        f[i] = (int16_t)(x - y);
    }
}

static int body(const char *backend, void *arg)
{
    const struct mlkem_poly_kernels *b = mlkem_poly_kernels();
    const int before = test_failure_count();
    test_rng rng;
    (void)backend;
    (void)arg;
    test_rng_init(&rng, "test_sampling");

    /* Matrix. */
    unsigned long long long_first = 0, long_last = 0;
    for (unsigned it = 0; it < 400; it++) {
        const unsigned k = it < 20 ? 2 : it < 40 ? 4 : 3;
        static int16_t at[16][256];
        int16_t want[256];
        uint8_t rho[32];
        test_rng_bytes(&rng, rho, 32);
        mlkem_sample_ntt_matrix_transposed(at, rho, k);
        for (unsigned i = 0; i < k; i++) {
            for (unsigned j = 0; j < k; j++) {
                unsigned e = i * k + j;
                unsigned used = kt_sample_ntt_ref(want, rho, (uint8_t)i, (uint8_t)j);
                if (used > 504) {
                    if (e >= (k * k) / 4 * 4)
                        long_last++;
                    else
                        long_first++;
                }
                int16_t got[256];
                kt_to_spec_order(b, at[e], got);
                for (unsigned c = 0; c < 256; c++) {
                    TEST_CHECK(at[e][c] >= 0 && at[e][c] < Q, "matrix value range");
                    TEST_CHECK(got[c] == want[c],
                          "matrix k=%u entry (%u,%u) coeff %u: %d want %d", k,
                          i, j, c, got[c], want[c]);
                }
            }
        }
    }
    printf("  SampleNTT entries needing a 4th block: %llu among the first "
           "eight, %llu after\n", long_first, long_last);
    TEST_CHECK(long_first > 0 && long_last > 0,
          "the extra-block paths were not exercised");

    /* sample_ntt_rej on crafted input. */
    {
        uint8_t buf[168];
        int16_t r[256];
        memset(buf, 0xff, sizeof(buf)); /* 4095, 4095: all rejected */
        TEST_CHECK(b->sample_ntt_rej(r, 256, buf, sizeof(buf)) == 0, "rej all-ff");
        memset(buf, 0, sizeof(buf)); /* zeros: all accepted */
        TEST_CHECK(b->sample_ntt_rej(r, 256, buf, sizeof(buf)) == 112, "rej zeros");
        TEST_CHECK(b->sample_ntt_rej(r, 5, buf, sizeof(buf)) == 5, "rej len cap");
        /* d1 = q - 1 (accepted), d2 = q (rejected) */
        for (unsigned i = 0; i < 168; i += 3) {
            buf[i] = (Q - 1) & 0xff;
            buf[i + 1] = (uint8_t)(((Q - 1) >> 8) | ((Q & 0xf) << 4));
            buf[i + 2] = (uint8_t)(Q >> 4);
        }
        TEST_CHECK(b->sample_ntt_rej(r, 256, buf, sizeof(buf)) == 56, "rej q-1 / q");
        TEST_CHECK(r[0] == Q - 1 && r[55] == Q - 1, "rej values");
    }

    /* sample_ntt_rej against the literal Algorithm 7 lines 5-12 on random
     * buffers of every length class (vector kernels take 24 or 32 bytes per
     * step and hand the tail to the portable one), random caps, skewed
     * bytes (mostly rejected / mostly accepted), and a canary after r[len). */
    for (unsigned it = 0; it < 3000; it++) {
        uint8_t buf[640];
        int16_t r[256 + 16], want[256];
        unsigned len, buflen, n = 0;
        uint8_t rnd[4];

        test_rng_bytes(&rng, rnd, sizeof(rnd));
        buflen = (unsigned)(rnd[0] | rnd[1] << 8) % (sizeof(buf) + 1);
        len = it < 256 ? it + 1 : (unsigned)(rnd[2] | rnd[3] << 8) % 257;
        test_rng_bytes(&rng, buf, buflen);
        if (it % 7 == 1)
            for (unsigned i = 0; i < buflen; i++)
                buf[i] |= 0xd0; /* many candidates >= q */
        else if (it % 7 == 2)
            for (unsigned i = 0; i < buflen; i++)
                buf[i] &= 0x3f; /* many accepted */
        for (unsigned pos = 0; pos + 3 <= buflen && n < len; pos += 3) {
            const int d1 = buf[pos] | (buf[pos + 1] & 0x0f) << 8;
            const int d2 = buf[pos + 1] >> 4 | buf[pos + 2] << 4;
            if (d1 < Q)
                want[n++] = (int16_t)d1;
            if (d2 < Q && n < len)
                want[n++] = (int16_t)d2;
        }
        for (unsigned i = 0; i < 256 + 16; i++)
            r[i] = 0x5a5a;
        const unsigned got = b->sample_ntt_rej(r, len, buf, buflen);
        TEST_CHECK(got == n, "sample_ntt_rej len %u buflen %u: %u values, want %u",
              len, buflen, got, n);
        for (unsigned i = 0; i < n && i < got; i++)
            TEST_CHECK(r[i] == want[i], "sample_ntt_rej len %u buflen %u value %u",
                  len, buflen, i);
        for (unsigned i = len; i < 256 + 16; i++)
            TEST_CHECK(r[i] == 0x5a5a, "sample_ntt_rej wrote r[%u] with len %u", i,
                  len);
    }

    /* CBD. */
    for (unsigned eta = 2; eta <= 3; eta++) {
        for (unsigned it = 0; it < 100; it++) {
            uint8_t B[192];
            int16_t got[256], want[256];
            if (it == 0)
                memset(B, 0xff, sizeof(B));
            else if (it == 1)
                memset(B, 0, sizeof(B));
            else
                test_rng_bytes(&rng, B, sizeof(B));
            b->sample_poly_cbd(got, B, eta);
            cbd_ref(want, B, eta);
            for (unsigned i = 0; i < 256; i++) {
                TEST_CHECK(got[i] >= -(int)eta && got[i] <= (int)eta, "cbd range");
                TEST_CHECK(got[i] == want[i], "cbd eta %u coeff %u", eta, i);
            }
        }
    }

    /* PRF + CBD batches: the patterns of keygen (2k x eta1) and encrypt
     * (k x eta1, k + 1 x eta2) for every set. */
    for (unsigned v = 0; v < 3; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        for (unsigned op = 0; op < 2; op++) {
            const unsigned n = op == 0 ? 2 * p->k : 2 * p->k + 1;
            static int16_t polys[9][256];
            int16_t *r[9];
            unsigned eta[9];
            uint8_t seed[32];
            const uint8_t nonce0 = (uint8_t)(op == 0 ? 0 : 250);
            test_rng_bytes(&rng, seed, 32);
            for (unsigned i = 0; i < n; i++) {
                r[i] = polys[i];
                eta[i] = (op == 0 || i < p->k) ? p->eta1 : p->eta2;
            }
            mlkem_sample_poly_cbd_prf(r, eta, n, seed, nonce0);
            for (unsigned i = 0; i < n; i++) {
                test_shake x;
                uint8_t in[33], B[192];
                int16_t want[256];
                memcpy(in, seed, 32);
                in[32] = (uint8_t)(nonce0 + i); /* wraps mod 256 */
                test_shake256_init(&x);
                test_shake_absorb(&x, in, 33);
                test_shake_squeeze(&x, B, 64 * eta[i]);
                cbd_ref(want, B, eta[i]);
                TEST_CHECK(memcmp(want, polys[i], sizeof(want)) == 0,
                      "%s op %u stream %u", p->name, op, i);
            }
        }
    }
    return test_failure_count() - before;
}

int main(void)
{
    TEST_CHECK(test_for_each_backend(body, NULL) == 0, "backend runs failed");
    return test_finish("test_sampling");
}
