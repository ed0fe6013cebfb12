/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ntt.c: the NTT kernels of each backend (kem/poly_kernels.h slots)
 * against FIPS 203 computed from first principles.
 *
 *   - mlkem_zetas recomputed from zeta = 17 and BitRev7 (Appendix A), in
 *     Montgomery form and centred;
 *   - ntt vs a plain Algorithm 9 in exact arithmetic mod q, on random and
 *     extreme inputs with |a| < q; output bound |r| < 8q;
 *   - invntt vs a plain Algorithm 10 times 2^16, on any int16_t input
 *     (random and the extremes -32768 / 32767); output bound |r| < q;
 *   - invntt(ntt(a)) = a * 2^16;
 *   - multiplication: NTT^-1(sum_i NTT(a_i) o NTT(b_i)) through mulcache
 *     and multiply_ntts_acc (k = 1..4) vs a naive O(n^2) negacyclic
 *     product mod q, and its output bound |r| < q on extreme inputs.
 * A backend may keep T_q in its own order (kem/poly_kernels.h): NTT
 * outputs are read back in the spec's order through the backend's
 * byte_encode_12 (after its Barrett reduction) and the portable
 * byte_decode_12, and spec-order inputs to NTT^-1 go through ntt_pack.
 */
#include "kem/poly.h"
#include "kem/reduce.h"
#include "test/common/test_backends.h"
#include "test/kem/kem_test.h"

#define Q 3329

static unsigned bitrev7(unsigned i)
{
    unsigned r = 0;
    for (unsigned b = 0; b < 7; b++)
        r |= ((i >> b) & 1u) << (6 - b);
    return r;
}

static int32_t powmod(int32_t b, unsigned e)
{
    int64_t r = 1, x = b;
    while (e) {
        if (e & 1)
            r = r * x % Q;
        x = x * x % Q;
        e >>= 1;
    }
    return (int32_t)r;
}

/* FIPS 203 Algorithm 9 with canonical arithmetic. */
static void ntt_ref(int32_t f[256])
{
    unsigned i = 1;
    for (unsigned len = 128; len >= 2; len /= 2) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int32_t zeta = powmod(17, bitrev7(i++));
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = kt_modq((int64_t)zeta * f[j + len]);
                f[j + len] = kt_modq(f[j] - t);
                f[j] = kt_modq(f[j] + t);
            }
        }
    }
}

/* FIPS 203 Algorithm 10 with canonical arithmetic (factor 3303 = 128^-1). */
static void invntt_ref(int32_t f[256])
{
    unsigned i = 127;
    for (unsigned len = 2; len <= 128; len *= 2) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int32_t zeta = powmod(17, bitrev7(i--));
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = f[j];
                f[j] = kt_modq(t + f[j + len]);
                f[j + len] = kt_modq((int64_t)zeta * (f[j + len] - t));
            }
        }
    }
    for (unsigned j = 0; j < 256; j++)
        f[j] = kt_modq((int64_t)f[j] * 3303);
}

static void negacyclic_ref(int32_t c[256], const int16_t *a, const int16_t *b)
{
    int64_t acc[256] = {0};
    for (unsigned i = 0; i < 256; i++) {
        for (unsigned j = 0; j < 256; j++) {
            int64_t p = (int64_t)kt_modq(a[i]) * kt_modq(b[j]);
            if (i + j < 256)
                acc[i + j] += p;
            else
                acc[i + j - 256] -= p;
        }
    }
    for (unsigned i = 0; i < 256; i++)
        c[i] = kt_modq(acc[i]);
}

static void rand_poly(test_rng *rng, int16_t *a, int32_t lo, int32_t hi)
{
    for (unsigned i = 0; i < 256; i++)
        a[i] = (int16_t)(lo + (int32_t)(uint32_t)test_rng_below(rng, (uint32_t)(hi - lo + 1)));
}

static int body(const char *backend, void *arg)
{
    const struct mlkem_poly_kernels *b = mlkem_poly_kernels();
    const int before = test_failure_count();
    test_rng rng;
    (void)arg;
    (void)backend;
    test_rng_init(&rng, "test_ntt");

    /* NTT vs Algorithm 9; bound < 8q. */
    for (unsigned it = 0; it < 200; it++) {
        int16_t a[256];
        int32_t f[256];
        if (it == 0)
            for (unsigned i = 0; i < 256; i++) a[i] = Q - 1;
        else if (it == 1)
            for (unsigned i = 0; i < 256; i++) a[i] = -(Q - 1);
        else if (it == 2)
            for (unsigned i = 0; i < 256; i++) a[i] = (i & 1) ? Q - 1 : -(Q - 1);
        else
            rand_poly(&rng, a, -(Q - 1), Q - 1);
        for (unsigned i = 0; i < 256; i++)
            f[i] = kt_modq(a[i]);
        ntt_ref(f);
        b->ntt(a);
        for (unsigned i = 0; i < 256; i++)
            TEST_CHECK(a[i] > -8 * Q && a[i] < 8 * Q, "ntt bound: r[%u] = %d",
                       i, a[i]);
        kt_to_spec_order(b, a, a);
        for (unsigned i = 0; i < 256; i++)
            TEST_CHECK(a[i] == f[i], "ntt it %u: r[%u] = %d, want %d", it, i,
                       a[i], f[i]);
    }

    /* invNTT vs Algorithm 10 (times 2^16) on any int16_t; bound < q. */
    for (unsigned it = 0; it < 200; it++) {
        int16_t a[256];
        int32_t f[256];
        if (it == 0)
            for (unsigned i = 0; i < 256; i++) a[i] = -32768;
        else if (it == 1)
            for (unsigned i = 0; i < 256; i++) a[i] = 32767;
        else if (it == 2)
            for (unsigned i = 0; i < 256; i++) a[i] = (i & 1) ? 32767 : -32768;
        else
            rand_poly(&rng, a, -32768, 32767);
        for (unsigned i = 0; i < 256; i++)
            f[i] = kt_modq(a[i]);
        invntt_ref(f);
        b->ntt_pack(a);
        b->ntt_inv(a);
        for (unsigned i = 0; i < 256; i++) {
            TEST_CHECK(a[i] > -Q && a[i] < Q, "invntt bound: r[%u] = %d", i, a[i]);
            TEST_CHECK(kt_modq(a[i]) == kt_modq((int64_t)f[i] * 65536),
                  "invntt it %u: r[%u]", it, i);
        }
    }

    /* Round trip: invntt(ntt(a)) = a * 2^16. */
    for (unsigned it = 0; it < 100; it++) {
        int16_t a[256], r[256];
        rand_poly(&rng, a, -(Q - 1), Q - 1);
        memcpy(r, a, sizeof(r));
        b->ntt(r);
        b->ntt_inv(r);
        for (unsigned i = 0; i < 256; i++)
            TEST_CHECK(kt_modq(r[i]) == kt_modq((int64_t)a[i] * 65536),
                  "round trip it %u: coefficient %u", it, i);
    }

    /* NTT-domain multiplication vs naive negacyclic product, k = 1..4. */
    for (unsigned it = 0; it < 40; it++) {
        const unsigned k = 1 + it % 4;
        int16_t a[4][256], bb[4][256], ah[4][256], bh[4][256], bc[4][128];
        int16_t r[256];
        int32_t want[256] = {0}, c[256];
        for (unsigned i = 0; i < k; i++) {
            /* a like the matrix or t_hat ([0, q)), b like y ((-q, q)). */
            rand_poly(&rng, a[i], 0, Q - 1);
            rand_poly(&rng, bb[i], -(Q - 1), Q - 1);
            memcpy(ah[i], a[i], sizeof(ah[i]));
            memcpy(bh[i], bb[i], sizeof(bh[i]));
            mlkem_poly_ntt(ah[i]);
            mlkem_poly_normalize(ah[i]);
            mlkem_poly_ntt(bh[i]);
            negacyclic_ref(c, a[i], bb[i]);
            for (unsigned j = 0; j < 256; j++)
                want[j] = kt_modq(want[j] + c[j]);
        }
        for (unsigned i = 0; i < k; i++)
            b->mulcache(bc[i], bh[i]);
        b->multiply_ntts_acc(r, &ah[0][0], &bh[0][0], &bc[0][0], k);
        for (unsigned j = 0; j < 256; j++)
            TEST_CHECK(r[j] > -Q && r[j] < Q, "multiply bound: r[%u] = %d", j,
                       r[j]);
        b->ntt_inv(r);
        for (unsigned j = 0; j < 256; j++)
            TEST_CHECK(kt_modq(r[j]) == want[j], "product it %u k %u: coeff %u", it,
                  k, j);
    }

    /* multiply_ntts_acc's bound at the extremes of its contract, k = 4
     * (the cache of an extreme b is formed from it). */
    {
        static const int16_t ext[4][2] = {
            {Q, Q - 1}, {Q, -(Q - 1)}, {-(Q - 1), Q - 1}, {-(Q - 1), -(Q - 1)}};
        for (unsigned e = 0; e < 4; e++) {
            int16_t a[4][256], bb[4][256], bc[4][128], r[256];
            for (unsigned i = 0; i < 4; i++) {
                for (unsigned j = 0; j < 256; j++) {
                    a[i][j] = ext[e][0];
                    bb[i][j] = ext[e][1];
                }
                b->mulcache(bc[i], bb[i]);
                for (unsigned j = 0; j < 128; j++)
                    TEST_CHECK(bc[i][j] > -Q && bc[i][j] < Q,
                               "mulcache extreme %u: c[%u] = %d", e, j,
                               bc[i][j]);
            }
            b->multiply_ntts_acc(r, &a[0][0], &bb[0][0], &bc[0][0], 4);
            for (unsigned j = 0; j < 256; j++)
                TEST_CHECK(r[j] > -Q && r[j] < Q,
                           "multiply extreme %u: r[%u] = %d", e, j, r[j]);
        }
    }
    return test_failure_count() - before;
}

int main(void)
{
    /* Appendix A: zeta^BitRev7(i), here times 2^16 and centred. */
    for (unsigned i = 0; i < 128; i++) {
        int32_t z = (int32_t)((int64_t)powmod(17, bitrev7(i)) * 65536 % Q);
        if (z > (Q - 1) / 2)
            z -= Q;
        TEST_CHECK(mlkem_zetas[i] == z, "zetas[%u] = %d, want %d", i,
              mlkem_zetas[i], z);
    }
    /* The layouts derived from it (kem/poly.h). */
    for (unsigned i = 0; i < 128; i++) {
        const int16_t qi = (int16_t)MLKEM_QINV;
        TEST_CHECK(mlkem_zetas_qinv[i] == mlkem_mullo16(mlkem_zetas[i], qi),
                   "zetas_qinv[%u]", i);
        TEST_CHECK(mlkem_zetas_rev[i] == mlkem_zetas[127 - i] &&
                       mlkem_zetas_rev_qinv[i] == mlkem_zetas_qinv[127 - i],
                   "zetas_rev[%u]", i);
        TEST_CHECK(mlkem_zetas_lane8[i] == mlkem_zetas[16 + i / 8] &&
                       mlkem_zetas_lane8_qinv[i] ==
                           mlkem_zetas_qinv[16 + i / 8],
                   "zetas_lane8[%u]", i);
        TEST_CHECK(mlkem_zetas_inv_lane8[i] == mlkem_zetas[31 - i / 8] &&
                       mlkem_zetas_inv_lane8_qinv[i] ==
                           mlkem_zetas_qinv[31 - i / 8],
                   "zetas_inv_lane8[%u]", i);
        TEST_CHECK(mlkem_gammas_qinv[i] == mlkem_mullo16(mlkem_gammas[i], qi),
                   "gammas_qinv[%u]", i);
    }
    /* MultiplyNTTs' gammas: zeta^(2 BitRev7(p) + 1) * 2^16, centred. */
    for (unsigned p = 0; p < 128; p++) {
        int32_t g = (int32_t)((int64_t)powmod(17, 2 * bitrev7(p) + 1) * 65536 % Q);
        if (g > (Q - 1) / 2)
            g -= Q;
        TEST_CHECK(mlkem_gammas[p] == g, "gammas[%u] = %d, want %d", p,
                   mlkem_gammas[p], g);
    }
    /* NTT^-1's folded constants: f = 2^32 / 128 mod q and zetas[1] * f
     * * 2^-16 (the q^-1 twins are checked in test_reduce). */
    TEST_CHECK(kt_modq(1441 * 128) == kt_modq((int64_t)1 << 32), "f");
    TEST_CHECK(kt_modq((int64_t)mlkem_zetas[1] * 1441 * 169) == 1397, "zf");
    TEST_CHECK(powmod(17, 128) == Q - 1, "17 is not a primitive 256th root");
    TEST_CHECK(test_for_each_backend(body, NULL) == 0, "backend runs failed");
    return test_finish("test_ntt");
}
