/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_reduce.c: kem/reduce.h over its whole documented input ranges
 * (in the style of Go's field_test.go: exhaustive, not sampled).
 *
 *   mlkem_montgomery_reduce: every a with |a| < q * 2^15 (about 218 million
 *     values): |r| < q and r * 2^16 = a (mod q).
 *   mlkem_barrett_reduce: every int16_t a: r = a (mod q) and
 *     -(q-1)/2 <= r <= (q-1)/2.
 *   mlkem_fqmul_pre(a, b, b q^-1): every int16_t a, for every constant b
 *     the kernel uses (zetas, gammas, 2^32 mod q, 1441): equal to
 *     mlkem_montgomery_reduce(a * b), |r| < q.
 *   mlkem_caddq: every a in (-q, q): r in [0, q), r = a (mod q).
 *   The constants: q * QINV = 1 (mod 2^16), MONT = 2^16, MONT2 = 2^32,
 *   BARRETT_V = round(2^26 / q).
 */
#include "kem/reduce.h"

#include "kem/poly.h"

#include "test/kem/kem_test.h"

int main(void)
{
    const int32_t q = 3329;

    TEST_CHECK(((uint32_t)(uint16_t)MLKEM_QINV * (uint32_t)q & 0xffff) == 1,
          "QINV is not q^-1 mod 2^16");
    TEST_CHECK(kt_modq(MLKEM_MONT) == (65536 % q), "MONT != 2^16 mod q");
    TEST_CHECK(MLKEM_MONT >= -(q - 1) / 2 && MLKEM_MONT <= (q - 1) / 2,
          "MONT not centred");
    TEST_CHECK(kt_modq(MLKEM_MONT2) == (int32_t)((1ull << 32) % (uint64_t)q),
          "MONT2 != 2^32 mod q");
    TEST_CHECK(MLKEM_BARRETT_V == ((1 << 26) + q / 2) / q, "BARRETT_V");

    /* Montgomery: |a| < q * 2^15. r * 2^16 - a must be a multiple of q. */
    {
        const int32_t lim = q << 15;
        long bad = 0;
        for (int32_t a = -lim + 1; a < lim; a++) {
            int32_t r = mlkem_montgomery_reduce(a);
            if (r <= -q || r >= q || ((int64_t)r * 65536 - a) % q != 0) {
                if (bad++ < 5)
                    TEST_CHECK(0, "montgomery_reduce(%d) = %d", a, r);
            }
        }
        TEST_CHECK(bad == 0, "montgomery_reduce: %ld bad inputs", bad);
    }

    /* Barrett: every int16_t. */
    {
        long bad = 0;
        for (int32_t a = -32768; a <= 32767; a++) {
            int32_t r = mlkem_barrett_reduce((int16_t)a);
            if (r < -(q - 1) / 2 || r > (q - 1) / 2 || kt_modq(r) != kt_modq(a)) {
                if (bad++ < 5)
                    TEST_CHECK(0, "barrett_reduce(%d) = %d", a, r);
            }
        }
        TEST_CHECK(bad == 0, "barrett_reduce: %ld bad inputs", bad);
    }

    /* fqmul through Montgomery: a * b * 2^-16 for all int16 a and every
     * zeta-sized b at the extremes of its range. */
    {
        const int16_t bs[] = {-1664, -1, 0, 1, 1664, 1353};
        long bad = 0;
        for (unsigned i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
            for (int32_t a = -32768; a <= 32767; a++) {
                int32_t r = mlkem_fqmul((int16_t)a, bs[i]);
                if (r <= -q || r >= q ||
                    ((int64_t)r * 65536 - (int64_t)a * bs[i]) % q != 0)
                    bad++;
            }
        }
        TEST_CHECK(bad == 0, "fqmul: %ld bad inputs", bad);
    }

    /* fqmul_pre with every constant of kem/ntt_template.h and kem/poly.c
     * (the derived zeta layouts hold these same values, checked in
     * test_ntt): the zetas, the gammas, the tomont factor and NTT^-1's
     * folded last-layer factors. */
    {
        int16_t bs[2 * 128 + 3], bqs[2 * 128 + 3];
        unsigned n = 0;
        long bad = 0;
        for (unsigned i = 0; i < 128; i++) {
            bs[n] = mlkem_zetas[i];
            bqs[n++] = mlkem_zetas_qinv[i];
            bs[n] = mlkem_gammas[i];
            bqs[n++] = mlkem_gammas_qinv[i];
        }
        bs[n] = MLKEM_MONT2;
        bqs[n++] = MLKEM_MONT2_QINV;
        bs[n] = 1441; /* NTT^-1's final factor f = 2^32 / 128 mod q */
        bqs[n++] = -10079;
        bs[n] = 1397; /* zetas[1] * f * 2^-16 mod q */
        bqs[n++] = 5237;
        for (unsigned i = 0; i < n; i++) {
            TEST_CHECK(mlkem_mullo16(bs[i], (int16_t)MLKEM_QINV) == bqs[i],
                  "constant %d: q^-1 twin %d is wrong", bs[i], bqs[i]);
            TEST_CHECK(bs[i] >= -(q - 1) / 2 && bs[i] <= (q - 1) / 2,
                  "constant %d not centred", bs[i]);
            for (int32_t a = -32768; a <= 32767; a++) {
                int16_t r = mlkem_fqmul_pre((int16_t)a, bs[i], bqs[i]);
                if (r != mlkem_montgomery_reduce(a * bs[i]) || r <= -q || r >= q)
                    bad++;
            }
        }
        TEST_CHECK(bad == 0, "fqmul_pre: %ld bad inputs", bad);
    }

    /* caddq on (-q, q). */
    for (int32_t a = -q + 1; a < q; a++) {
        int32_t r = mlkem_caddq((int16_t)a);
        TEST_CHECK(r >= 0 && r < q && kt_modq(r) == kt_modq(a), "caddq(%d) = %d",
              a, r);
    }

    return test_finish("test_reduce");
}
