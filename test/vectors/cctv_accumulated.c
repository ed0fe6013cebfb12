/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cctv_accumulated.c: the CCTV "accumulated" ML-KEM test (pq-crystals
 * derived), FIPS 203 final expected values from C2SP/CCTV PR #13.
 *
 * References
 *   [FIPS203] NIST FIPS 203 (final): Algorithms 16-18.
 *   [CCTV]    C2SP/CCTV ML-KEM README, "Accumulated pq-crystals vectors";
 *             the exact definition is restated in vectors/cctv/README.md:
 *     rng = SHAKE-128("") read sequentially; per test read d, z, m (32 B
 *     each) and ct (a random ciphertext of the set's length);
 *     (ek, dk) = KeyGen_internal(d, z); (K, c) = Encaps_internal(ek, m);
 *     Decaps(dk, c) must be K; K' = Decaps(dk, ct) (implicit rejection);
 *     a running SHAKE-128 absorbs ek || dk || c || K || K'; after N tests
 *     the first 32 bytes it squeezes are the published hash.
 *
 * The hashes are short published figures, so they are inlined below and the
 * test runs without the vectors directory.
 *
 * Usage: vectors_cctv_accumulated [--skip-unless-env NAME] N [bits...]
 *   N = 10000 or 1000000 (the published counts); bits = 512 768 1024
 *   (default all three). --skip-unless-env makes the run a visible SKIP
 *   unless environment variable NAME is "1" (used for the 1M runs, so a bare
 *   `ctest` does not start an hour-long job).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/common/test_shake.h"
#include "test/common/test_util.h"
#include "test/vectors/vectors.h"

typedef struct {
    unsigned bits;
    unsigned long n;
    const char *hash; /* FIPS 203 final, C2SP/CCTV PR #13 */
} expected;

static const expected table[] = {
    {512, 10000,
     "705dcffc87f4e67e35a09dcaa31772e86f3341bd3ccf1e78a5fef99ae6a35a13"},
    {768, 10000,
     "f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1"},
    {1024, 10000,
     "e3bf82b013307b2e9d47dde791ff6dfc82e694e6382404abdb948b908b75bad5"},
    {512, 1000000,
     "21dd330d4355f2ae2876b9fa2b9de62ecaf76aca1d598de8db2b467d36e36a6a"},
    {768, 1000000,
     "3b108396a277f2952ff3243a985c9709bcb95788c39b7b36a2c4e19d1a41e51e"},
    {1024, 1000000,
     "6377c4f0ecfdb32e63f7b58227960828784fe0b3e0e5e5e9f77be300f003512a"},
};

typedef struct {
    unsigned long n;
    const mlkem_params *sets[3];
    const char *want[3];
    int nsets;
} job;

/* One parameter set, n tests: the hash must match (counted checks). */
static void run_set(const mlkem_params *p, unsigned long n, const char *want,
                   const char *backend)
{
    uint8_t d[32], z[32], m[32], K[32], K2[32], Kbar[32], out[32];
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], ct[MLKEM_MAX_CT_BYTES];
    char hex[65];
    test_shake rng;
    EVP_MD *md = EVP_MD_fetch(NULL, "SHAKE128", NULL);
    EVP_MD_CTX *acc = EVP_MD_CTX_new();
    double t0 = test_now();
    int r;

    if (md == NULL || acc == NULL || EVP_DigestInit_ex(acc, md, NULL) != 1) {
        TEST_FAIL("libcrypto SHAKE128 unavailable");
        goto end;
    }
    test_shake128_init(&rng); /* absorbs the empty string */
    for (unsigned long i = 0; i < n; i++) {
        test_shake_squeeze(&rng, d, 32);
        test_shake_squeeze(&rng, z, 32);
        test_shake_squeeze(&rng, m, 32);
        test_shake_squeeze(&rng, ct, p->ct_bytes);

        r = mlkem_keygen_internal(p, ek, dk, d, z);
        if (r == MLKEM_OK)
            r = mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m);
        if (r == MLKEM_OK)
            r = mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes);
        if (r == MLKEM_OK)
            r = mlkem_decaps_internal(p, Kbar, ct, p->ct_bytes, dk,
                                      p->dk_bytes);
        if (r != MLKEM_OK) {
            TEST_FAIL("%s [%s] test %lu: a call returned %d (%s)", p->name,
                      backend, i, r, mlkem_strerror(r));
            goto end;
        }
        if (memcmp(K, K2, 32) != 0) {
            TEST_FAIL("%s [%s] test %lu: Decaps(dk, c) != K from Encaps",
                      p->name, backend, i);
            goto end;
        }
        if (EVP_DigestUpdate(acc, ek, p->ek_bytes) != 1 ||
            EVP_DigestUpdate(acc, dk, p->dk_bytes) != 1 ||
            EVP_DigestUpdate(acc, c, p->ct_bytes) != 1 ||
            EVP_DigestUpdate(acc, K, 32) != 1 ||
            EVP_DigestUpdate(acc, Kbar, 32) != 1) {
            TEST_FAIL("libcrypto SHAKE128 update failed");
            goto end;
        }
    }
    if (EVP_DigestFinalXOF(acc, out, sizeof(out)) != 1) {
        TEST_FAIL("libcrypto SHAKE128 final failed");
        goto end;
    }
    test_hex_encode(hex, out, sizeof(out));
    if (TEST_CHECK(want != NULL && strcmp(hex, want) == 0,
                   "%s [%s] %lu tests: accumulated hash %s, expected %s",
                   p->name, backend, n, hex,
                   want ? want : "(none published)"))
        printf("  %-12s %lu tests: %s ok (%.2f s)\n", p->name, n, hex,
               test_now() - t0);
end:
    EVP_MD_CTX_free(acc);
    EVP_MD_free(md);
}

static int run_all(const char *backend, void *arg)
{
    const job *j = arg;
    const int before = test_failure_count();
    for (int i = 0; i < j->nsets; i++)
        run_set(j->sets[i], j->n, j->want[i], backend);
    return test_failure_count() - before;
}

int main(int argc, char **argv)
{
    static const uint8_t stream_start[16] = {
        0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d,
        0x61, 0x60, 0x45, 0x50, 0x76, 0x05, 0x85, 0x3e};
    job j;
    int a = 1;
    char *end;
    uint8_t first[16];
    test_shake x;

    memset(&j, 0, sizeof(j));
    if (argc >= 3 && strcmp(argv[1], "--skip-unless-env") == 0) {
        const char *v = getenv(argv[2]);
        if (v == NULL || strcmp(v, "1") != 0)
            test_skip("long accumulated run: set %s=1 to run it (the "
                      "cctv-1m preset does)", argv[2]);
        a = 3;
    }
    if (a >= argc) {
        fprintf(stderr, "usage: %s [--skip-unless-env NAME] N [512|768|1024 "
                "...]\n", argv[0]);
        return 2;
    }
    j.n = strtoul(argv[a], &end, 10);
    if (*end != '\0' || j.n == 0) {
        fprintf(stderr, "bad test count '%s'\n", argv[a]);
        return 2;
    }
    for (a++; a < argc; a++) {
        unsigned long bits = strtoul(argv[a], &end, 10);
        if (*end != '\0' || j.nsets == 3 ||
            (bits != 512 && bits != 768 && bits != 1024)) {
            fprintf(stderr, "bad parameter set '%s'\n", argv[a]);
            return 2;
        }
        j.sets[j.nsets++] = vec_params((unsigned)bits);
    }
    if (j.nsets == 0) /* none named: all three */
        for (int i = 0; i < 3; i++)
            j.sets[j.nsets++] = vec_params(vec_bits[i]);
    for (int i = 0; i < j.nsets; i++) {
        if (j.sets[i] == NULL) /* vec_params counted why */
            return test_finish("accumulated");
        for (size_t t = 0; t < sizeof(table) / sizeof(table[0]); t++)
            if (table[t].bits == j.sets[i]->bits && table[t].n == j.n)
                j.want[i] = table[t].hash;
        if (j.want[i] == NULL) {
            fprintf(stderr, "no published hash for %s with N = %lu (use "
                    "10000 or 1000000)\n", j.sets[i]->name, j.n);
            return 2;
        }
    }

    /* The test's own SHAKE (the RNG) must agree with libcrypto and start
     * the stream the README quotes. */
    if (!TEST_CHECK(test_shake_selftest() == 0,
                    "the test's SHAKE disagrees with libcrypto"))
        return test_finish("accumulated");
    test_shake128_init(&x);
    test_shake_squeeze(&x, first, sizeof(first));
    if (!TEST_CHECK(test_bytes_eq("SHAKE-128 stream start", first,
                                  stream_start, sizeof(first)),
                    "SHAKE-128(\"\") does not start as the README quotes"))
        return test_finish("accumulated");

    printf("CCTV accumulated, %lu tests per set\n", j.n);
    test_for_each_backend(run_all, &j);
    return test_finish("accumulated");
}
