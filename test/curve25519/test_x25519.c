/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_x25519.c: curve25519/x25519.c, the hybrid's X25519 public keys.
 *
 *   rfc7748   the public keys of [RFC7748] §6.1 (Alice's and Bob's);
 *   edge      scalars whose every radix-16 digit is 0, 8 or 15 (the signed
 *             recoding's edge cases: a carry through every digit, the top
 *             digit 8, digits -8), and all-zero and all-one bytes, against
 *             libcrypto's X25519 (the default provider);
 *   random    10,000 random scalars against libcrypto's;
 *   shared    the public keys work: X25519 between two key pairs made
 *             here, through libcrypto, agrees on both sides.
 * Exit 0 when every check holds; a failing check prints its inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "curve25519/x25519.h"
#include "test/common/test_util.h"

static int failures;

/* The 32-byte value of a 64-digit hex string (test data: abort if not). */
static void unhex(uint8_t out[32], const char *s)
{
    if (test_hex_decode(out, 32, s, strlen(s)) != 0)
        abort();
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
    if (memcmp(got, want, 32) == 0)
        return 1;
    fprintf(stderr, "FAIL %s\n", what);
    hex("k   ", k);
    hex("got ", got);
    hex("want", want);
    failures++;
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

    if (p == NULL)
        abort();
    return p;
}

static void ossl_pub(uint8_t out[32], const uint8_t k[32])
{
    EVP_PKEY *p = ossl_key(k);
    size_t len = 32;

    if (EVP_PKEY_get_raw_public_key(p, out, &len) != 1 || len != 32)
        abort();
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

static void test_random(void)
{
    uint8_t k[32], a[32], b[32];
    int i, n = 0;

    for (i = 0; i < 10000; i++) {
        if (RAND_bytes(k, 32) != 1)
            abort();
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

    if (peer == NULL || ctx == NULL || EVP_PKEY_derive_init(ctx) != 1
        || EVP_PKEY_derive_set_peer(ctx, peer) != 1
        || EVP_PKEY_derive(ctx, out, &len) != 1 || len != 32)
        abort();
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(priv);
}

static void test_shared(void)
{
    uint8_t ka[32], kb[32], pa[32], pb[32], sa[32], sb[32];
    int i, n = 0;

    for (i = 0; i < 100; i++) {
        if (RAND_bytes(ka, 32) != 1 || RAND_bytes(kb, 32) != 1)
            abort();
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
    test_rfc7748();
    test_edge();
    test_random();
    test_shared();
    if (failures != 0) {
        fprintf(stderr, "test_x25519: %d failures\n", failures);
        return 1;
    }
    printf("test_x25519: all checks passed\n");
    return 0;
}

#else

int main(void)
{
    printf("test_x25519: no 128-bit integers, X25519 not built\n");
    return 77;
}

#endif
