/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hybrid.h: the hybrid key object shared by hybrid_kmgmt.c (keymgmt),
 * hybrid_kem.c (KEM) and hybrid_ec.c (the group table and the classical
 * half); internal to the provider (prov.h declares the dispatch tables).
 *
 * References
 *   [HYB]     draft-ietf-tls-ecdhe-mlkem (X25519MLKEM768, SecP256r1MLKEM768,
 *             SecP384r1MLKEM1024): share and secret layouts, §3 and §4.
 *   [OSSL35]  OpenSSL 3.5 mlx_kmgmt.c: X448MLKEM1024, a KEM of the same
 *             construction (no TLS codepoint), ML-KEM part first.
 *   [FIPS203] NIST FIPS 203 (ML-KEM): §7.2 encapsulation key check.
 *   [RFC7748] X25519 and X448, §6.1 / §6.2 (the all-zero shared secret
 *             check).
 *   [SP56A]   NIST SP 800-56A Rev. 3, §5.6.2.3.4 (ECC partial public key
 *             validation; enough for P-256 / P-384, whose cofactor is 1).
 *
 * A hybrid key is an ML-KEM key (held by the kernel, kem/mlkem.h, in
 * OPENSSL_secure memory) plus a classical key (an EVP_PKEY from the default
 * provider, fetched in the provider's child library context). The two halves
 * are always set together: a key is empty, public (the peer's share, on the
 * TLS server) or a full key pair (generated, on the TLS client).
 *
 * Wire layouts (OpenSSL 3.5 mlx_kmgmt.c / mlx_kem.c agree byte for byte):
 *   X25519MLKEM768       ML-KEM part first: ek || u, ct || u, K || ss_x25519
 *   X448MLKEM1024        ML-KEM part first: ek || u, ct || u, K || ss_x448
 *   SecP256r1MLKEM768    ECDH part first:   Q || ek, Q || ct, ss_ecdh || K
 *   SecP384r1MLKEM1024   ECDH part first:   Q || ek, Q || ct, ss_ecdh || K
 * EC points are SEC1 uncompressed (0x04 || X || Y). The secret is the plain
 * concatenation in share order (no KDF).
 */
#ifndef MLKEM_PROVIDER_HYBRID_H
#define MLKEM_PROVIDER_HYBRID_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "kem/mlkem.h"
#include "provider/prov.h"

#define MLKEM_HYBRID_MAX_EC_PUB 97 /* P-384 uncompressed point */
#define MLKEM_HYBRID_MAX_EC_SS 56  /* X448 u-coordinate */
#define MLKEM_HYBRID_MAX_PUB (MLKEM_MAX_EK_BYTES + MLKEM_HYBRID_MAX_EC_PUB)

/* One row per hybrid (the table is in hybrid_ec.c). */
typedef struct {
    const char *name;      /* keymgmt, KEM and TLS group name */
    const char *ec_alg;    /* "X25519", "X448" or "EC" (default provider
                              keymgmt) */
    const char *ec_group;  /* NULL for X25519 / X448, else "P-256" / "P-384" */
    mlkem_variant variant; /* ML-KEM-768 or ML-KEM-1024 */
    size_t ec_pub_bytes;   /* 32 / 56 / 65 / 97 */
    size_t ec_ss_bytes;    /* 32 / 56 / 32 / 48 */
    int mlkem_first;       /* 1: ML-KEM part first in shares and secret */
} mlkem_hybrid_info;

extern const mlkem_hybrid_info mlkem_hybrid_x25519mlkem768;
extern const mlkem_hybrid_info mlkem_hybrid_secp256r1mlkem768;
extern const mlkem_hybrid_info mlkem_hybrid_secp384r1mlkem1024;
extern const mlkem_hybrid_info mlkem_hybrid_x448mlkem1024;

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_hybrid_info *info;
    const mlkem_params *params; /* ML-KEM parameter set of info->variant */
    mlkem_key *ml;              /* OPENSSL_secure_zalloc'ed; ml->flags */
    EVP_PKEY *ec;               /* NULL (empty key), the peer's public key,
                                   or our own key pair (kept for decaps) */
    int ec_priv;                /* 1 if ec holds our private key */
    uint8_t ec_pub[MLKEM_HYBRID_MAX_EC_PUB]; /* encoding of ec's public key */
    char *propq;                /* for the classical fetches; may be NULL */
} MLKEM_HYBRID_KEY;

/* 1 if the key holds both public halves / both private halves. */
int mlkem_hybrid_has_pub(const MLKEM_HYBRID_KEY *k);
int mlkem_hybrid_has_priv(const MLKEM_HYBRID_KEY *k);

/* Share sizes: client (public key) and server (ciphertext) shares, secret. */
size_t mlkem_hybrid_pub_bytes(const mlkem_hybrid_info *info);
size_t mlkem_hybrid_ct_bytes(const mlkem_hybrid_info *info);
size_t mlkem_hybrid_ss_bytes(const mlkem_hybrid_info *info);

/* A fresh classical key pair of the key's group, with its public encoding
 * (info->ec_pub_bytes bytes) in pub. tmpl: NULL, or any key of the group
 * (e.g. the peer's), whose key management is then reused instead of
 * fetching one by name. 1 or 0 (error raised). */
int mlkem_hybrid_ec_generate(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                             EVP_PKEY **out, uint8_t *pub);

/* Parse an untrusted classical public key of exactly info->ec_pub_bytes:
 * EC points must be uncompressed, on the curve and not the point at infinity
 * [SP56A] (MLKEM_R_BAD_POINT otherwise); an X25519 / X448 u of small order, which
 * would make the secret all zero, is MLKEM_R_ZERO_SHARED_SECRET [RFC7748
 * §6.1]. tmpl: NULL or a key of the group, as for mlkem_hybrid_ec_generate.
 * 1 or 0 (error raised). */
int mlkem_hybrid_ec_import_pub(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                               const uint8_t *pub, size_t len, EVP_PKEY **out);

/* ECDH / X25519 / X448 between our private key and the peer's public key (which
 * came from mlkem_hybrid_ec_import_pub, or is the client's validated share).
 * Writes info->ec_ss_bytes to ss. X25519 / X448: an all-zero result is
 * MLKEM_R_ZERO_SHARED_SECRET [RFC7748 §6.1]. On failure ss is zeroed.
 * 1 or 0 (error raised). */
int mlkem_hybrid_ec_derive(const MLKEM_HYBRID_KEY *k, EVP_PKEY *priv,
                           EVP_PKEY *peer, uint8_t *ss);

#endif /* MLKEM_PROVIDER_HYBRID_H */
