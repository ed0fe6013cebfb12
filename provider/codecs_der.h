/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codecs_der.h: the DER forms of ML-KEM keys. libcrypto builds and parses
 * the outer SubjectPublicKeyInfo and PrivateKeyInfo; this file adds only
 * the ML-KEM private-key CHOICE (and OpenSSL 3.5's three extra private
 * forms) inside PrivateKeyInfo's privateKey, and the rules that make a
 * reader strict.
 *
 * References
 *   [SPKI]   RFC 5280 §4.1.2.7, SubjectPublicKeyInfo.
 *   [PKCS8]  RFC 5958 §2, OneAsymmetricKey (v0 = PrivateKeyInfo, RFC 5208).
 *   [LAMPS]  draft-ietf-lamps-kyber-certificates: id-alg-ml-kem-* OIDs with
 *            absent parameters; ML-KEM-PrivateKey ::= CHOICE {
 *              seed [0] IMPLICIT OCTET STRING (SIZE (64)),
 *              expandedKey OCTET STRING,
 *              both SEQUENCE { seed OCTET STRING (SIZE (64)),
 *                              expandedKey OCTET STRING } }
 *   [OSSL35] OpenSSL 3.5 ml_kem_codecs.c: the same layouts, plus the
 *            "oqskeypair" (dk || ek), "bare-seed" and "bare-priv" forms.
 *
 * Everything here is byte work on public layout information: lengths and
 * tags are public, so branching on them is fine. Key bytes are copied or
 * pointed to, never inspected (except the oqskeypair ek comparison, on
 * public data).
 *
 * Readers accept DER only: the input must be byte for byte what the writer
 * here produces for the parsed key (libcrypto's d2i accepts some BER, such
 * as long-form lengths; re-encoding and comparing rejects it). They return
 * MLKEM_DER_OK, MLKEM_DER_NOT_MINE (the input is not an ML-KEM key of this
 * parameter set in this structure: let other decoders try it), or a
 * MLKEM_R_* reason (the input names this parameter set's OID but is
 * malformed: a fatal decoding error). They leave no error on the queue.
 */
#ifndef MLKEM_PROVIDER_CODECS_DER_H
#define MLKEM_PROVIDER_CODECS_DER_H

#include <stddef.h>
#include <stdint.h>

#include "kem/mlkem.h"
#include "provider/prov.h"

#define MLKEM_DER_OK 0
#define MLKEM_DER_NOT_MINE (-1)

/* Largest DER object any ML-KEM structure can be (oqskeypair ML-KEM-1024
 * is 4766 bytes); readers see inputs longer than this as not theirs. */
#define MLKEM_DER_MAX_INPUT 8192

/* SubjectPublicKeyInfo for ek (p->ek_bytes) into a new OPENSSL_malloc'ed
 * buffer *der of *len bytes. 1, or 0 (no memory). */
int mlkem_der_spki_encode(const mlkem_params *p, const uint8_t *ek,
                          uint8_t **der, size_t *len);

/* PrivateKeyInfo in format fmt into a new OPENSSL_secure_malloc'ed buffer
 * *der of *len bytes (free it with OPENSSL_secure_clear_free). seed (64
 * bytes) is read by the seed formats, dk by the dk formats, ek by
 * oqskeypair; the others may be NULL. 1, or 0 for a missing input, an
 * unknown format or no memory. */
int mlkem_der_pkcs8_encode(const mlkem_params *p, mlkem_fmt fmt,
                           const uint8_t *seed, const uint8_t *dk,
                           const uint8_t *ek, uint8_t **der, size_t *len);

/* Parse SubjectPublicKeyInfo; on MLKEM_DER_OK *ek points into in
 * (p->ek_bytes). */
int mlkem_der_spki_read(const mlkem_params *p, const uint8_t *in, size_t len,
                        const uint8_t **ek);

/* A parsed private key: pointers into the input. */
typedef struct {
    mlkem_fmt fmt;
    const uint8_t *seed; /* 64 bytes, or NULL */
    const uint8_t *dk;   /* p->dk_bytes, or NULL */
    const uint8_t *ek;   /* p->ek_bytes (oqskeypair only), or NULL */
} mlkem_der_priv;

/* Parse PrivateKeyInfo (v0, no attributes) holding any of the six forms. */
int mlkem_der_pkcs8_read(const mlkem_params *p, const uint8_t *in, size_t len,
                         mlkem_der_priv *out);

/* OpenSSL 3.5's name of a format ("seed-priv", ...), NULL if unknown. */
const char *mlkem_der_fmt_name(mlkem_fmt fmt);

#endif /* MLKEM_PROVIDER_CODECS_DER_H */
