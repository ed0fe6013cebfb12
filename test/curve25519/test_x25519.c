/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_x25519.c: curve25519/x25519.c, the hybrid's X25519 public keys.
 *
 *   rfc7748   the public keys of [RFC7748] §6.1 (Alice's and Bob's);
 *   edge      scalars whose every radix-16 digit is 0, 8 or 15 (the signed
 *             recoding's edge cases: a carry through every digit, the top
 *             digit 8, digits -8), and all-zero and all-one bytes, against
 *             libcrypto's X25519 (the default provider);
 *   random    10,000 scalars from the seeded test_rng against libcrypto's;
 *   shared    the public keys work: X25519 between two key pairs made
 *             here, through libcrypto, agrees on both sides.
 * Counted checks (TEST_CHECK); a failing comparison prints its inputs.
 * Set-up that cannot fail for a sound libcrypto (decoding the hex vectors,
 * libcrypto's own X25519) is TEST_REQUIRE: no later check means anything
 * without it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "curve25519/x25519.h"
#include "test/common/test_util.h"

/* The 32-byte value of a 64-digit hex string (test data). */
static void unhex(uint8_t out[32], const char *s)
{
    TEST_REQUIRE(test_hex_decode(out, 32, s, strlen(s)) == 0,
                 "bad test vector %s", s);
}

static void hex(const char *label, const uint8_t *p)
{
    char buf[65];

    test_hex_encode(buf, p, 32);
    fprintf(stderr, "  %s %s\n", label, buf);
}

static int check(const char *what, const uint8_t *got, const uint8_t *want,
                 const uint8_t *k)
{
    if (TEST_CHECK(memcmp(got, want, 32) == 0, "%s", what))
        return 1;
    hex("k   ", k);
    hex("got ", got);
    hex("want", want);
    return 0;
}

#ifdef MLKEM_X25519_NATIVE

static void ours(uint8_t out[32], const uint8_t k[32])
{
    mlkem_x25519_public(out, k);
}

/* libcrypto's X25519 through EVP: the public key of k. */
static EVP_PKEY *ossl_key(const uint8_t k[32])
{
    EVP_PKEY *p = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);

    TEST_REQUIRE(p != NULL, "libcrypto X25519 private key");
    return p;
}

static void ossl_pub(uint8_t out[32], const uint8_t k[32])
{
    EVP_PKEY *p = ossl_key(k);
    size_t len = 32;

    TEST_REQUIRE(EVP_PKEY_get_raw_public_key(p, out, &len) == 1 && len == 32,
                 "libcrypto X25519 public key");
    EVP_PKEY_free(p);
}

/* [RFC7748] §6.1 (published test vectors). */
static void test_rfc7748(void)
{
    static const char *const v[4] = {
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
        "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
        "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
        "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"};
    uint8_t k[32], want[32], got[32];
    int i;

    for (i = 0; i < 4; i += 2) {
        unhex(k, v[i]);
        unhex(want, v[i + 1]);
        ours(got, k);
        check(i == 0 ? "rfc7748 6.1 Alice's public key" : "rfc7748 6.1 Bob's public key",
              got, want, k);
    }
}

static void test_edge(void)
{
    static const uint8_t nibbles[3] = {0, 8, 15};
    uint8_t k[32], a[32], b[32];
    int i, j, n = 0;

    for (i = 0; i < 29; i++) {
        for (j = 0; j < 32; j++) {
            uint8_t lo = nibbles[(i + j) % 3], hi = nibbles[(i / 3 + j * (1 + i % 3)) % 3];

            k[j] = i == 27 ? 0 : i == 28 ? 0xff : (uint8_t)((hi << 4) | lo);
        }
        ours(a, k);
        ossl_pub(b, k);
        n += check("edge scalar", a, b, k);
    }
    printf("edge: %d scalars agree with libcrypto\n", n);
}

static void test_random(test_rng *rng)
{
    uint8_t k[32], a[32], b[32];
    int i, n = 0;

    for (i = 0; i < 10000; i++) {
        test_rng_bytes(rng, k, 32);
        ours(a, k);
        ossl_pub(b, k);
        n += check("random scalar", a, b, k);
    }
    printf("random: %d scalars agree with libcrypto\n", n);
}

static void derive(uint8_t out[32], const uint8_t k[32], const uint8_t pub[32])
{
    EVP_PKEY *priv = ossl_key(k);
    EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, pub, 32);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
    size_t len = 32;

    TEST_REQUIRE(peer != NULL && ctx != NULL && EVP_PKEY_derive_init(ctx) == 1
                     && EVP_PKEY_derive_set_peer(ctx, peer) == 1
                     && EVP_PKEY_derive(ctx, out, &len) == 1 && len == 32,
                 "libcrypto X25519 derive");
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(priv);
}

static void test_shared(test_rng *rng)
{
    uint8_t ka[32], kb[32], pa[32], pb[32], sa[32], sb[32];
    int i, n = 0;

    for (i = 0; i < 100; i++) {
        test_rng_bytes(rng, ka, 32);
        test_rng_bytes(rng, kb, 32);
        ours(pa, ka);
        ours(pb, kb);
        derive(sa, ka, pb);
        derive(sb, kb, pa);
        n += check("shared secrets agree", sa, sb, ka);
    }
    printf("shared: %d key pairs agree\n", n);
}

int main(void)
{
    test_rng rng;

    test_rng_init(&rng, "test_x25519");
    test_rfc7748();
    test_edge();
    test_random(&rng);
    test_shared(&rng);
    return test_finish("test_x25519");
}

#else

int main(void)
{
    test_skip("test_x25519: no 128-bit integers, X25519 not built");
}

#endif
