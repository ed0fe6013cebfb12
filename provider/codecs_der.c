/*
 * codecs_der.c: strict DER writer and reader for ML-KEM SubjectPublicKeyInfo
 * and PrivateKeyInfo (see codecs_der.h for the references and the layouts).
 *
 * Writer: every structure here has a fixed shape, so it is emitted with a
 * tag-length helper. Reader: a TLV cursor that accepts only DER (definite,
 * minimal lengths, low tag numbers) and requires every container to be
 * consumed exactly, so truncated input, garbage and trailing bytes fail.
 */
#include "provider/codecs_der.h"

#include <string.h>

/* id-alg-ml-kem-512/768/1024 = 2.16.840.1.101.3.4.4.{1,2,3} [LAMPS]: the
 * content octets of the OID share this prefix and end in the set number. */
static const uint8_t mlkem_oid_arc[8] = {
    0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04
};
#define MLKEM_OID_LEN 9

#define TAG_INTEGER 0x02
#define TAG_BIT_STRING 0x03
#define TAG_OCTET_STRING 0x04
#define TAG_OID 0x06
#define TAG_SEQUENCE 0x30
#define TAG_CTX0_PRIM 0x80 /* [0] IMPLICIT OCTET STRING: the seed choice */

static uint8_t oid_last(const mlkem_params *p)
{
    return (uint8_t)(p->variant - MLKEM_512 + 1);
}

/* ---- Writer ---------------------------------------------------------------- */

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

/* AlgorithmIdentifier { id-alg-ml-kem-N } with parameters absent. */
static size_t algid_len(void)
{
    return tlv_len(tlv_len(MLKEM_OID_LEN));
}

static uint8_t *put_algid(uint8_t *out, const mlkem_params *p)
{
    out = put_hdr(out, TAG_SEQUENCE, tlv_len(MLKEM_OID_LEN));
    out = put_hdr(out, TAG_OID, MLKEM_OID_LEN);
    memcpy(out, mlkem_oid_arc, sizeof(mlkem_oid_arc));
    out[sizeof(mlkem_oid_arc)] = oid_last(p);
    return out + MLKEM_OID_LEN;
}

size_t mlkem_der_spki_len(const mlkem_params *p)
{
    /* SEQUENCE { AlgorithmIdentifier, BIT STRING { 0 unused bits, ek } } */
    return tlv_len(algid_len() + tlv_len(1 + p->ek_bytes));
}

size_t mlkem_der_spki_write(const mlkem_params *p, const uint8_t *ek,
                            uint8_t *out)
{
    uint8_t *o = out;

    o = put_hdr(o, TAG_SEQUENCE, algid_len() + tlv_len(1 + p->ek_bytes));
    o = put_algid(o, p);
    o = put_hdr(o, TAG_BIT_STRING, 1 + p->ek_bytes);
    *o++ = 0x00; /* unused bits */
    memcpy(o, ek, p->ek_bytes);
    o += p->ek_bytes;
    return (size_t)(o - out);
}

/* Length of the ML-KEM-PrivateKey bytes inside the privateKey OCTET STRING. */
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

/* SEQUENCE { INTEGER 0, AlgorithmIdentifier, OCTET STRING { inner } } */
static size_t pkcs8_body_len(size_t inner)
{
    return 3 + algid_len() + tlv_len(inner);
}

size_t mlkem_der_pkcs8_len(const mlkem_params *p, mlkem_fmt fmt)
{
    size_t inner = inner_len(p, fmt);

    return inner == 0 ? 0 : tlv_len(pkcs8_body_len(inner));
}

size_t mlkem_der_pkcs8_write(const mlkem_params *p, mlkem_fmt fmt,
                             const uint8_t *seed, const uint8_t *dk,
                             const uint8_t *ek, uint8_t *out)
{
    static const uint8_t version0[3] = { TAG_INTEGER, 0x01, 0x00 };
    size_t inner = inner_len(p, fmt);
    int need_seed = fmt == MLKEM_FMT_SEED_PRIV || fmt == MLKEM_FMT_SEED_ONLY
                    || fmt == MLKEM_FMT_BARE_SEED;
    int need_dk = fmt == MLKEM_FMT_SEED_PRIV || fmt == MLKEM_FMT_PRIV_ONLY
                  || fmt == MLKEM_FMT_OQS_KEYPAIR || fmt == MLKEM_FMT_BARE_PRIV;
    uint8_t *o = out;

    if (inner == 0 || (need_seed && seed == NULL) || (need_dk && dk == NULL)
        || (fmt == MLKEM_FMT_OQS_KEYPAIR && ek == NULL))
        return 0;

    o = put_hdr(o, TAG_SEQUENCE, pkcs8_body_len(inner));
    memcpy(o, version0, sizeof(version0));
    o += sizeof(version0);
    o = put_algid(o, p);
    o = put_hdr(o, TAG_OCTET_STRING, inner);
    switch (fmt) {
    case MLKEM_FMT_SEED_PRIV:
        o = put_hdr(o, TAG_SEQUENCE,
                    tlv_len(MLKEM_SEED_BYTES) + tlv_len(p->dk_bytes));
        o = put_tlv(o, TAG_OCTET_STRING, seed, MLKEM_SEED_BYTES);
        o = put_tlv(o, TAG_OCTET_STRING, dk, p->dk_bytes);
        break;
    case MLKEM_FMT_SEED_ONLY:
        o = put_tlv(o, TAG_CTX0_PRIM, seed, MLKEM_SEED_BYTES);
        break;
    case MLKEM_FMT_PRIV_ONLY:
        o = put_tlv(o, TAG_OCTET_STRING, dk, p->dk_bytes);
        break;
    case MLKEM_FMT_OQS_KEYPAIR:
        o = put_hdr(o, TAG_OCTET_STRING, p->dk_bytes + p->ek_bytes);
        memcpy(o, dk, p->dk_bytes);
        memcpy(o + p->dk_bytes, ek, p->ek_bytes);
        o += p->dk_bytes + p->ek_bytes;
        break;
    case MLKEM_FMT_BARE_SEED:
        memcpy(o, seed, MLKEM_SEED_BYTES);
        o += MLKEM_SEED_BYTES;
        break;
    case MLKEM_FMT_BARE_PRIV:
        memcpy(o, dk, p->dk_bytes);
        o += p->dk_bytes;
        break;
    default:
        return 0;
    }
    return (size_t)(o - out);
}

/* ---- Reader ---------------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n; /* bytes left */
} der_cur;

/*
 * Take one TLV with tag `tag` from c into *v. Strict DER: low tag number,
 * definite length in minimal form (short form below 128, no leading zero
 * octets), at most two length octets (every structure here is < 64 KiB),
 * content within the input. Returns 1 or 0 (malformed or another tag).
 */
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

/*
 * Lenient header step for classifying possibly truncated input: accept a
 * tag and a well-formed length header and continue inside with whatever
 * content is present. Used only to find the AlgorithmIdentifier's OID.
 */
static int enter(der_cur *c, uint8_t tag)
{
    size_t hl;

    if (c->n < 2 || c->p[0] != tag)
        return 0;
    if (c->p[1] < 0x80)
        hl = 2;
    else if (c->p[1] == 0x81)
        hl = 3;
    else if (c->p[1] == 0x82)
        hl = 4;
    else
        return 0;
    if (c->n < hl)
        return 0;
    c->p += hl;
    c->n -= hl;
    return 1;
}

/*
 * Classify by the OID after the lenient path: MLKEM_DER_OK if it is this
 * set's id-alg-ml-kem OID, MLKEM_DER_NOT_MINE otherwise (another algorithm,
 * another ML-KEM set, another structure, or unreadable).
 */
static int is_mine(const mlkem_params *p, der_cur c, int pkcs8)
{
    der_cur v;

    if (!enter(&c, TAG_SEQUENCE))
        return MLKEM_DER_NOT_MINE;
    if (pkcs8 && !take(&c, TAG_INTEGER, &v))
        return MLKEM_DER_NOT_MINE;
    if (!enter(&c, TAG_SEQUENCE) || !take(&c, TAG_OID, &v))
        return MLKEM_DER_NOT_MINE;
    if (v.n != MLKEM_OID_LEN
        || memcmp(v.p, mlkem_oid_arc, sizeof(mlkem_oid_arc)) != 0
        || v.p[sizeof(mlkem_oid_arc)] != oid_last(p))
        return MLKEM_DER_NOT_MINE;
    return MLKEM_DER_OK;
}

/* AlgorithmIdentifier with exactly our OID and no parameters. */
static int take_algid(der_cur *c, const mlkem_params *p)
{
    der_cur a, oid;

    if (!take(c, TAG_SEQUENCE, &a) || !take(&a, TAG_OID, &oid))
        return MLKEM_R_BAD_ENCODING;
    if (oid.n != MLKEM_OID_LEN
        || memcmp(oid.p, mlkem_oid_arc, sizeof(mlkem_oid_arc)) != 0
        || oid.p[sizeof(mlkem_oid_arc)] != oid_last(p))
        return MLKEM_R_WRONG_ALGORITHM;
    if (a.n != 0) /* parameters MUST be absent [LAMPS] */
        return MLKEM_R_BAD_ENCODING;
    return MLKEM_DER_OK;
}

int mlkem_der_spki_read(const mlkem_params *p, const uint8_t *in, size_t len,
                        const uint8_t **ek)
{
    der_cur c = { in, len }, spki, bits;
    int r;

    if (len > MLKEM_DER_MAX_INPUT || is_mine(p, c, 0) != MLKEM_DER_OK)
        return MLKEM_DER_NOT_MINE;
    if (!take(&c, TAG_SEQUENCE, &spki) || c.n != 0)
        return MLKEM_R_BAD_ENCODING; /* truncated, or trailing bytes */
    if ((r = take_algid(&spki, p)) != MLKEM_DER_OK)
        return r;
    if (!take(&spki, TAG_BIT_STRING, &bits) || spki.n != 0 || bits.n < 1
        || bits.p[0] != 0x00)
        return MLKEM_R_BAD_ENCODING;
    if (bits.n - 1 != p->ek_bytes)
        return MLKEM_R_BAD_KEY_LENGTH;
    *ek = bits.p + 1;
    return MLKEM_DER_OK;
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
    der_cur c = { in, len }, pki, ver, key;
    int r;

    memset(out, 0, sizeof(*out));
    if (len > MLKEM_DER_MAX_INPUT || is_mine(p, c, 1) != MLKEM_DER_OK)
        return MLKEM_DER_NOT_MINE;
    if (!take(&c, TAG_SEQUENCE, &pki) || c.n != 0)
        return MLKEM_R_BAD_ENCODING; /* truncated, or trailing bytes */
    /* version v1(0) only: OpenSSL writes v0 PrivateKeyInfo; a v2 key with
     * a publicKey field, and attributes, are rejected below. */
    if (!take(&pki, TAG_INTEGER, &ver) || ver.n != 1 || ver.p[0] != 0)
        return MLKEM_R_BAD_ENCODING;
    if ((r = take_algid(&pki, p)) != MLKEM_DER_OK)
        return r;
    if (!take(&pki, TAG_OCTET_STRING, &key) || pki.n != 0)
        return MLKEM_R_BAD_ENCODING;
    r = read_inner(p, key, out);
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
