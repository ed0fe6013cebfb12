/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reasons.h: the provider's reason codes, listed once.
 *
 * MLKEM_REASONS(X) expands X(name, number, text) once per reason. It
 * generates prov.h's MLKEM_R_<name> enumeration, errors.c's string tables
 * (ERR_load_strings and the core's get_reason_strings) and the texts the
 * tests expect (test/provider/evp_util.h). Numbers are part of the
 * provider's interface (applications may test ERR_GET_REASON): never
 * renumber, only append. This header depends on nothing, so tests can
 * include it without the provider's other headers.
 */
#ifndef MLKEM_PROVIDER_REASONS_H
#define MLKEM_PROVIDER_REASONS_H

#define MLKEM_REASONS(X)                                                      \
    X(EK_NOT_REDUCED, 101, "encapsulation key not reduced mod q")             \
    X(DK_HASH_MISMATCH, 102, "decapsulation key hash check failed")           \
    X(DK_NOT_REDUCED, 103, "decapsulation key not reduced mod q")             \
    X(BAD_KEY_LENGTH, 104, "invalid key length")                              \
    X(BAD_CIPHERTEXT_LENGTH, 105, "invalid ciphertext length")                \
    X(BAD_SEED_LENGTH, 106, "invalid seed length")                            \
    X(SEED_KEY_MISMATCH, 107, "seed does not match private key")              \
    X(PCT_FAILED, 108, "pairwise consistency test failed")                    \
    X(MISSING_KEY, 109, "missing key")                                        \
    X(KEY_NOT_EMPTY, 110, "key already set")                                  \
    X(BAD_IKME_LENGTH, 111, "invalid ikme length")                            \
    X(OUTPUT_TOO_SMALL, 112, "output buffer too small")                       \
    X(RANDOM_FAILED, 113, "random generation failed")                         \
    X(BAD_ENCODING, 114, "invalid key encoding")                              \
    X(WRONG_ALGORITHM, 115, "wrong algorithm identifier")                     \
    X(BAD_FORMAT_NAME, 116, "unknown key format name")                        \
    X(BAD_PARAMETER, 117, "invalid parameter")                                \
    X(BAD_POINT, 118, "invalid elliptic curve point")                         \
    X(ZERO_SHARED_SECRET, 119, "all-zero X25519 or X448 shared secret")       \
    X(CLASSICAL_FAILED, 120, "classical key exchange failed")                 \
    X(WRONG_KEY_TYPE, 121, "key of the wrong type")                           \
    X(OBJ_CREATE_FAILED, 122, "cannot create object identifier")              \
    X(KEY_MISMATCH, 123, "public key does not match private key")             \
    /* OpenSSL 3.0's allocator raises nothing of its own */                   \
    X(ALLOC_FAILED, 124, "memory allocation failed")

#endif /* MLKEM_PROVIDER_REASONS_H */
