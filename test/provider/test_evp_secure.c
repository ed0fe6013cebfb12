/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_secure.c: the provider keeps key material in OpenSSL's secure
 * heap. With a secure heap set up (CRYPTO_secure_malloc_init), its usage
 * (CRYPTO_secure_used) must grow by
 *   - the key object (about 14 KiB) while a key exists,
 *   - 64 bytes while a key generation context holds a "seed" (d || z),
 *   - 32 bytes while a KEM context holds a pending "ikme" (m), also in a
 *     duplicated context,
 * and return to where it was once each is used or freed (the seed and ikme
 * are one-shot). Plain-heap copies would leave the secure heap untouched.
 *
 * The secure heap is process-wide, so this suite runs in its own process
 * (CTest provider_evp_secure_*).
 */
#include "test/provider/evp_util.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define HEAP_SIZE (1u << 20) /* 1 MiB: a few keys of about 14 KiB */
#define MIN_BLOCK 16

static void seed_in_secure_heap(test_env *e)
{
    uint8_t seed[64];
    OSSL_PARAM params[2];
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *k = NULL;
    size_t base, with_seed, with_key;

    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)(0x30 + i);
    base = CRYPTO_secure_used();
    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, "ML-KEM-768", EVP_TEST_PROPQ);
    if (!TEST_CHECK(ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1, "keygen_init")) {
        EVP_PKEY_CTX_free(ctx);
        return;
    }
    params[0] = OSSL_PARAM_construct_octet_string("seed", seed, sizeof(seed));
    params[1] = OSSL_PARAM_construct_end();
    TEST_CHECK(EVP_PKEY_CTX_set_params(ctx, params) == 1, "set seed");
    with_seed = CRYPTO_secure_used();
    TEST_CHECK(with_seed >= base + 64, "a pending keygen seed takes %zu bytes of "
          "the secure heap, expected >= 64", with_seed - base);
    TEST_CHECK(EVP_PKEY_keygen(ctx, &k) == 1, "keygen from seed");
    with_key = CRYPTO_secure_used();
    /* The seed was used once and freed; the key object lives there. */
    TEST_CHECK(with_key >= base + 14000, "the key takes %zu bytes of the secure "
          "heap, expected about 14 KiB", with_key - base);
    EVP_PKEY_CTX_free(ctx);
    TEST_CHECK(CRYPTO_secure_used() == with_key, "freeing the keygen context "
          "after use released %zu more bytes (the seed was not one-shot)",
          with_key - CRYPTO_secure_used());
    EVP_PKEY_free(k);
    TEST_CHECK(CRYPTO_secure_used() == base, "after the key is freed, %zu bytes "
          "remain in use", CRYPTO_secure_used() - base);

    /* A context freed before keygen releases its seed too. */
    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, "ML-KEM-512", EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1
              && EVP_PKEY_CTX_set_params(ctx, params) == 1
              && CRYPTO_secure_used() >= base + 64,
          "seed set on an unused context");
    EVP_PKEY_CTX_free(ctx);
    TEST_CHECK(CRYPTO_secure_used() == base, "an unused context left %zu bytes",
          CRYPTO_secure_used() - base);
}

static void ikme_in_secure_heap(test_env *e)
{
    uint8_t ikme[32], ct[1088], ss[32];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss), base, with_ikme;
    OSSL_PARAM params[2];
    EVP_PKEY *k = evp_keygen(e, "ML-KEM-768", NULL, 0);
    EVP_PKEY_CTX *ctx = NULL, *dup = NULL;

    if (!TEST_CHECK(k != NULL, "keygen"))
        return;
    memset(ikme, 0x5a, sizeof(ikme));
    params[0] = OSSL_PARAM_construct_octet_string("ikme", ikme, sizeof(ikme));
    params[1] = OSSL_PARAM_construct_end();
    base = CRYPTO_secure_used();
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k, EVP_TEST_PROPQ);
    if (!TEST_CHECK(ctx != NULL && EVP_PKEY_encapsulate_init(ctx, params) == 1,
               "encapsulate_init with ikme"))
        goto end;
    with_ikme = CRYPTO_secure_used();
    TEST_CHECK(with_ikme >= base + 32, "a pending ikme takes %zu bytes of the "
          "secure heap, expected >= 32", with_ikme - base);
    dup = EVP_PKEY_CTX_dup(ctx);
    TEST_CHECK(dup != NULL && CRYPTO_secure_used() >= with_ikme + 32,
          "a duplicated context's ikme takes %zu more bytes of the secure "
          "heap, expected >= 32", CRYPTO_secure_used() - with_ikme);
    EVP_PKEY_CTX_free(dup);
    TEST_CHECK(CRYPTO_secure_used() == with_ikme, "freeing the duplicate");
    TEST_CHECK(EVP_PKEY_encapsulate(ctx, ct, &ctlen, ss, &sslen) == 1,
          "encapsulate with ikme");
    /* ikme is one-shot: used and wiped by the encapsulation. */
    TEST_CHECK(CRYPTO_secure_used() == base, "after encapsulation, the ikme's %zu "
          "bytes are still held", CRYPTO_secure_used() - base);
end:
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(k);
}

void evp_suite_secure(test_env *e)
{
    if (!TEST_CHECK(CRYPTO_secure_malloc_init(HEAP_SIZE, MIN_BLOCK) != 0,
               "CRYPTO_secure_malloc_init"))
        return;
    seed_in_secure_heap(e);
    ikme_in_secure_heap(e);
    ERR_clear_error();
}
