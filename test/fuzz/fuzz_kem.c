/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_kem.c: libFuzzer target for encapsulation to an attacker-chosen
 * encoded public key and decapsulation of attacker-chosen ciphertexts of
 * any length, for ML-KEM-512/768/1024 and the hybrids X25519MLKEM768,
 * SecP256r1MLKEM768 and SecP384r1MLKEM1024.
 *
 * References
 *   [FIPS203] NIST FIPS 203: §7.2 (encapsulation key check), §7.3
 *             (ciphertext length), Algorithm 18 lines 7-11 (implicit
 *             rejection: K-bar = J(z || c) for c != c').
 *   [HYB]     draft-ietf-tls-ecdhe-mlkem (share layouts).
 *
 * Input: byte 0: algorithm (% 6, hard_algs order); byte 1: bit 0 selects
 * decapsulation (else encapsulation); the rest is the encoded public key
 * (set as "pub" for the pure sets, as libssl's server sets a client share
 * for the hybrids: paramgen, EVP_PKEY_set1_encoded_public_key) or the
 * ciphertext, handed to a key pair made at start-up from a fixed seed
 * (hybrids: a random key pair, as a TLS client has).
 *
 * Oracles: no crash, leak or sanitizer report. Encapsulation: an accepted
 * key is served by mlkem, exports exactly the bytes given, and gives a
 * ciphertext and secret of the set's sizes; a rejected one leaves an
 * error. Decapsulation: only the exact ciphertext length is accepted
 * (error otherwise; an empty input is refused by libcrypto itself, without
 * an error, before the provider is called); for the pure sets the secret is J(z || c) (computed
 * here from z, the last 32 bytes of dk, with SHAKE256 of the default
 * provider) unless c is the start-up key's own valid ciphertext, whose
 * secret is known; a hybrid's secret has the combined length.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>

#include "test/fuzz/fuzz_common.h"

typedef struct {
    EVP_PKEY *key;
    uint8_t z[32];
    uint8_t ct[1700], ss[80]; /* a valid ciphertext and its secret */
    size_t ctlen, sslen;
} fuzz_key;

static fuzz_key keys[HARD_NALGS];

static void init_keys(test_env *e)
{
    static int done;
    static const uint8_t seed[64] = { 0xf0, 0x0d };
    static const uint8_t ikme[32] = { 0x1c, 0xe0 };
    if (done)
        return;
    for (int i = 0; i < HARD_NALGS; i++) {
        const hard_alg *a = &hard_algs[i];
        fuzz_key *k = &keys[i];
        k->key = hard_keygen(e, a, a->hybrid ? NULL : seed);
        TEST_REQUIRE(k->key != NULL, "%s: start-up key", a->name);
        fuzz_served_by_mlkem(k->key, "start-up key");
        k->ctlen = sizeof(k->ct);
        k->sslen = sizeof(k->ss);
        TEST_REQUIRE(hard_encaps(e, k->key, a->hybrid ? NULL : ikme, k->ct,
                                     &k->ctlen, k->ss, &k->sslen),
                         "%s: start-up encaps", a->name);
        if (!a->hybrid) {
            uint8_t dk[3168];
            size_t dklen = 0;
            TEST_REQUIRE(EVP_PKEY_get_octet_string_param(
                                 k->key, OSSL_PKEY_PARAM_PRIV_KEY, dk, sizeof(dk),
                                 &dklen) == 1 && dklen >= 32,
                             "%s: dk", a->name);
            memcpy(k->z, dk + dklen - 32, 32); /* dk = ... || H(ek) || z */
            OPENSSL_cleanse(dk, sizeof(dk));
        }
    }
    done = 1;
}

static void shake256_2(test_env *e, const uint8_t *a, size_t alen,
                       const uint8_t *b, size_t blen, uint8_t out[32])
{
    EVP_MD *md = EVP_MD_fetch(e->libctx, "SHAKE256", "provider=default");
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    TEST_REQUIRE(md != NULL && c != NULL && EVP_DigestInit_ex(c, md, NULL) == 1
                         && EVP_DigestUpdate(c, a, alen) == 1
                         && EVP_DigestUpdate(c, b, blen) == 1
                         && EVP_DigestFinalXOF(c, out, 32) == 1,
                     "SHAKE256");
    EVP_MD_CTX_free(c);
    EVP_MD_free(md);
}

static void do_encaps(test_env *e, const hard_alg *a, const uint8_t *pub,
                      size_t len)
{
    uint8_t ct[1700], ss[80], got[1700];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss), gotlen = 0;
    EVP_PKEY *k = hard_pub_from(e, a, pub, len);

    if (k == NULL) {
        fuzz_rejected("public key rejected");
        return;
    }
    fuzz_served_by_mlkem(k, "public key accepted");
    TEST_REQUIRE(len == a->pub, "%s: a %zu-byte public key was accepted",
                     a->name, len);
    TEST_REQUIRE(hard_get_pub(k, got, sizeof(got), &gotlen) && gotlen == len
                         && memcmp(got, pub, len) == 0,
                     "%s: the key does not export the bytes given", a->name);
    if (hard_encaps(e, k, NULL, ct, &ctlen, ss, &sslen)) {
        TEST_REQUIRE(ctlen == a->ct && sslen == a->ss,
                         "%s: encaps gave %zu / %zu bytes", a->name, ctlen, sslen);
        fuzz_count("encapsulated");
    } else {
        /* A hybrid's classical half can still fail (e.g. an X25519 share
         * of small order gives an all-zero secret): it must say so. */
        fuzz_rejected("encaps rejected");
    }
    EVP_PKEY_free(k);
}

static void do_decaps(test_env *e, int i, const uint8_t *ct, size_t len)
{
    const hard_alg *a = &hard_algs[i];
    fuzz_key *k = &keys[i];
    uint8_t ss[80], kbar[32];
    size_t sslen = sizeof(ss);

    if (!hard_decaps(e, k->key, ct, len, ss, &sslen)) {
        if (len == 0) {
            /* EVP_PKEY_decapsulate refuses an empty input itself, silently,
             * before the provider sees it (OpenSSL 3.0 crypto/evp/kem.c). */
            ERR_clear_error();
            fuzz_count("empty ciphertext");
            return;
        }
        fuzz_rejected("decaps rejected");
        return;
    }
    TEST_REQUIRE(len == a->ct && sslen == a->ss,
                     "%s: decaps of %zu bytes gave %zu bytes", a->name, len, sslen);
    if (a->hybrid) {
        fuzz_count("hybrid decapsulated");
        return;
    }
    if (len == k->ctlen && memcmp(ct, k->ct, len) == 0) {
        TEST_REQUIRE(memcmp(ss, k->ss, 32) == 0,
                         "%s: the valid ciphertext gave the wrong secret", a->name);
        fuzz_count("valid ciphertext");
        return;
    }
    shake256_2(e, k->z, 32, ct, len, kbar);
    TEST_REQUIRE(memcmp(ss, kbar, 32) == 0,
                     "%s: a ciphertext other than the known valid one was not "
                     "implicitly rejected", a->name);
    fuzz_count("implicitly rejected");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    test_env *e = fuzz_env();
    fuzz_in in = { data, size };
    int i = fuzz_byte(&in) % HARD_NALGS;
    int decaps = fuzz_byte(&in) & 1;

    init_keys(e);
    if (decaps)
        do_decaps(e, i, in.p, in.n);
    else
        do_encaps(e, &hard_algs[i], in.p, in.n);
    ERR_clear_error();
    return 0;
}
