/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codecs_der.c: ML-KEM SubjectPublicKeyInfo and PrivateKeyInfo (see
 * codecs_der.h for the references and the layouts).
 *
 * Outer structures: libcrypto. SPKI is written with X509_PUBKEY_set0_param
 * and i2d_X509_PUBKEY; PrivateKeyInfo with PKCS8_pkey_set0 and
 * i2d_PKCS8_PRIV_KEY_INFO, and read back with d2i_PKCS8_PRIV_KEY_INFO.
 * SPKI is read with a two-field ASN.1 template (AlgorithmIdentifier, BIT
 * STRING) rather than d2i_X509_PUBKEY: OpenSSL 3.x's d2i_X509_PUBKEY also
 * decodes the key it parsed through the decoders of the default library
 * context, which would call this provider's SPKI decoder again from inside
 * itself. AlgorithmIdentifier parameters are absent (V_ASN1_UNDEF) [LAMPS].
 *
 * By hand: the ML-KEM private-key CHOICE inside the privateKey OCTET
 * STRING, and a lenient look at the first headers (through libcrypto's
 * ASN1_get_object) that tells our input from another algorithm's even when
 * it is truncated, so that a damaged ML-KEM key fails with our reason
 * instead of "unsupported".
 *
 * Private keys: the DER a writer returns is in secure memory. libcrypto
 * builds the outer structure around a zero placeholder of the CHOICE's
 * length (privateKey is the last field of a v0 PrivateKeyInfo without
 * attributes, so its content is the last bytes of the encoding), and the
 * secret bytes are then written straight into the secure buffer. The
 * reader lets d2i_PKCS8_PRIV_KEY_INFO parse the input (its copy of the
 * private key is cleansed when freed) and points into the caller's input.
 */
#include "provider/codecs_der.h"

#include <string.h>

#include <openssl/asn1.h>
#include <openssl/asn1t.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#define TAG_OCTET_STRING 0x04
#define TAG_SEQUENCE 0x30
#define TAG_CTX0_PRIM 0x80 /* [0] IMPLICIT OCTET STRING: the seed choice */

/* id-alg-ml-kem-N as an ASN1_OBJECT (prov.h's dotted OIDs); free it. */
static ASN1_OBJECT *set_oid(const mlkem_params *p)
{
    const char *oid = NULL;

#define OID_CASE(bits, v)                                                      \
    case v:                                                                    \
        oid = MLKEM_PROV_OID(bits);                                            \
        break;
    switch (p->variant) {
        MLKEM_PROV_SETS(OID_CASE)
    }
#undef OID_CASE
    return oid != NULL ? OBJ_txt2obj(oid, 1) : NULL;
}

/* ---- SubjectPublicKeyInfo --------------------------------------------------- */

int mlkem_der_spki_encode(const mlkem_params *p, const uint8_t *ek,
                          uint8_t **der, size_t *len)
{
    X509_PUBKEY *pub = X509_PUBKEY_new();
    ASN1_OBJECT *oid = set_oid(p);
    unsigned char *key = OPENSSL_memdup(ek, p->ek_bytes);
    unsigned char *out = NULL;
    int n = 0;

    *der = NULL;
    *len = 0;
    if (pub == NULL || oid == NULL || key == NULL
        || !X509_PUBKEY_set0_param(pub, oid, V_ASN1_UNDEF, NULL, key,
                                   (int)p->ek_bytes)) {
        ASN1_OBJECT_free(oid);
        OPENSSL_free(key);
        X509_PUBKEY_free(pub);
        return 0;
    }
    /* oid and key belong to pub now; BIT STRING with 0 unused bits. */
    n = i2d_X509_PUBKEY(pub, &out);
    X509_PUBKEY_free(pub);
    if (n <= 0)
        return 0;
    *der = out;
    *len = (size_t)n;
    return 1;
}

/* SEQUENCE { AlgorithmIdentifier, BIT STRING }, without X509_PUBKEY's
 * decoding of the key (see the top of the file). */
typedef struct {
    X509_ALGOR *algorithm;
    ASN1_BIT_STRING *public_key;
} MLKEM_SPKI;

ASN1_SEQUENCE(MLKEM_SPKI) = {
    ASN1_SIMPLE(MLKEM_SPKI, algorithm, X509_ALGOR),
    ASN1_SIMPLE(MLKEM_SPKI, public_key, ASN1_BIT_STRING)
} static_ASN1_SEQUENCE_END(MLKEM_SPKI)

/* ---- The private-key CHOICE (by hand) ---------------------------------------- */

/* Bytes taken by a tag and a DER length of len (len < 65536 here). */
static size_t hdr_len(size_t len)
{
    return len < 0x80 ? 2 : len < 0x100 ? 3 : 4;
}

static size_t tlv_len(size_t len)
{
    return hdr_len(len) + len;
}

static uint8_t *put_hdr(uint8_t *out, uint8_t tag, size_t len)
{
    *out++ = tag;
    if (len < 0x80) {
        *out++ = (uint8_t)len;
    } else if (len < 0x100) {
        *out++ = 0x81;
        *out++ = (uint8_t)len;
    } else {
        *out++ = 0x82;
        *out++ = (uint8_t)(len >> 8);
        *out++ = (uint8_t)len;
    }
    return out;
}

static uint8_t *put_tlv(uint8_t *out, uint8_t tag, const uint8_t *v, size_t len)
{
    out = put_hdr(out, tag, len);
    memcpy(out, v, len);
    return out + len;
}

/* Length of the ML-KEM-PrivateKey bytes inside the privateKey OCTET STRING
 * (0 for an unknown format). */
static size_t inner_len(const mlkem_params *p, mlkem_fmt fmt)
{
    switch (fmt) {
    case MLKEM_FMT_SEED_PRIV:
        return tlv_len(tlv_len(MLKEM_SEED_BYTES) + tlv_len(p->dk_bytes));
    case MLKEM_FMT_SEED_ONLY:
        return tlv_len(MLKEM_SEED_BYTES);
    case MLKEM_FMT_PRIV_ONLY:
        return tlv_len(p->dk_bytes);
    case MLKEM_FMT_OQS_KEYPAIR:
        return tlv_len(p->dk_bytes + p->ek_bytes);
    case MLKEM_FMT_BARE_SEED:
        return MLKEM_SEED_BYTES;
    case MLKEM_FMT_BARE_PRIV:
        return p->dk_bytes;
    default:
        return 0;
    }
}

/* Write the CHOICE (inner_len(p, fmt) bytes). The inputs were checked. */
static void put_inner(uint8_t *o, const mlkem_params *p, mlkem_fmt fmt,
                      const uint8_t *seed, const uint8_t *dk,
                      const uint8_t *ek)
{
    switch (fmt) {
    case MLKEM_FMT_SEED_PRIV: /* both SEQUENCE { seed, expandedKey } */
        o = put_hdr(o, TAG_SEQUENCE,
                    tlv_len(MLKEM_SEED_BYTES) + tlv_len(p->dk_bytes));
        o = put_tlv(o, TAG_OCTET_STRING, seed, MLKEM_SEED_BYTES);
        put_tlv(o, TAG_OCTET_STRING, dk, p->dk_bytes);
        break;
    case MLKEM_FMT_SEED_ONLY: /* seed [0] IMPLICIT OCTET STRING */
        put_tlv(o, TAG_CTX0_PRIM, seed, MLKEM_SEED_BYTES);
        break;
    case MLKEM_FMT_PRIV_ONLY: /* expandedKey OCTET STRING */
        put_tlv(o, TAG_OCTET_STRING, dk, p->dk_bytes);
        break;
    case MLKEM_FMT_OQS_KEYPAIR: /* OCTET STRING dk || ek */
        o = put_hdr(o, TAG_OCTET_STRING, p->dk_bytes + p->ek_bytes);
        memcpy(o, dk, p->dk_bytes);
        memcpy(o + p->dk_bytes, ek, p->ek_bytes);
        break;
    case MLKEM_FMT_BARE_SEED:
        memcpy(o, seed, MLKEM_SEED_BYTES);
        break;
    case MLKEM_FMT_BARE_PRIV:
        memcpy(o, dk, p->dk_bytes);
        break;
    default:
        break;
    }
}

/* ---- PrivateKeyInfo ----------------------------------------------------------- */

/*
 * PrivateKeyInfo { version 0, id-alg-ml-kem-N, privateKey = il zero bytes }
 * from libcrypto into a new secure buffer (*der, *len). The privateKey
 * content is its last il bytes.
 */
static int pkcs8_outer(const mlkem_params *p, size_t il, uint8_t **der,
                       size_t *len)
{
    PKCS8_PRIV_KEY_INFO *p8 = PKCS8_PRIV_KEY_INFO_new();
    ASN1_OBJECT *oid = set_oid(p);
    unsigned char *placeholder = OPENSSL_zalloc(il);
    unsigned char *out = NULL, *q;
    int n = 0, ok = 0;

    *der = NULL;
    *len = 0;
    if (p8 == NULL || oid == NULL || placeholder == NULL
        || !PKCS8_pkey_set0(p8, oid, 0, V_ASN1_UNDEF, NULL, placeholder,
                            (int)il)) {
        ASN1_OBJECT_free(oid);
        OPENSSL_free(placeholder);
        goto end;
    }
    /* oid and placeholder belong to p8 now. */
    if ((n = i2d_PKCS8_PRIV_KEY_INFO(p8, NULL)) <= 0
        || (size_t)n < il
        || (out = OPENSSL_secure_malloc((size_t)n)) == NULL)
        goto end;
    q = out;
    if (i2d_PKCS8_PRIV_KEY_INFO(p8, &q) != n) {
        OPENSSL_secure_clear_free(out, (size_t)n);
        goto end;
    }
    *der = out;
    *len = (size_t)n;
    ok = 1;
end:
    PKCS8_PRIV_KEY_INFO_free(p8);
    return ok;
}

int mlkem_der_pkcs8_encode(const mlkem_params *p, mlkem_fmt fmt,
                           const uint8_t *seed, const uint8_t *dk,
                           const uint8_t *ek, uint8_t **der, size_t *len)
{
    size_t il = inner_len(p, fmt);
    int need_seed = fmt == MLKEM_FMT_SEED_PRIV || fmt == MLKEM_FMT_SEED_ONLY
                    || fmt == MLKEM_FMT_BARE_SEED;
    int need_dk = fmt == MLKEM_FMT_SEED_PRIV || fmt == MLKEM_FMT_PRIV_ONLY
                  || fmt == MLKEM_FMT_OQS_KEYPAIR || fmt == MLKEM_FMT_BARE_PRIV;

    *der = NULL;
    *len = 0;
    if (il == 0 || (need_seed && seed == NULL) || (need_dk && dk == NULL)
        || (fmt == MLKEM_FMT_OQS_KEYPAIR && ek == NULL))
        return 0;
    if (!pkcs8_outer(p, il, der, len))
        return 0;
    put_inner(*der + *len - il, p, fmt, seed, dk, ek);
    return 1;
}

/* ---- Readers -------------------------------------------------------------------- */

/*
 * Classify possibly truncated input: MLKEM_DER_OK when, after the outer
 * SEQUENCE header (and in PrivateKeyInfo the version INTEGER), an
 * AlgorithmIdentifier SEQUENCE starts with this set's OID; otherwise
 * MLKEM_DER_NOT_MINE (another algorithm, another ML-KEM set, another
 * structure, or unreadable). Headers come from ASN1_get_object, whose
 * "content runs past the end" is tolerated here; the errors it raises are
 * dropped.
 */
static int is_mine(const mlkem_params *p, const uint8_t *in, size_t len,
                   int pkcs8)
{
    const unsigned char *q = in, *start;
    long left = (long)len, clen;
    int tag, cls, r, mine = 0;
    ASN1_OBJECT *oid = NULL;

    ERR_set_mark();
    /* outer SEQUENCE */
    start = q;
    r = ASN1_get_object(&q, &clen, &tag, &cls, left);
    if (q == start || !(r & V_ASN1_CONSTRUCTED) || tag != V_ASN1_SEQUENCE
        || cls != V_ASN1_UNIVERSAL)
        goto end;
    left -= (long)(q - start);
    /* version INTEGER, whole */
    if (pkcs8) {
        start = q;
        r = ASN1_get_object(&q, &clen, &tag, &cls, left);
        if (q == start || (r & 0x80) || tag != V_ASN1_INTEGER)
            goto end;
        left -= (long)(q - start) + clen;
        q += clen;
    }
    /* AlgorithmIdentifier SEQUENCE, then the OID, whole */
    start = q;
    r = ASN1_get_object(&q, &clen, &tag, &cls, left);
    if (q == start || !(r & V_ASN1_CONSTRUCTED) || tag != V_ASN1_SEQUENCE)
        goto end;
    left -= (long)(q - start);
    start = q;
    r = ASN1_get_object(&q, &clen, &tag, &cls, left);
    if (q == start || (r & 0x80) || tag != V_ASN1_OBJECT)
        goto end;
    if ((oid = set_oid(p)) != NULL && (size_t)clen == (size_t)OBJ_length(oid)
        && memcmp(q, OBJ_get0_data(oid), (size_t)clen) == 0)
        mine = 1;
end:
    ASN1_OBJECT_free(oid);
    ERR_pop_to_mark();
    return mine ? MLKEM_DER_OK : MLKEM_DER_NOT_MINE;
}

int mlkem_der_spki_read(const mlkem_params *p, const uint8_t *in, size_t len,
                        const uint8_t **ek)
{
    const unsigned char *q = in;
    MLKEM_SPKI *spki = NULL;
    uint8_t *canon = NULL;
    size_t canon_len = 0;
    int r = MLKEM_R_BAD_ENCODING;

    if (len > MLKEM_DER_MAX_INPUT || is_mine(p, in, len, 0) != MLKEM_DER_OK)
        return MLKEM_DER_NOT_MINE;
    ERR_set_mark();
    spki = (MLKEM_SPKI *)ASN1_item_d2i(NULL, &q, (long)len,
                                       ASN1_ITEM_rptr(MLKEM_SPKI));
    if (spki == NULL || q != in + len)
        goto end; /* malformed, truncated, or trailing bytes */
    if ((size_t)ASN1_STRING_length(spki->public_key) != p->ek_bytes) {
        r = MLKEM_R_BAD_KEY_LENGTH;
        goto end;
    }
    /* DER, 0 unused bits, parameters absent: the input is exactly what we
     * would write for this ek. */
    if (!mlkem_der_spki_encode(p, ASN1_STRING_get0_data(spki->public_key),
                               &canon, &canon_len)
        || canon_len != len || memcmp(canon, in, len) != 0)
        goto end;
    *ek = in + len - p->ek_bytes;
    r = MLKEM_DER_OK;
end:
    OPENSSL_free(canon);
    ASN1_item_free((ASN1_VALUE *)spki, ASN1_ITEM_rptr(MLKEM_SPKI));
    ERR_pop_to_mark();
    return r;
}

/* A DER TLV cursor for the private-key CHOICE: strict (definite, minimal
 * lengths, low tag numbers), every container consumed exactly. */
typedef struct {
    const uint8_t *p;
    size_t n; /* bytes left */
} der_cur;

/* Take one TLV with tag `tag` from c into *v: 1, or 0 (malformed, another
 * tag, or past the end). At most two length octets (all < 64 KiB here). */
static int take(der_cur *c, uint8_t tag, der_cur *v)
{
    size_t len, hl;

    if (c->n < 2 || c->p[0] != tag)
        return 0;
    if (c->p[1] < 0x80) {
        len = c->p[1];
        hl = 2;
    } else if (c->p[1] == 0x81) {
        if (c->n < 3 || c->p[2] < 0x80)
            return 0;
        len = c->p[2];
        hl = 3;
    } else if (c->p[1] == 0x82) {
        if (c->n < 4 || c->p[2] == 0)
            return 0;
        len = ((size_t)c->p[2] << 8) | c->p[3];
        hl = 4;
    } else {
        return 0; /* indefinite (0x80) or longer than we ever need */
    }
    if (len > c->n - hl)
        return 0;
    v->p = c->p + hl;
    v->n = len;
    c->p += hl + len;
    c->n -= hl + len;
    return 1;
}

/* The ML-KEM-PrivateKey CHOICE, or one of the bare / oqskeypair forms. The
 * six forms have distinct lengths for every parameter set, so the bare
 * forms (no inner tag) are recognised by length first. */
static int read_inner(const mlkem_params *p, der_cur in, mlkem_der_priv *out)
{
    der_cur v, both, s, d;

    if (in.n == MLKEM_SEED_BYTES) {
        out->fmt = MLKEM_FMT_BARE_SEED;
        out->seed = in.p;
        return MLKEM_DER_OK;
    }
    if (in.n == p->dk_bytes) {
        out->fmt = MLKEM_FMT_BARE_PRIV;
        out->dk = in.p;
        return MLKEM_DER_OK;
    }
    if (in.n == 0)
        return MLKEM_R_BAD_ENCODING;
    switch (in.p[0]) {
    case TAG_CTX0_PRIM: /* seed [0] IMPLICIT OCTET STRING (SIZE (64)) */
        if (!take(&in, TAG_CTX0_PRIM, &v) || in.n != 0)
            return MLKEM_R_BAD_ENCODING;
        if (v.n != MLKEM_SEED_BYTES)
            return MLKEM_R_BAD_SEED_LENGTH;
        out->fmt = MLKEM_FMT_SEED_ONLY;
        out->seed = v.p;
        return MLKEM_DER_OK;
    case TAG_OCTET_STRING: /* expandedKey, or oqskeypair dk || ek */
        if (!take(&in, TAG_OCTET_STRING, &v) || in.n != 0)
            return MLKEM_R_BAD_ENCODING;
        if (v.n == p->dk_bytes) {
            out->fmt = MLKEM_FMT_PRIV_ONLY;
            out->dk = v.p;
            return MLKEM_DER_OK;
        }
        if (v.n == p->dk_bytes + p->ek_bytes) {
            /* FIPS 203 Algorithm 16 line 3: dk = dk_PKE || ek || H(ek) || z,
             * so the appended ek must be the one inside dk (public data). */
            if (memcmp(v.p + 384 * p->k, v.p + p->dk_bytes, p->ek_bytes) != 0)
                return MLKEM_R_BAD_ENCODING;
            out->fmt = MLKEM_FMT_OQS_KEYPAIR;
            out->dk = v.p;
            out->ek = v.p + p->dk_bytes;
            return MLKEM_DER_OK;
        }
        return MLKEM_R_BAD_KEY_LENGTH;
    case TAG_SEQUENCE: /* both SEQUENCE { seed, expandedKey } */
        if (!take(&in, TAG_SEQUENCE, &both) || in.n != 0
            || !take(&both, TAG_OCTET_STRING, &s)
            || !take(&both, TAG_OCTET_STRING, &d) || both.n != 0)
            return MLKEM_R_BAD_ENCODING;
        if (s.n != MLKEM_SEED_BYTES)
            return MLKEM_R_BAD_SEED_LENGTH;
        if (d.n != p->dk_bytes)
            return MLKEM_R_BAD_KEY_LENGTH;
        out->fmt = MLKEM_FMT_SEED_PRIV;
        out->seed = s.p;
        out->dk = d.p;
        return MLKEM_DER_OK;
    default:
        return MLKEM_R_BAD_ENCODING;
    }
}

int mlkem_der_pkcs8_read(const mlkem_params *p, const uint8_t *in, size_t len,
                         mlkem_der_priv *out)
{
    const unsigned char *q = in, *pk = NULL;
    PKCS8_PRIV_KEY_INFO *p8 = NULL;
    uint8_t *canon = NULL;
    size_t canon_len = 0, il = 0;
    int pklen = 0, r = MLKEM_R_BAD_ENCODING;

    memset(out, 0, sizeof(*out));
    if (len > MLKEM_DER_MAX_INPUT || is_mine(p, in, len, 1) != MLKEM_DER_OK)
        return MLKEM_DER_NOT_MINE;
    ERR_set_mark();
    p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &q, (long)len);
    if (p8 == NULL || q != in + len
        || !PKCS8_pkey_get0(NULL, &pk, &pklen, NULL, p8) || pklen < 0)
        goto end; /* malformed, truncated, or trailing bytes */
    il = (size_t)pklen;
    /* Version 0 (OpenSSL writes v0 PrivateKeyInfo; a v2 key and
     * attributes are refused), parameters absent, DER: the input is
     * exactly what we would write around privateKey, whose content is
     * then the input's last il bytes. */
    if (!pkcs8_outer(p, il, &canon, &canon_len) || canon_len != len
        || memcmp(canon, in, len - il) != 0)
        goto end;
    r = read_inner(p, (der_cur){ in + len - il, il }, out);
end:
    OPENSSL_secure_clear_free(canon, canon_len);
    PKCS8_PRIV_KEY_INFO_free(p8); /* cleanses its copy of the key */
    ERR_pop_to_mark();
    if (r != MLKEM_DER_OK)
        memset(out, 0, sizeof(*out));
    return r;
}

const char *mlkem_der_fmt_name(mlkem_fmt fmt)
{
    static const char *const names[MLKEM_FMT_COUNT] = {
        [MLKEM_FMT_SEED_PRIV] = "seed-priv",
        [MLKEM_FMT_SEED_ONLY] = "seed-only",
        [MLKEM_FMT_PRIV_ONLY] = "priv-only",
        [MLKEM_FMT_OQS_KEYPAIR] = "oqskeypair",
        [MLKEM_FMT_BARE_SEED] = "bare-seed",
        [MLKEM_FMT_BARE_PRIV] = "bare-priv",
    };

    return (unsigned)fmt < MLKEM_FMT_COUNT ? names[fmt] : NULL;
}
