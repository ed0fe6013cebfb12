/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ct.c: constant-time check with valgrind memcheck (the approach of
 * ctgrind / mlkem-native's MLK_CT_TESTING_SECRET).
 *
 * Secret inputs (d, z, m, and the s and z parts of dk) are marked
 * "undefined" with MLKEM_CT_SECRET; memcheck then reports every branch and
 * every memory index that depends on them. The kernel declassifies only what
 * is public by definition (common/ct.h); this program declassifies the public
 * outputs it passes on (ek, c, the shared secrets it compares). CTest runs
 * it under `valgrind --error-exitcode=1`; run directly it is a functional
 * smoke test. Covered: KeyGen (byte and key API), Encaps, Decaps with a
 * valid and a tampered ciphertext (implicit rejection), dk parsing, PCT,
 * for all three parameter sets, on every backend the CPU (as valgrind
 * presents it: AVX2, no AVX-512) can run.
 */
#include "common/ct.h"
#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/kem/kem_test.h"

#if !defined(MLKEM_CT_VALGRIND)
int main(void)
{
    test_skip("valgrind/memcheck.h not available: no constant-time check");
}
#else

static int rng_secret(void *arg, uint8_t *buf, size_t len)
{
    test_rng_bytes((test_rng *)arg, buf, len);
    MLKEM_CT_SECRET(buf, len);
    return 1;
}

static int run(const char *backend, void *arg)
{
    test_rng rng;
    static mlkem_key key;
    const int failures0 = test_failure_count();
    (void)arg;
    test_rng_init(&rng, backend);

    for (unsigned v = 0; v < 3; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        const size_t k = p->k;
        uint8_t d[32], z[32], m[32], K[32], K2[32];
        uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
        uint8_t c[MLKEM_MAX_CT_BYTES];

        test_rng_bytes(&rng, d, 32);
        test_rng_bytes(&rng, z, 32);
        test_rng_bytes(&rng, m, 32);
        MLKEM_CT_SECRET(d, 32);
        MLKEM_CT_SECRET(z, 32);
        MLKEM_CT_SECRET(m, 32);

        TEST_CHECK(mlkem_keygen_internal(p, ek, dk, d, z) == MLKEM_OK, "keygen");
        /* ek and the public parts of dk are public outputs. */
        MLKEM_CT_DECLASSIFY(ek, p->ek_bytes);
        MLKEM_CT_DECLASSIFY(dk + 384 * k, p->ek_bytes + 32);

        TEST_CHECK(mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m) == MLKEM_OK,
              "encaps");
        MLKEM_CT_DECLASSIFY(c, p->ct_bytes);

        TEST_CHECK(mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes) ==
                  MLKEM_OK,
              "decaps");
        c[3] ^= 1; /* implicit rejection path */
        TEST_CHECK(mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes) ==
                  MLKEM_OK,
              "decaps (rejected)");
        c[3] ^= 1;

        mlkem_key_init(&key, p);
        TEST_CHECK(mlkem_key_generate(&key, d, z) == MLKEM_OK, "key_generate");
        TEST_CHECK(mlkem_key_pct(&key, rng_secret, &rng) == MLKEM_OK, "pct");
        TEST_CHECK(mlkem_key_set_dk(&key, dk, p->dk_bytes) == MLKEM_OK, "set_dk");
        TEST_CHECK(mlkem_key_decaps(&key, K2, c, p->ct_bytes) == MLKEM_OK,
              "key_decaps");
        TEST_CHECK(mlkem_check_dk(p, dk, p->dk_bytes) == MLKEM_OK, "check_dk");
        mlkem_key_cleanse(&key);

        /* The functional result, compared after declassification. */
        MLKEM_CT_DECLASSIFY(K, 32);
        MLKEM_CT_DECLASSIFY(K2, 32);
        TEST_CHECK(memcmp(K, K2, 32) == 0, "%s: shared secrets differ", p->name);
    }
    return test_failure_count() - failures0;
}

int main(void)
{
    printf("running %s valgrind\n", RUNNING_ON_VALGRIND ? "under" : "without");
    test_for_each_backend(run, NULL);
    return test_finish("test_ct");
}
#endif
