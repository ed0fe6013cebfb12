/*
 * test_ntt.c: the NTT kernels (kem/ntt.c through mlkem_backend()) against
 * FIPS 203 computed from first principles, under every backend.
 *
 *   - mlkem_zetas recomputed from zeta = 17 and BitRev7 (Appendix A), in
 *     Montgomery form and centred;
 *   - ntt vs a plain Algorithm 9 in exact arithmetic mod q, on random and
 *     extreme inputs with |a| < q; output bound |r| < 8q;
 *   - invntt vs a plain Algorithm 10 times 2^16, on any int16_t input
 *     (random and the extremes -32768 / 32767); output bound |r| < q;
 *   - invntt(ntt(a)) = a * 2^16;
 *   - multiplication: NTT^-1(sum_i NTT(a_i) o NTT(b_i)) through
 *     basemul_acc (k = 1..4) vs a naive O(n^2) negacyclic product mod q,
 *     and basemul_acc's output bound |r| < q on extreme inputs.
 */
#include "arch/backend.h"
#include "kem/poly.h"
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

static void rand_poly(kt_rng *rng, int16_t *a, int32_t lo, int32_t hi)
{
    for (unsigned i = 0; i < 256; i++)
        a[i] = (int16_t)(lo + (int32_t)kt_rng_below(rng, (uint32_t)(hi - lo + 1)));
}

static int body(const char *backend, void *arg)
{
    const struct mlkem_backend *b = mlkem_backend();
    const int before = kt_failures;
    kt_rng rng;
    (void)arg;
    (void)backend;
    kt_rng_init(&rng, "test_ntt");

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
        for (unsigned i = 0; i < 256; i++) {
            CHECK(a[i] > -8 * Q && a[i] < 8 * Q, "ntt bound: r[%u] = %d", i,
                  a[i]);
            CHECK(kt_modq(a[i]) == f[i], "ntt it %u: r[%u] = %d, want %d", it,
                  i, kt_modq(a[i]), f[i]);
        }
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
        b->invntt(a);
        for (unsigned i = 0; i < 256; i++) {
            CHECK(a[i] > -Q && a[i] < Q, "invntt bound: r[%u] = %d", i, a[i]);
            CHECK(kt_modq(a[i]) == kt_modq((int64_t)f[i] * 65536),
                  "invntt it %u: r[%u]", it, i);
        }
    }

    /* Round trip: invntt(ntt(a)) = a * 2^16. */
    for (unsigned it = 0; it < 100; it++) {
        int16_t a[256], r[256];
        rand_poly(&rng, a, -(Q - 1), Q - 1);
        memcpy(r, a, sizeof(r));
        b->ntt(r);
        b->invntt(r);
        for (unsigned i = 0; i < 256; i++)
            CHECK(kt_modq(r[i]) == kt_modq((int64_t)a[i] * 65536),
                  "round trip it %u: coefficient %u", it, i);
    }

    /* NTT-domain multiplication vs naive negacyclic product, k = 1..4. */
    for (unsigned it = 0; it < 40; it++) {
        const unsigned k = 1 + it % 4;
        int16_t a[4][256], bb[4][256], ah[4][256], bh[4][256], r[256];
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
        b->basemul_acc(r, &ah[0][0], &bh[0][0], k);
        for (unsigned j = 0; j < 256; j++)
            CHECK(r[j] > -Q && r[j] < Q, "basemul bound: r[%u] = %d", j, r[j]);
        b->invntt(r);
        for (unsigned j = 0; j < 256; j++)
            CHECK(kt_modq(r[j]) == want[j], "product it %u k %u: coeff %u", it,
                  k, j);
    }

    /* basemul_acc bound at the extremes of its contract, k = 4. */
    {
        static const int16_t ext[4][2] = {
            {Q, Q - 1}, {Q, -(Q - 1)}, {-(Q - 1), Q - 1}, {-(Q - 1), -(Q - 1)}};
        for (unsigned e = 0; e < 4; e++) {
            int16_t a[4][256], bb[4][256], r[256];
            for (unsigned i = 0; i < 4; i++)
                for (unsigned j = 0; j < 256; j++) {
                    a[i][j] = ext[e][0];
                    bb[i][j] = ext[e][1];
                }
            b->basemul_acc(r, &a[0][0], &bb[0][0], 4);
            for (unsigned j = 0; j < 256; j++)
                CHECK(r[j] > -Q && r[j] < Q, "basemul extreme %u: r[%u] = %d",
                      e, j, r[j]);
        }
    }
    return kt_failures - before;
}

int main(void)
{
    /* Appendix A: zeta^BitRev7(i), here times 2^16 and centred. */
    for (unsigned i = 0; i < 128; i++) {
        int32_t z = (int32_t)((int64_t)powmod(17, bitrev7(i)) * 65536 % Q);
        if (z > (Q - 1) / 2)
            z -= Q;
        CHECK(mlkem_zetas[i] == z, "zetas[%u] = %d, want %d", i,
              mlkem_zetas[i], z);
    }
    /* The basemul gammas: zeta^(2 BitRev7(p) + 1) * 2^16, centred. */
    for (unsigned p = 0; p < 128; p++) {
        int32_t g = (int32_t)((int64_t)powmod(17, 2 * bitrev7(p) + 1) * 65536 % Q);
        if (g > (Q - 1) / 2)
            g -= Q;
        CHECK(mlkem_gammas[p] == g, "gammas[%u] = %d, want %d", p,
              mlkem_gammas[p], g);
    }
    for (unsigned i = 0; i < 128; i++)
        CHECK(mlkem_zetas_rev[i] == mlkem_zetas[127 - i] &&
                  mlkem_zetas_rev_qinv[i] == mlkem_zetas_qinv[127 - i],
              "zetas_rev[%u]", i);
    /* The q^-1 twins are checked in test_reduce. */
    CHECK(powmod(17, 128) == Q - 1, "17 is not a primitive 256th root");
    CHECK(test_for_each_backend(body, NULL) == 0, "backend runs failed");
    return kt_finish("test_ntt");
}
