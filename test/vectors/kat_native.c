/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kat_native.c: the mlkem-native KAT transcript, checked by its SHA-256.
 *
 * References
 *   [FIPS203]  NIST FIPS 203 (final): Algorithms 16-18.
 *   [MLKEM-N]  pq-code-package/mlkem-native d1b2fe7, META.yml `kat-sha256`
 *              (the transcript format is that of its test/src/gen_KAT.c);
 *              the definition is restated in vectors/mlkem-native/README.md:
 *     seed = bytes 32..95; coins = SHAKE-256(seed), 96 bytes; 100 times:
 *     coins = SHAKE-256(coins), 96 bytes; (pk, sk) = KeyGen_internal(
 *     coins[0:32], coins[32:64]); (ct, ss) = Encaps_internal(pk,
 *     coins[64:96]); Decaps(sk, ct) must be ss; print "pk = <hex>\n",
 *     "sk = ...", "ct = ...", "ss = ..." (lowercase hex). SHA-256 of the
 *     whole text is the published value.
 *
 * The three hashes are inlined, so the test runs without the vectors
 * directory. SHAKE-256 and SHA-256 come from libcrypto (EVP).
 *
 * Usage: vectors_kat_native
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/common/test_util.h"
#include "test/vectors/vectors.h"

#define KAT_TESTS 100

static const char *const kat_sha256[3] = {
    /* ML-KEM-512 */
    "0a2d61707a68c0cac7b2a5005def19994e4e2a25cf8dc512b1254cbaa25473c0",
    /* ML-KEM-768 */
    "8cff42556667edbd0fec7d0b2666d7710d80db71b684f8b4852a37ece2a4c844",
    /* ML-KEM-1024 */
    "f9c6e424f4593cca818493cfe2424178ed0caa2a3945dc1a57cbb5d99e18ad2d",
};

static int mlkem_shake256(uint8_t *out, size_t outlen, const uint8_t *in,
                    size_t inlen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL &&
             EVP_DigestInit_ex(ctx, EVP_shake256(), NULL) == 1 &&
             EVP_DigestUpdate(ctx, in, inlen) == 1 &&
             EVP_DigestFinalXOF(ctx, out, outlen) == 1;
    EVP_MD_CTX_free(ctx);
    return ok ? 0 : -1;
}

/* Feed "<name> = <hex>\n" into the transcript hash. */
static int print_line(EVP_MD_CTX *h, const char *name, const uint8_t *v,
                      size_t len)
{
    char hex[2 * MLKEM_MAX_DK_BYTES + 1];
    test_hex_encode(hex, v, len);
    return EVP_DigestUpdate(h, name, strlen(name)) == 1 &&
                   EVP_DigestUpdate(h, " = ", 3) == 1 &&
                   EVP_DigestUpdate(h, hex, 2 * len) == 1 &&
                   EVP_DigestUpdate(h, "\n", 1) == 1
               ? 0
               : -1;
}

/* One parameter set: its transcript hash must match (counted checks). */
static void run_set(const mlkem_params *p, const char *want,
                    const char *backend)
{
    uint8_t seed[64], coins[96], ss[32], ss2[32], digest[32];
    uint8_t pk[MLKEM_MAX_EK_BYTES], sk[MLKEM_MAX_DK_BYTES];
    uint8_t ct[MLKEM_MAX_CT_BYTES];
    char hex[65];
    unsigned dlen = 0;
    EVP_MD_CTX *h = EVP_MD_CTX_new();
    int r;

    if (h == NULL || EVP_DigestInit_ex(h, EVP_sha256(), NULL) != 1) {
        TEST_FAIL("libcrypto SHA-256 unavailable");
        goto end;
    }
    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)(32 + i);
    if (mlkem_shake256(coins, sizeof(coins), seed, sizeof(seed)) != 0)
        goto evp_err;
    for (int t = 0; t < KAT_TESTS; t++) {
        uint8_t next[96];
        if (mlkem_shake256(next, sizeof(next), coins, sizeof(coins)) != 0)
            goto evp_err;
        memcpy(coins, next, sizeof(coins));
        r = mlkem_keygen_internal(p, pk, sk, coins, coins + 32);
        if (r == MLKEM_OK)
            r = mlkem_encaps_internal(p, ct, ss, pk, p->ek_bytes, coins + 64);
        if (r == MLKEM_OK)
            r = mlkem_decaps_internal(p, ss2, ct, p->ct_bytes, sk,
                                      p->dk_bytes);
        if (r != MLKEM_OK) {
            TEST_FAIL("%s [%s] KAT %d: a call returned %d (%s)", p->name,
                      backend, t, r, mlkem_strerror(r));
            goto end;
        }
        if (memcmp(ss, ss2, 32) != 0) {
            TEST_FAIL("%s [%s] KAT %d: Decaps(sk, ct) != ss", p->name,
                      backend, t);
            goto end;
        }
        if (print_line(h, "pk", pk, p->ek_bytes) != 0 ||
            print_line(h, "sk", sk, p->dk_bytes) != 0 ||
            print_line(h, "ct", ct, p->ct_bytes) != 0 ||
            print_line(h, "ss", ss, 32) != 0)
            goto evp_err;
    }
    if (EVP_DigestFinal_ex(h, digest, &dlen) != 1 || dlen != 32)
        goto evp_err;
    test_hex_encode(hex, digest, 32);
    if (TEST_CHECK(strcmp(hex, want) == 0,
                   "%s [%s]: transcript SHA-256 %s, expected %s", p->name,
                   backend, hex, want))
        printf("  %-12s %d KATs: transcript SHA-256 %s ok\n", p->name,
               KAT_TESTS, hex);
    goto end;
evp_err:
    TEST_FAIL("libcrypto SHAKE-256 / SHA-256 failed");
end:
    EVP_MD_CTX_free(h);
}

static int run_all(const char *backend, void *arg)
{
    const mlkem_params *const *sets = arg;
    const int before = test_failure_count();
    for (int i = 0; i < 3; i++)
        run_set(sets[i], kat_sha256[i], backend);
    return test_failure_count() - before;
}

int main(void)
{
    const mlkem_params *sets[3];

    for (int i = 0; i < 3; i++)
        if ((sets[i] = vec_params(vec_bits[i])) == NULL)
            return test_finish("mlkem-native KAT");
    test_for_each_backend(run_all, sets);
    return test_finish("mlkem-native KAT");
}
