/* SPDX-License-Identifier: Apache-2.0 */
/*
 * decoders.c: ML-KEM key decoders, DER SubjectPublicKeyInfo and
 * PrivateKeyInfo for ML-KEM-512/768/1024 (PEM -> DER and
 * EncryptedPrivateKeyInfo -> PrivateKeyInfo are the default provider's
 * job, so applications load `mlkem` and `default`), and the step from what
 * they decode to a key, mlkem_prov_key_from_decoded (kmgmt.c's load).
 *
 * References
 *   [OSSL35] OpenSSL 3.5 ml_kem_codecs.c: the layouts (codecs_der.h) and
 *            the format names.
 *
 * ml-kem.input_formats (config.c) lists the formats a decoder accepts.
 *
 * Decoder contract with the core (OpenSSL 3.0-3.6 decoder_lib.c): a decoder
 * returns 1 without calling the data callback when the input is not its own
 * (another algorithm or structure), so the chain tries other decoders; an
 * input that names this parameter set's OID but is malformed or fails a
 * FIPS 203 check is refused with a precise MLKEM_R_* error when the core
 * loads it (see mlkem_decoded below). Private-key bytes are only ever held
 * in OPENSSL_secure memory, cleared on free.
 *
 * Trace (MLKEM_TRACE, errors.c): every decode writes one line, e.g.
 * "mlkem: decode ML-KEM-768 PrivateKeyInfo seed-priv", and a refused key
 * its reason. Never key material.
 */
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "provider/codecs.h"
#include "provider/codecs_der.h"
#include "provider/prov.h"

/* ---- Typed declarations of what the dispatch tables reference ------------- */

static OSSL_FUNC_decoder_freectx_fn dec_freectx;
static OSSL_FUNC_decoder_set_ctx_params_fn dec_set_ctx_params;
static OSSL_FUNC_decoder_settable_ctx_params_fn dec_settable_ctx_params;
static OSSL_FUNC_decoder_does_selection_fn dec_does_selection_pub;
static OSSL_FUNC_decoder_does_selection_fn dec_does_selection_priv;
static OSSL_FUNC_decoder_decode_fn dec_decode;
static OSSL_FUNC_decoder_export_object_fn dec_export_object;

typedef enum { ST_SPKI, ST_PKI } dec_structure;

static const char *const structure_names[] = {
    "SubjectPublicKeyInfo", "PrivateKeyInfo"
};

static int format_listed(const int *list, mlkem_fmt fmt)
{
    for (size_t i = 0; i < MLKEM_FMT_COUNT && list[i] >= 0; i++)
        if (list[i] == (int)fmt)
            return 1;
    return 0;
}

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    dec_structure st;
    int selection; /* of the last decode, for export_object */
} codec_dec_ctx;

static void *dec_newctx(void *provctx, mlkem_variant v, dec_structure st)
{
    codec_dec_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx == NULL) {
        MLKEM_RAISE(provctx, MLKEM_R_ALLOC_FAILED);
        return NULL;
    }
    ctx->provctx = provctx;
    ctx->params = mlkem_params_get(v);
    ctx->st = st;
    return ctx;
}

static void dec_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

static const OSSL_PARAM *dec_settable_ctx_params(void *provctx)
{
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_utf8_string(OSSL_DECODER_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_END
    };

    (void)provctx;
    return settable;
}

/* Keys are built by our own key management in the provider's library
 * context; "properties" is accepted for compatibility and not needed. */
static int dec_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    codec_dec_ctx *ctx = vctx;
    const OSSL_PARAM *p;
    const char *props = NULL;

    p = OSSL_PARAM_locate_const(params, OSSL_DECODER_PARAM_PROPERTIES);
    if (p != NULL && !OSSL_PARAM_get_utf8_string_ptr(p, &props)) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_BAD_PARAMETER);
        return 0;
    }
    return 1;
}

static int dec_does_selection_pub(void *provctx, int selection)
{
    (void)provctx;
    return mlkem_codec_selection_matches(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static int dec_does_selection_priv(void *provctx, int selection)
{
    (void)provctx;
    return mlkem_codec_selection_matches(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

/*
 * The object a decoder hands to the core: the parsed input, or the reason
 * it cannot be a key. As OpenSSL's own decoders do, the object is on the
 * heap and its reference (OSSL_OBJECT_PARAM_REFERENCE) is its address; it
 * lives until the data callback returns, and the decoder frees it then.
 * It holds the input bytes the parsed forms point into.
 *
 * The key is built from it, and every check of the key run (FIPS 203 §7.3,
 * seed/dk agreement, the PCT: key.c's loaders), by
 * mlkem_prov_key_from_decoded() when the core loads the reference (keymgmt
 * load) or asks for it to be exported to another provider's keymgmt
 * (dec_export_object). Not in the decoder: a decoder that fails leaves its
 * reason where OpenSSL's store loader drops it (`openssl pkey -in bad.pem`
 * used to say only "unsupported"). OSSL_STORE hands the decoded DER to a
 * key decoder, and when that yields no key without a "hard" error it pops
 * every error and tries the next object type. A key management that
 * refuses the decoder's reference is such a hard error (OpenSSL 3.5+
 * decoder_construct_pkey; 3.0's store keeps the error of a failed key
 * reference, try_key_ref): the reason reaches the user. OpenSSL 3.5's own
 * ML-KEM decoder defers the same way (its keymgmt load expands the seed
 * and checks the key: "explicit ... private key does not match seed"). A
 * malformed encoding of this set's OID is refused the same way.
 */
typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    dec_structure st;           /* ST_SPKI or ST_PKI */
    int reason;                 /* MLKEM_DER_OK, or the MLKEM_R_* found */
    const char *reason_text;    /* data text for reason (NULL: set, struct) */
    mlkem_der_priv priv;        /* ST_PKI: the parsed forms, into buf */
    const uint8_t *ek;          /* ST_SPKI: p->ek_bytes, into buf */
    size_t len;                 /* the bytes read into buf */
    uint8_t buf[];              /* the input, DECODE_CAP bytes */
} mlkem_decoded;

/* The largest input read: one byte more than any ML-KEM structure, so a
 * longer input is recognised as not ours. */
#define DECODE_CAP (MLKEM_DER_MAX_INPUT + 1)

/* One allocation with the input buffer after it; private-key input may
 * hold secrets: secure memory, cleared on free. */
static mlkem_decoded *decoded_new(MLKEM_PROV_CTX *provctx,
                                  const mlkem_params *p, dec_structure st)
{
    size_t size = sizeof(mlkem_decoded) + DECODE_CAP;
    mlkem_decoded *d = st == ST_PKI ? OPENSSL_secure_malloc(size)
                                    : OPENSSL_malloc(size);

    if (d == NULL) {
        MLKEM_RAISE(provctx, MLKEM_R_ALLOC_FAILED);
        return NULL;
    }
    memset(d, 0, sizeof(*d));
    d->provctx = provctx;
    d->params = p;
    d->st = st;
    return d;
}

static void decoded_free(mlkem_decoded *d)
{
    if (d == NULL)
        return;
    /* A public-key decoder may be handed a private key by mistake (say,
     * d2i_PUBKEY of PKCS#8 bytes; it answers "not mine"): wipe what it
     * read, as for a private key. */
    if (d->st == ST_PKI)
        OPENSSL_secure_clear_free(d, sizeof(*d) + DECODE_CAP);
    else
        OPENSSL_clear_free(d, sizeof(*d) + d->len);
}

/* Read the whole input (up to DECODE_CAP bytes) into d->buf. */
static void read_input(BIO *in, mlkem_decoded *d)
{
    size_t got;

    d->len = 0;
    while (d->len < DECODE_CAP
           && BIO_read_ex(in, d->buf + d->len, DECODE_CAP - d->len, &got)
           && got > 0)
        d->len += got;
}

/* Build the key from the parsed private forms; the key loaders check
 * FIPS 203 §7.3 (hash, reduction), seed/dk agreement, and run the PCT. */
static int load_private(MLKEM_KEY *k, const mlkem_der_priv *d)
{
    switch (d->fmt) {
    case MLKEM_FMT_SEED_PRIV:
        return mlkem_prov_key_from_seed_priv(k, d->seed, d->dk,
                                             k->params->dk_bytes);
    case MLKEM_FMT_SEED_ONLY:
    case MLKEM_FMT_BARE_SEED:
        return mlkem_prov_key_from_seed(k, d->seed);
    case MLKEM_FMT_PRIV_ONLY:
    case MLKEM_FMT_OQS_KEYPAIR:
    case MLKEM_FMT_BARE_PRIV:
        return mlkem_prov_key_from_priv(k, d->dk, k->params->dk_bytes);
    default:
        MLKEM_RAISE(k->provctx, MLKEM_R_BAD_ENCODING);
        return 0;
    }
}

/* "mlkem: decode ML-KEM-768 PrivateKeyInfo rejected: seed does not match
 * private key": the reason just raised, for OpenSSL 3.0's store loader,
 * which discards it (see above); MLKEM_TRACE=1 shows it there. */
static void trace_rejected(const mlkem_decoded *d)
{
    const char *r = mlkem_prov_reason_string(mlkem_prov_last_reason());

    mlkem_prov_trace("decode %s %s rejected: %s", d->params->name,
                     structure_names[d->st], r != NULL ? r : "(no reason)");
}

MLKEM_KEY *mlkem_prov_key_from_decoded(const void *ref, size_t ref_sz,
                                       const mlkem_params *want)
{
    const mlkem_decoded *d;
    MLKEM_KEY *k;

    if (ref == NULL || ref_sz != sizeof(d))
        return NULL;
    if ((d = *(const mlkem_decoded *const *)ref) == NULL)
        return NULL;
    if (want != NULL && d->params != want) {
        MLKEM_RAISE_DATA(d->provctx, MLKEM_R_WRONG_KEY_TYPE, "%s key, %s",
                         d->params->name, want->name);
        return NULL;
    }
    if (d->reason != MLKEM_DER_OK) {
        if (d->reason_text != NULL)
            MLKEM_RAISE_DATA(d->provctx, d->reason, "%s", d->reason_text);
        else
            MLKEM_RAISE_DATA(d->provctx, d->reason, "%s %s", d->params->name,
                             structure_names[d->st]);
        trace_rejected(d);
        return NULL;
    }
    if ((k = mlkem_prov_key_new(d->provctx, d->params)) == NULL)
        return NULL;
    if (d->st == ST_PKI ? !load_private(k, &d->priv)
                        : !mlkem_prov_key_from_pub(k, d->ek,
                                                   d->params->ek_bytes)) {
        trace_rejected(d);
        mlkem_prov_key_free(k);
        return NULL;
    }
    return k;
}

/* Parse d's input: MLKEM_DER_NOT_MINE, or d->reason set (MLKEM_DER_OK or
 * the reason the key will be refused with). */
static int parse(mlkem_decoded *d)
{
    const MLKEM_PROV_CTX *pc = d->provctx;
    const mlkem_params *p = d->params;
    const char *why;

    if (d->st == ST_SPKI) {
        d->reason = mlkem_der_spki_read(p, d->buf, d->len, &d->ek);
        return d->reason;
    }
    d->reason = mlkem_der_pkcs8_read(p, d->buf, d->len, &d->priv);
    if (d->reason != MLKEM_DER_OK
        || format_listed(pc->input_formats, d->priv.fmt))
        return d->reason;
    if ((why = mlkem_prov_config_formats_problem(pc, pc->input_formats))
        != NULL) {
        /* No input format enabled because the configuration was bad: a
         * fatal error naming the bad value, rather than "not found". */
        d->reason = MLKEM_R_BAD_FORMAT_NAME;
        d->reason_text = why;
        return d->reason;
    }
    /* Like OpenSSL 3.5: a disabled format is "not found", so another
     * provider may still accept the key. */
    mlkem_prov_trace("decode %s %s %s not in ml-kem.input_formats", p->name,
                     structure_names[d->st], mlkem_der_fmt_name(d->priv.fmt));
    return MLKEM_DER_NOT_MINE;
}

static int dec_decode(void *vctx, OSSL_CORE_BIO *cin, int selection,
                      OSSL_CALLBACK *data_cb, void *data_cbarg,
                      OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
    codec_dec_ctx *ctx = vctx;
    const mlkem_params *p = ctx->params;
    int priv = ctx->st == ST_PKI;
    mlkem_decoded *d = NULL;
    BIO *in = NULL;
    int ret = 1; /* 1 without a callback: "not mine, try others" */

    (void)pw_cb;
    (void)pw_cbarg;
    ctx->selection = selection;
    if (!mlkem_codec_selection_matches(
            selection, priv ? OSSL_KEYMGMT_SELECT_PRIVATE_KEY
                            : OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
        return 1;
    if ((in = BIO_new_from_core_bio(ctx->provctx->libctx, cin)) == NULL)
        return 0;
    if ((d = decoded_new(ctx->provctx, p, ctx->st)) == NULL) {
        ret = 0;
        goto end;
    }
    read_input(in, d);
    if (parse(d) == MLKEM_DER_NOT_MINE)
        goto end;
    if (d->reason == MLKEM_DER_OK)
        mlkem_prov_trace("decode %s %s%s%s", p->name, structure_names[d->st],
                         priv ? " " : "",
                         priv ? mlkem_der_fmt_name(d->priv.fmt) : "");
    {
        int object_type = OSSL_OBJECT_PKEY;
        OSSL_PARAM params[4];

        params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE,
                                             &object_type);
        params[1] = OSSL_PARAM_construct_utf8_string(
            OSSL_OBJECT_PARAM_DATA_TYPE, (char *)p->name, 0);
        /* The object's address; it lives until data_cb returns. */
        params[2] = OSSL_PARAM_construct_octet_string(
            OSSL_OBJECT_PARAM_REFERENCE, &d, sizeof(d));
        params[3] = OSSL_PARAM_construct_end();
        ret = data_cb(params, data_cbarg);
    }
end:
    decoded_free(d);
    BIO_free(in);
    return ret;
}

/* Hand a decoded key to another provider's key management (the core
 * passes the reference from dec_decode): built and checked here first. */
static int dec_export_object(void *vctx, const void *ref, size_t ref_sz,
                             OSSL_CALLBACK *export_cb, void *export_cbarg)
{
    codec_dec_ctx *ctx = vctx;
    int selection = ctx->selection != 0 ? ctx->selection
                                        : OSSL_KEYMGMT_SELECT_ALL;
    MLKEM_KEY *k;
    int ok;

    if ((k = mlkem_prov_key_from_decoded(ref, ref_sz, ctx->params)) == NULL)
        return 0;
    ok = mlkem_prov_kmgmt_export(k, selection, export_cb, export_cbarg);
    mlkem_prov_key_free(k);
    return ok;
}

/* ---- Dispatch tables (one per parameter set and structure) ---------------- */

#define DECODER(bits, tag, st, does_sel)                                        \
    static OSSL_FUNC_decoder_newctx_fn dec_##bits##_##tag##_newctx;             \
    static void *dec_##bits##_##tag##_newctx(void *provctx)                     \
    {                                                                           \
        return dec_newctx(provctx, MLKEM_##bits, st);                           \
    }                                                                           \
    static const OSSL_DISPATCH dec_##bits##_##tag##_functions[] = {             \
        { OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_##bits##_##tag##_newctx }, \
        { OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx },             \
        { OSSL_FUNC_DECODER_SET_CTX_PARAMS, (void (*)(void))dec_set_ctx_params }, \
        { OSSL_FUNC_DECODER_SETTABLE_CTX_PARAMS,                                \
          (void (*)(void))dec_settable_ctx_params },                            \
        { OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))does_sel },         \
        { OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_decode },               \
        { OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object }, \
        { 0, NULL }                                                             \
    }

#define DECODERS(bits)                                                          \
    DECODER(bits, spki, ST_SPKI, dec_does_selection_pub);                       \
    DECODER(bits, pki, ST_PKI, dec_does_selection_priv)

#define DECODERS_SET(bits, variant) DECODERS(bits);
MLKEM_PROV_SETS(DECODERS_SET)

/* Six decoders, one per parameter set and structure, is the minimum. Each
 * costs every d2i_X509 on OpenSSL 3.0 (OSSL_DECODER_CTX_new_for_pkey walks
 * all decoders: namemap lookups in collect_decoder and, for every chain
 * instance, in OSSL_DECODER_CTX_add_extra): measured with callgrind, per
 * X25519 handshake, ~23k instructions per SPKI decoder and ~12k per PKCS#8
 * one (it fails does_selection for public keys, but add_extra asks no
 * does_selection). One structure-less decoder per set would save ~37k but
 * does not work: 3.0's decoder_process skips a decoder without "structure"
 * whenever the previous step (pem2der, spki2typespki) names one, which broke
 * PEM and even plain DER SPKI decoding (7 tests failed). */
#define DEC_ALG(bits, tag, structure)                                           \
    { MLKEM_PROV_NAMES(bits), "provider=mlkem,input=der,structure=" structure,      \
      dec_##bits##_##tag##_functions, NULL }

#define DEC_ALGS_SET(bits, variant)                                             \
    DEC_ALG(bits, spki, "SubjectPublicKeyInfo"),                                \
    DEC_ALG(bits, pki, "PrivateKeyInfo"),
const OSSL_ALGORITHM mlkem_prov_decoders[] = {
    MLKEM_PROV_SETS(DEC_ALGS_SET)
    { NULL, NULL, NULL, NULL }
};
