/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hard_util.h: what the hardening tests (test/hardening/) share.
 *
 *   - the provider directory from the command line or the environment
 *     (the library context is test/common's test_env, the checks its
 *     TEST_CHECK family);
 *   - EVP wrappers for the six KEMs the provider serves (ML-KEM-512/768/1024
 *     and the hybrids X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024)
 *     in libssl's call order for the hybrids;
 *   - key encode / decode through OSSL_ENCODER / OSSL_DECODER;
 *   - hard_served_by_mlkem(): the proof that our provider, not another one,
 *     holds a key.
 *
 * Everything goes through OpenSSL's public 3.0 API. Each wrapper returns 1
 * (or a non-NULL object) on success and 0 (NULL) on failure with the
 * OpenSSL error queue left as the failure put it.
 */
#ifndef MLKEM_TEST_HARD_UTIL_H
#define MLKEM_TEST_HARD_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#include "test/common/test_util.h"

#define HARD_PROPQ "provider=mlkem"

/* The KEMs: 0-2 the pure sets, 3-5 the hybrids. */
#define HARD_NALGS 6
typedef struct {
    const char *name;  /* "ML-KEM-768", "X25519MLKEM768" */
    int hybrid;        /* 1: keygen by group, key shares only (no SPKI/PKCS#8) */
    size_t pub, ct, ss; /* encoded public key, ciphertext, secret: bytes */
} hard_alg;
extern const hard_alg hard_algs[HARD_NALGS];

/* The provider directory from argv[1], else $MLKEM_PROVIDER_DIR; exits with
 * a message (status 2) when neither is given. */
const char *hard_moddir(int argc, char **argv);

/* 1 if the key's keymgmt comes from the provider loaded as "mlkem". */
int hard_served_by_mlkem(const EVP_PKEY *k);

/* ---- Keys and KEM operations ---------------------------------------------- */

/* A fresh key pair: the pure sets by EVP_PKEY_keygen (seed: 64 bytes d||z,
 * or NULL for random), the hybrids by group (seed must be NULL). */
EVP_PKEY *hard_keygen(test_env *e, const hard_alg *a, const uint8_t *seed);
/* The encoded public key (pure: ek; hybrid: the client share) into pub
 * (a->pub bytes). */
int hard_get_pub(const EVP_PKEY *k, uint8_t *pub, size_t cap, size_t *len);
/* A public key from its encoding: pure sets by EVP_PKEY_fromdata "pub",
 * hybrids as libssl's server does it (paramgen by group, then
 * EVP_PKEY_set1_encoded_public_key). */
EVP_PKEY *hard_pub_from(test_env *e, const hard_alg *a, const uint8_t *pub,
                        size_t len);
/* Encapsulate to k (ikme: 32 bytes or NULL). *ctlen / *sslen: capacity in,
 * length out. */
int hard_encaps(test_env *e, EVP_PKEY *k, const uint8_t *ikme, uint8_t *ct,
                size_t *ctlen, uint8_t *ss, size_t *sslen);
int hard_decaps(test_env *e, EVP_PKEY *k, const uint8_t *ct, size_t ctlen,
                uint8_t *ss, size_t *sslen);

/* Encode a key (selection EVP_PKEY_KEYPAIR or EVP_PKEY_PUBLIC_KEY) as
 * "DER"/"PEM" in structure "PrivateKeyInfo"/"SubjectPublicKeyInfo"/
 * "EncryptedPrivateKeyInfo" (then pass, 4+ bytes, encrypts with AES-256-CBC).
 * *out is OPENSSL_malloc'ed (OPENSSL_clear_free it). */
int hard_encode(const EVP_PKEY *k, int selection, const char *format,
                const char *structure, const char *pass, uint8_t **out,
                size_t *outlen);
/* Decode any key from DER or PEM through OSSL_DECODER in e's library
 * context (pass: NULL or the passphrase). */
EVP_PKEY *hard_decode(test_env *e, const char *format, const uint8_t *in,
                      size_t len, const char *pass);

#endif /* MLKEM_TEST_HARD_UTIL_H */
