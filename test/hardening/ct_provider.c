/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ct_provider.c: constant-time check of the provider end to end, under
 * valgrind memcheck: every secret is "undefined", so memcheck reports any
 * branch or memory index that depends on one.
 *
 * References
 *   [FIPS203] NIST FIPS 203: §3.3, Algorithms 16-21; which values are
 *             public: ek, the ciphertext, and (from the kernel, common/ct.h)
 *             rho, the §7.3 s-modulus verdict and the PCT outcome.
 *   [HYB]     draft-ietf-tls-ecdhe-mlkem (the hybrids' shares and secret).
 *   ctgrind (A. Langley) and mlkem-native's MLK_CT_TESTING_SECRET: the
 *   method.
 *
 * What is secret, and how it is marked:
 *   - all randomness: this program defines getentropy(3), which OpenSSL 3.0
 *     calls through a weak symbol for every seed it takes (linked with
 *     -rdynamic so libcrypto binds to it). The bytes come from getrandom(2)
 *     and are marked undefined, so every DRBG output of the process is
 *     undefined: d, z and m drawn by the provider (through its child
 *     library context), and the classical private keys of the hybrids
 *     (X25519, P-256, P-384, drawn by the default provider);
 *   - the seed d || z and ikme m given as parameters: marked undefined;
 *   - derived: s, dk, the shared secrets (undefined because their inputs
 *     are).
 * Declassified by this program, as FIPS 203 and the TLS hybrids make them
 * public: ek and the client share (the "encoded-pub-key" it reads back),
 * ciphertexts and server shares, and the shared secrets once both sides
 * have them (to compare). The kernel declassifies rho, the s-modulus
 * verdict and the PCT outcome itself (common/ct.h): the module under test is
 * mlkem.so built from the same provider sources against the MLKEM_TESTING
 * kernel, which carries those annotations (CMake target mlkem_ct).
 *
 * Outside this check: OpenSSL's own code. Reports whose innermost frame
 * is in libcrypto (its DRBG, bignum and EC internals handling the now
 * undefined randomness) are suppressed (ct.supp says why, entry by entry);
 * mlkem.so's own frames are all checked, as are libc's (memcpy, memcmp)
 * when mlkem.so calls them.
 *
 * Modes:
 *   (none)      keygen (random and from a seed), encaps (random and with
 *               ikme), decaps (valid and rejected) for ML-KEM-512/768/1024,
 *               and the hybrids' client keygen, server encaps, client
 *               decaps; exits 1 if memcheck counted any error.
 *   --negative  the negative control: one decapsulation, then a test-only
 *               function that branches on the shared secret without
 *               declassifying it. Exits 0 only if memcheck flagged it
 *               (VALGRIND_COUNT_ERRORS grew), which proves that secrets
 *               reach the provider's outputs still marked and that a
 *               secret-dependent branch is reported.
 * Backend: MLKEM_BACKEND picks it (portable, avx2; valgrind 3.19 cannot run
 * AVX-512); the provider's build info must name the requested one.
 *
 * Usage: valgrind -q --error-exitcode=1 --suppressions=ct.supp \
 *            hardening_ct_provider <module dir> [--negative]
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <valgrind/memcheck.h>

#include "test/hardening/hard_util.h"

#define SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))

/* OpenSSL 3.0's seed source (providers/implementations/rands/seeding/
 * rand_unix.c) calls getentropy through a weak reference: this definition
 * takes its place, and everything random becomes secret. */
static unsigned long entropy_calls;

/* Default visibility: the build hides symbols (-fvisibility=hidden), and
 * this one must be exported to take glibc's place. */
__attribute__((visibility("default"))) int getentropy(void *buf, size_t len);
__attribute__((visibility("default"))) int getentropy(void *buf, size_t len)
{
    size_t done = 0;
    entropy_calls++;
    if (len > 256)
        return -1;
    while (done < len) {
        long n = syscall(SYS_getrandom, (char *)buf + done, len - done, 0);
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    SECRET(buf, len);
    return 0;
}

static const char *backend_of(test_env *e)
{
    static char info[256];
    const char *bi = NULL;
    OSSL_PARAM p[2];
    p[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO,
                                         (char **)&bi, 0);
    p[1] = OSSL_PARAM_construct_end();
    if (!OSSL_PROVIDER_get_params(e->mlkem, p) || bi == NULL)
        return "(unknown)";
    snprintf(info, sizeof(info), "%s", bi);
    return info;
}

/* The pure sets: every operation with secrets marked. */
static void check_pure(test_env *e, const hard_alg *a)
{
    uint8_t seed[64], ikme[32], pub[1568], ct[1568], ct2[1568], ss1[32],
        ss2[32], ss3[32];
    size_t publen = 0, ctlen = sizeof(ct), ct2len = sizeof(ct2), l1 = 32,
           l2 = 32, l3 = 32;
    EVP_PKEY *k, *kr, *pk;

    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof(ikme); i++)
        ikme[i] = (uint8_t)(i * 13 + 5);
    SECRET(seed, sizeof(seed));
    SECRET(ikme, sizeof(ikme));

    /* KeyGen from a secret seed, and from the RBG. */
    k = hard_keygen(e, a, seed);
    kr = hard_keygen(e, a, NULL);
    if (!TEST_CHECK(k != NULL && kr != NULL, "%s keygen", a->name))
        goto end;
    TEST_CHECK(hard_get_pub(k, pub, sizeof(pub), &publen), "%s ek", a->name);
    PUBLIC(pub, publen); /* ek is public */
    /* Encaps to the public key (as a peer would hold it): with a secret
     * ikme, and with m from the RBG. */
    pk = hard_pub_from(e, a, pub, publen);
    TEST_CHECK(pk != NULL && hard_encaps(e, pk, ikme, ct, &ctlen, ss1, &l1)
                   && hard_encaps(e, pk, NULL, ct2, &ct2len, ss3, &l3),
               "%s encaps", a->name);
    EVP_PKEY_free(pk);
    PUBLIC(ct, ctlen);
    PUBLIC(ct2, ct2len);
    /* Decaps: valid, then rejected. */
    TEST_CHECK(hard_decaps(e, k, ct, ctlen, ss2, &l2), "%s decaps", a->name);
    PUBLIC(ss1, 32);
    PUBLIC(ss2, 32);
    TEST_CHECK(memcmp(ss1, ss2, 32) == 0, "%s: secrets differ", a->name);
    ct[5] ^= 0x10;
    l2 = 32;
    TEST_CHECK(hard_decaps(e, k, ct, ctlen, ss2, &l2), "%s decaps (rejected)",
               a->name);
    PUBLIC(ss2, 32);
    TEST_CHECK(memcmp(ss1, ss2, 32) != 0, "%s: tampered ciphertext accepted",
               a->name);
    /* The random key pair too. */
    l2 = 32;
    ct2len = sizeof(ct2);
    l3 = 32;
    TEST_CHECK(hard_encaps(e, kr, NULL, ct2, &ct2len, ss3, &l3)
                   && hard_decaps(e, kr, (PUBLIC(ct2, ct2len), ct2), ct2len, ss2,
                                  &l2),
               "%s random key", a->name);
    PUBLIC(ss2, 32);
    PUBLIC(ss3, 32);
    TEST_CHECK(memcmp(ss2, ss3, 32) == 0, "%s: random key secrets differ",
               a->name);
end:
    EVP_PKEY_free(k);
    EVP_PKEY_free(kr);
}

/* A hybrid in libssl's order: client keygen, server share import and
 * encapsulation, client decapsulation. */
static void check_hybrid(test_env *e, const hard_alg *a)
{
    uint8_t pub[1700], ct[1700], ss1[80], ss2[80];
    size_t publen = 0, ctlen = sizeof(ct), l1 = sizeof(ss1), l2 = sizeof(ss2);
    EVP_PKEY *client = hard_keygen(e, a, NULL), *server = NULL;

    if (!TEST_CHECK(client != NULL && hard_get_pub(client, pub, sizeof(pub),
                                                   &publen),
                    "%s client keygen", a->name))
        goto end;
    PUBLIC(pub, publen); /* the client share goes on the wire */
    server = hard_pub_from(e, a, pub, publen);
    if (!TEST_CHECK(server != NULL
                        && hard_encaps(e, server, NULL, ct, &ctlen, ss1, &l1),
                    "%s server encaps", a->name))
        goto end;
    PUBLIC(ct, ctlen); /* the server share goes on the wire */
    TEST_CHECK(hard_decaps(e, client, ct, ctlen, ss2, &l2), "%s client decaps",
               a->name);
    PUBLIC(ss1, l1);
    PUBLIC(ss2, l2);
    TEST_CHECK(l1 == a->ss && l2 == l1 && memcmp(ss1, ss2, l1) == 0,
               "%s: secrets differ", a->name);
end:
    EVP_PKEY_free(client);
    EVP_PKEY_free(server);
}

/* The negative control's secret-dependent branch: a test-only function,
 * kept out of line so memcheck's report names it. */
__attribute__((noinline)) static int ct_negative_control_branch(
    const uint8_t *secret)
{
    volatile int r = 0;
    if (secret[0] & 1) /* the branch memcheck must report */
        r = 1;
    return r;
}

static int negative_control(test_env *e)
{
    const hard_alg *a = &hard_algs[1];
    uint8_t ct[1568], ss[32], ss2[32];
    size_t ctlen = sizeof(ct), l = 32, l2 = 32;
    EVP_PKEY *k = hard_keygen(e, a, NULL);
    unsigned before, after;

    if (!TEST_CHECK(k != NULL && hard_encaps(e, k, NULL, ct, &ctlen, ss, &l),
                    "negative control: keygen / encaps"))
        return 1;
    PUBLIC(ct, ctlen);
    TEST_CHECK(hard_decaps(e, k, ct, ctlen, ss2, &l2), "negative control: decaps");
    EVP_PKEY_free(k);
    before = VALGRIND_COUNT_ERRORS;
    (void)ct_negative_control_branch(ss2); /* ss2 NOT declassified */
    after = VALGRIND_COUNT_ERRORS;
    printf("negative control: memcheck errors %u -> %u\n", before, after);
    if (!TEST_CHECK(after > before, "negative control: a branch on the shared "
                    "secret from EVP_PKEY_decapsulate was NOT flagged (secrets "
                    "lose their marking, or memcheck is not checking)"))
        return 1;
    printf("negative control: flagged, as it must be\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *moddir = hard_moddir(argc, argv);
    const char *want = getenv("MLKEM_BACKEND");
    int negative = argc > 2 && strcmp(argv[2], "--negative") == 0;
    test_env e;
    const char *bi;

    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "FAIL: this test must run under valgrind memcheck\n");
        return 1;
    }
    if (!test_env_open(&e, moddir, NULL))
        return 1;
    bi = backend_of(&e);
    printf("provider: %s\n", bi);
    if (want != NULL && *want != '\0')
        TEST_CHECK(strstr(bi, want) != NULL,
                   "MLKEM_BACKEND=%s requested, the provider runs \"%s\"", want,
                   bi);
    if (negative) {
        int r = negative_control(&e);
        test_env_close(&e);
        return r != 0 ? 1 : test_finish("ct_provider --negative");
    }
    for (int i = 0; i < HARD_NALGS; i++) {
        if (hard_algs[i].hybrid)
            check_hybrid(&e, &hard_algs[i]);
        else
            check_pure(&e, &hard_algs[i]);
        printf("%s: done, memcheck errors so far %u\n", hard_algs[i].name,
               (unsigned)VALGRIND_COUNT_ERRORS);
    }
    test_env_close(&e);
    /* The randomness really came through the marking getentropy. */
    TEST_CHECK(entropy_calls > 0, "libcrypto never called this getentropy: the "
               "RBG outputs were not marked secret");
    printf("getentropy calls (secret seeds): %lu\n", entropy_calls);
    TEST_CHECK(VALGRIND_COUNT_ERRORS == 0, "memcheck reported %u error(s) above",
               (unsigned)VALGRIND_COUNT_ERRORS);
    return test_finish("ct_provider");
}
