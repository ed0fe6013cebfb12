/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codecs.c: ML-KEM key encoders and decoders.
 *
 *   encoders  SubjectPublicKeyInfo, PrivateKeyInfo and EncryptedPrivateKeyInfo
 *             as DER and PEM, and text (`openssl pkey -text`), for
 *             ML-KEM-512/768/1024;
 *   decoders  DER SubjectPublicKeyInfo and PrivateKeyInfo (PEM -> DER and
 *             EncryptedPrivateKeyInfo -> PrivateKeyInfo are the default
 *             provider's job, so applications load `mlkem` and `default`).
 *
 * References
 *   [OSSL35] OpenSSL 3.5 ml_kem_codecs.c / encode_key2any.c / encode_key2text.c:
 *            the layouts (codecs_der.h), the format names, and the text
 *            layout this file reproduces byte for byte.
 *   [OSSL40] OpenSSL 4.0 NEWS.md: hex dumps in text output are 16 bytes a
 *            line (3.x: 15); the same otherwise.
 *
 * Private key formats follow the provider configuration (prov.h):
 * ml-kem.output_formats is an ordered preference list (the first format the
 * key can produce is written: seed formats need the seed to be retained);
 * ml-kem.input_formats lists the formats a decoder accepts.
 *
 * Decoder contract with the core (OpenSSL 3.0-3.6 decoder_lib.c): a decoder
 * returns 1 without calling the data callback when the input is not its own
 * (another algorithm or structure), so the chain tries other decoders; it
 * returns 0, with a precise MLKEM_R_* error raised, when the input names
 * this parameter set's OID but is malformed or fails a FIPS 203 check.
 * Private-key bytes are only ever held in OPENSSL_secure memory, cleared on
 * free.
 *
 * Trace: when the environment variable MLKEM_TRACE is set to a non-empty
 * value, every encode and decode writes one line to stderr, e.g.
 * "mlkem: decode ML-KEM-768 PrivateKeyInfo seed-priv". The line names the
 * operation, parameter set, structure and format, never key material. It
 * exists so tests can prove which provider served an operation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "provider/codecs_der.h"
#include "provider/prov.h"

/* ---- Typed declarations of what the dispatch tables reference ------------- */

static OSSL_FUNC_encoder_freectx_fn enc_freectx;
static OSSL_FUNC_encoder_set_ctx_params_fn enc_set_ctx_params;
static OSSL_FUNC_encoder_settable_ctx_params_fn enc_settable_ctx_params;
static OSSL_FUNC_encoder_does_selection_fn enc_does_selection_pub;
static OSSL_FUNC_encoder_does_selection_fn enc_does_selection_priv;
static OSSL_FUNC_encoder_does_selection_fn enc_does_selection_text;
static OSSL_FUNC_encoder_import_object_fn enc_import_object;
static OSSL_FUNC_encoder_free_object_fn enc_free_object;
static OSSL_FUNC_encoder_encode_fn enc_encode;

static OSSL_FUNC_decoder_freectx_fn dec_freectx;
static OSSL_FUNC_decoder_set_ctx_params_fn dec_set_ctx_params;
static OSSL_FUNC_decoder_settable_ctx_params_fn dec_settable_ctx_params;
static OSSL_FUNC_decoder_does_selection_fn dec_does_selection_pub;
static OSSL_FUNC_decoder_does_selection_fn dec_does_selection_priv;
static OSSL_FUNC_decoder_decode_fn dec_decode;
static OSSL_FUNC_decoder_export_object_fn dec_export_object;

typedef enum { ST_SPKI, ST_PKI, ST_EPKI, ST_TEXT } codec_structure;
typedef enum { OUT_DER, OUT_PEM, OUT_TEXT } codec_output;

static const char *const structure_names[] = {
    "SubjectPublicKeyInfo", "PrivateKeyInfo", "EncryptedPrivateKeyInfo", "text"
};
static const char *const output_names[] = { "der", "pem", "text" };

/* ---- Trace ------------------------------------------------------------------ */

static void codec_trace(const char *fmt, ...)
{
    const char *t = getenv("MLKEM_TRACE");
    va_list ap;

    if (t == NULL || *t == '\0')
        return;
    va_start(ap, fmt);
    fputs("mlkem: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- Helpers ---------------------------------------------------------------- */

static void (*dispatch_find(const OSSL_DISPATCH *t, int id))(void)
{
    for (; t->function_id != 0; t++)
        if (t->function_id == id)
            return t->function;
    return NULL;
}

/*
 * "Levels" selection check, as OpenSSL's own codecs do: a request that
 * includes the private key is served only by private-key structures, one
 * that includes the public key (but not the private key) only by public-key
 * structures. 0 means "guess" and matches everything.
 */
static int selection_matches(int selection, int mask)
{
    if (selection == 0)
        return 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        return (mask & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        return (mask & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
    return 0;
}

static int format_listed(const int *list, mlkem_fmt fmt)
{
    for (size_t i = 0; i < MLKEM_FMT_COUNT && list[i] >= 0; i++)
        if (list[i] == (int)fmt)
            return 1;
    return 0;
}

/* ============================================================================
 * Encoders
 * ========================================================================== */

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    codec_structure st;
    codec_output out;
    EVP_CIPHER *cipher; /* set: write EncryptedPrivateKeyInfo */
    char *propq;        /* "properties" for the cipher and PBE fetches */
} codec_enc_ctx;

static void *enc_newctx(void *provctx, mlkem_variant v, codec_structure st,
                        codec_output out)
{
    codec_enc_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx == NULL)
        return NULL;
    ctx->provctx = provctx;
    ctx->params = mlkem_params_get(v);
    ctx->st = st;
    ctx->out = out;
    return ctx;
}

static void enc_freectx(void *vctx)
{
    codec_enc_ctx *ctx = vctx;

    if (ctx == NULL)
        return;
    EVP_CIPHER_free(ctx->cipher);
    OPENSSL_free(ctx->propq);
    OPENSSL_free(ctx);
}

static const OSSL_PARAM *enc_settable_ctx_params(void *provctx)
{
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_END
    };

    (void)provctx;
    return settable;
}

/* "properties" first (it applies to the cipher fetch), then "cipher": a
 * cipher name turns on encryption (as `openssl pkey -aes256`); an empty
 * name turns it off. */
static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    codec_enc_ctx *ctx = vctx;
    const OSSL_PARAM *p;
    const char *name = NULL;

    p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_PROPERTIES);
    if (p != NULL) {
        const char *props = NULL;

        if (!OSSL_PARAM_get_utf8_string_ptr(p, &props)) {
            MLKEM_RAISE(ctx->provctx, MLKEM_R_BAD_PARAMETER);
            return 0;
        }
        OPENSSL_free(ctx->propq);
        ctx->propq = NULL;
        if (props != NULL && (ctx->propq = OPENSSL_strdup(props)) == NULL)
            return 0;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER);
    if (p != NULL) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name)) {
            MLKEM_RAISE(ctx->provctx, MLKEM_R_BAD_PARAMETER);
            return 0;
        }
        EVP_CIPHER_free(ctx->cipher);
        ctx->cipher = NULL;
        if (name != NULL && *name != '\0') {
            ctx->cipher = EVP_CIPHER_fetch(ctx->provctx->libctx, name,
                                           ctx->propq);
            if (ctx->cipher == NULL) {
                MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_PARAMETER, "cipher %s", name);
                return 0;
            }
        }
    }
    return 1;
}

static int enc_does_selection_pub(void *provctx, int selection)
{
    (void)provctx;
    return selection_matches(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static int enc_does_selection_priv(void *provctx, int selection)
{
    (void)provctx;
    return selection_matches(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

static int enc_does_selection_text(void *provctx, int selection)
{
    (void)provctx;
    return selection_matches(selection, OSSL_KEYMGMT_SELECT_KEYPAIR);
}

/* A key held by another provider reaches us as parameters: import it with
 * our own key management (same rules as EVP_PKEY_fromdata). */
static void *enc_import_object(void *vctx, int selection,
                               const OSSL_PARAM params[])
{
    codec_enc_ctx *ctx = vctx;
    const OSSL_DISPATCH *km = mlkem_prov_set_of(ctx->params)->keymgmt;
    OSSL_FUNC_keymgmt_new_fn *kmnew =
        (OSSL_FUNC_keymgmt_new_fn *)dispatch_find(km, OSSL_FUNC_KEYMGMT_NEW);
    OSSL_FUNC_keymgmt_import_fn *kmimport =
        (OSSL_FUNC_keymgmt_import_fn *)dispatch_find(km,
                                                     OSSL_FUNC_KEYMGMT_IMPORT);
    void *key;

    if (kmnew == NULL || kmimport == NULL)
        return NULL;
    if ((key = kmnew(ctx->provctx)) == NULL)
        return NULL;
    if (!kmimport(key, selection, params)) {
        mlkem_prov_key_free(key);
        return NULL;
    }
    return key;
}

static void enc_free_object(void *key)
{
    mlkem_prov_key_free(key);
}

/* Write the DER bytes as DER or as PEM with the given label. */
static int emit(BIO *out, codec_output o, const char *pem_name,
                const uint8_t *der, size_t len)
{
    size_t written = 0;

    if (o == OUT_PEM)
        return PEM_write_bio(out, pem_name, "", der, (long)len) > 0;
    return BIO_write_ex(out, der, len, &written) && written == len;
}

static int encode_spki(const codec_enc_ctx *ctx, BIO *out, const MLKEM_KEY *k)
{
    const mlkem_params *p = ctx->params;
    uint8_t *der = NULL;
    size_t len = 0;
    int ok;

    if ((k->key->flags & MLKEM_KEY_HAS_PUB) == 0) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    ok = mlkem_der_spki_encode(p, k->key->ek, &der, &len);
    if (!ok) /* only where libcrypto or an allocation fails */
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_ALLOC_FAILED,
                         "building the %s SubjectPublicKeyInfo", p->name);
    ok = ok && emit(out, ctx->out, PEM_STRING_PUBLIC, der, len);
    OPENSSL_free(der);
    codec_trace("encode %s SubjectPublicKeyInfo %s%s", p->name,
                output_names[ctx->out], ok ? "" : " failed");
    return ok;
}

/* The first format of ml-kem.output_formats this key can produce. */
static int pick_output_format(const MLKEM_PROV_CTX *pc, unsigned flags)
{
    for (size_t i = 0; i < MLKEM_FMT_COUNT && pc->output_formats[i] >= 0;
         i++) {
        int f = pc->output_formats[i];
        int seed = (flags & MLKEM_KEY_HAS_SEED) != 0;
        int priv = (flags & MLKEM_KEY_HAS_PRIV) != 0;

        switch (f) {
        case MLKEM_FMT_SEED_PRIV:
            if (seed && priv)
                return f;
            break;
        case MLKEM_FMT_SEED_ONLY:
        case MLKEM_FMT_BARE_SEED:
            if (seed)
                return f;
            break;
        case MLKEM_FMT_PRIV_ONLY:
        case MLKEM_FMT_OQS_KEYPAIR:
        case MLKEM_FMT_BARE_PRIV:
            if (priv)
                return f;
            break;
        default:
            break;
        }
    }
    return -1;
}

/* Encrypt the PrivateKeyInfo (PKCS#5 PBES2 with PBKDF2, as OpenSSL's own
 * encoders do) and write EncryptedPrivateKeyInfo. */
static int encode_encrypted(const codec_enc_ctx *ctx, BIO *out,
                            const uint8_t *der, size_t len,
                            OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    const unsigned char *q = der;
    PKCS8_PRIV_KEY_INFO *p8inf = NULL;
    X509_ALGOR *pbe = NULL;
    X509_SIG *p8 = NULL;
    char pass[1024];
    size_t passlen = 0;
    int ok = 0;

    if (ctx->cipher == NULL) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_PARAMETER,
                         "EncryptedPrivateKeyInfo needs a cipher");
        return 0;
    }
    if (cb == NULL || !cb(pass, sizeof(pass), &passlen, NULL, cbarg)) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_PARAMETER, "no passphrase");
        goto end;
    }
    /* PKCS8_PRIV_KEY_INFO clears its key octets when freed. */
    if ((p8inf = d2i_PKCS8_PRIV_KEY_INFO(NULL, &q, (long)len)) == NULL)
        goto end;
    pbe = PKCS5_pbe2_set_iv_ex(ctx->cipher, PKCS5_DEFAULT_ITER, NULL, 0, NULL,
                               -1, ctx->provctx->libctx);
    if (pbe == NULL)
        goto end;
    p8 = PKCS8_set0_pbe_ex(pass, (int)passlen, p8inf, pbe,
                           ctx->provctx->libctx, ctx->propq);
    if (p8 == NULL)
        goto end;
    pbe = NULL; /* owned by p8 now */
    ok = ctx->out == OUT_PEM ? PEM_write_bio_PKCS8(out, p8) > 0
                             : i2d_PKCS8_bio(out, p8) > 0;
end:
    OPENSSL_cleanse(pass, sizeof(pass));
    X509_SIG_free(p8);
    X509_ALGOR_free(pbe);
    PKCS8_PRIV_KEY_INFO_free(p8inf);
    return ok;
}

static int encode_pki(const codec_enc_ctx *ctx, BIO *out, const MLKEM_KEY *k,
                      OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    const mlkem_params *p = ctx->params;
    const mlkem_key *key = k->key;
    uint8_t *dk = NULL, *der = NULL;
    size_t len = 0;
    int fmt, ok = 0;
    int encrypt = ctx->st == ST_EPKI || ctx->cipher != NULL;

    if ((key->flags & MLKEM_KEY_HAS_PRIV) == 0) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    fmt = pick_output_format(ctx->provctx, key->flags);
    if (fmt < 0 && ctx->provctx->output_formats[0] < 0
        && ctx->provctx->config_error[0] != '\0') {
        /* The list is empty because the configuration was bad: say so. */
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_FORMAT_NAME, "%s",
                         ctx->provctx->config_error);
        return 0;
    }
    if (fmt < 0) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_MISSING_KEY,
                         "no format in ml-kem.output_formats fits this key%s",
                         (key->flags & MLKEM_KEY_HAS_SEED) ? ""
                         : " (its seed is not known)");
        return 0;
    }
    /* Secrets: dk and the encoding live in secure memory. */
    if ((dk = OPENSSL_secure_malloc(p->dk_bytes)) == NULL) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_ALLOC_FAILED);
        goto end;
    }
    if (mlkem_key_encode_dk(key, dk) != MLKEM_OK) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        goto end;
    }
    /* It fails only where libcrypto or an allocation does. */
    if (!mlkem_der_pkcs8_encode(p, (mlkem_fmt)fmt, key->seed, dk, key->ek,
                                &der, &len)) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_ALLOC_FAILED,
                         "building the %s PrivateKeyInfo", p->name);
        goto end;
    }
    if (encrypt)
        ok = encode_encrypted(ctx, out, der, len, cb, cbarg);
    else
        ok = emit(out, ctx->out, PEM_STRING_PKCS8INF, der, len);
end:
    OPENSSL_secure_clear_free(dk, p->dk_bytes);
    OPENSSL_secure_clear_free(der, len);
    codec_trace("encode %s %s %s %s%s", p->name,
                encrypt ? "EncryptedPrivateKeyInfo" : "PrivateKeyInfo",
                mlkem_der_fmt_name((mlkem_fmt)fmt), output_names[ctx->out],
                ok ? "" : " failed");
    return ok;
}

/* `label:` then the bytes as lowercase hex, `per_line` per line, indented
 * by four spaces, joined by ':' (OpenSSL's print_labeled_buf layout). */
static int print_hex(BIO *out, const char *label, const uint8_t *b, size_t n,
                     size_t per_line)
{
    if (BIO_printf(out, "%s:\n", label) <= 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (i % per_line == 0 && BIO_printf(out, "    ") <= 0)
            return 0;
        if (BIO_printf(out, "%02x%s", b[i], i + 1 == n ? "" : ":") <= 0)
            return 0;
        if ((i % per_line == per_line - 1 || i + 1 == n)
            && BIO_printf(out, "\n") <= 0)
            return 0;
    }
    return 1;
}

/* OpenSSL 3.5's text form: "<set> Private-Key:" with seed (when known), dk
 * and ek, or "<set> Public-Key:" with ek. */
static int encode_text(const codec_enc_ctx *ctx, BIO *out, const MLKEM_KEY *k,
                       int selection)
{
    const mlkem_params *p = ctx->params;
    const mlkem_key *key = k->key;
    uint8_t *dk = NULL;
    int ok = 0;
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0
               && (key->flags & MLKEM_KEY_HAS_PRIV) != 0;
    /* The running release's width, so that `openssl pkey -text` prints the
     * same whichever provider holds the key: 15 bytes a line up to 3.6, 16
     * from 4.0 on ([OSSL40] NEWS: "Standardized the width of hexadecimal
     * dumps"). */
    size_t w = ctx->provctx->ossl_version >= MLKEM_OSSL_VERSION(4, 0, 0) ? 16 : 15;

    if ((key->flags & MLKEM_KEY_HAS_PUB) == 0) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    if (priv) {
        if ((dk = OPENSSL_secure_malloc(p->dk_bytes)) == NULL)
            goto end;
        if (mlkem_key_encode_dk(key, dk) != MLKEM_OK) {
            MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
            goto end;
        }
        if (BIO_printf(out, "%s Private-Key:\n", p->name) <= 0
            || ((key->flags & MLKEM_KEY_HAS_SEED) != 0
                && !print_hex(out, "seed", key->seed, MLKEM_SEED_BYTES, w))
            || !print_hex(out, "dk", dk, p->dk_bytes, w))
            goto end;
    } else if (BIO_printf(out, "%s Public-Key:\n", p->name) <= 0) {
        goto end;
    }
    ok = print_hex(out, "ek", key->ek, p->ek_bytes, w);
end:
    if (dk != NULL)
        OPENSSL_secure_clear_free(dk, p->dk_bytes);
    codec_trace("encode %s text %s%s", p->name, priv ? "private" : "public",
                ok ? "" : " failed");
    return ok;
}

static int enc_encode(void *vctx, OSSL_CORE_BIO *cout, const void *obj,
                      const OSSL_PARAM obj_abstract[], int selection,
                      OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    codec_enc_ctx *ctx = vctx;
    const MLKEM_KEY *k = obj;
    BIO *out;
    int ok = 0;

    /* The core turns abstract objects into ours via import_object. */
    if (obj_abstract != NULL || k == NULL || k->key == NULL) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    if (k->params != ctx->params) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_WRONG_KEY_TYPE, "%s key, %s encoder",
                         k->params->name, ctx->params->name);
        return 0;
    }
    if (!selection_matches(selection,
                           ctx->st == ST_SPKI ? OSSL_KEYMGMT_SELECT_PUBLIC_KEY
                           : ctx->st == ST_TEXT ? OSSL_KEYMGMT_SELECT_KEYPAIR
                           : OSSL_KEYMGMT_SELECT_PRIVATE_KEY)) {
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_PARAMETER, "selection %d for %s",
                         selection, structure_names[ctx->st]);
        return 0;
    }
    if ((out = BIO_new_from_core_bio(ctx->provctx->libctx, cout)) == NULL)
        return 0;
    switch (ctx->st) {
    case ST_SPKI:
        ok = encode_spki(ctx, out, k);
        break;
    case ST_PKI:
    case ST_EPKI:
        ok = encode_pki(ctx, out, k, cb, cbarg);
        break;
    case ST_TEXT:
        ok = encode_text(ctx, out, k, selection);
        break;
    }
    BIO_free(out);
    return ok;
}

/* ============================================================================
 * Decoders
 * ========================================================================== */

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    codec_structure st;
    int selection; /* of the last decode, for export_object */
} codec_dec_ctx;

static void *dec_newctx(void *provctx, mlkem_variant v, codec_structure st)
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
    return selection_matches(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static int dec_does_selection_priv(void *provctx, int selection)
{
    (void)provctx;
    return selection_matches(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

/* Read the whole input (up to MLKEM_DER_MAX_INPUT + 1 bytes, so longer
 * input is recognised as not ours) into buf. */
static size_t read_input(BIO *in, uint8_t *buf, size_t cap)
{
    size_t n = 0, got;

    while (n < cap && BIO_read_ex(in, buf + n, cap - n, &got) && got > 0)
        n += got;
    return n;
}

/*
 * What dec_decode hands to the core as the object reference: the parsed
 * input, or the reason it cannot be a key. The key is built, and every
 * check run, by mlkem_prov_key_from_decoded() when the core loads the
 * reference (keymgmt load) or asks for it to be exported to another
 * provider's keymgmt (dec_export_object).
 *
 * Why not in the decoder: a decoder that fails leaves its reason where
 * OpenSSL's store loader drops it (`openssl pkey -in bad.pem` used to say
 * only "unsupported"). OSSL_STORE hands the decoded DER to a key decoder,
 * and when that yields no key without a "hard" error it pops every error
 * and tries the next object type. A key management that refuses the
 * decoder's reference is such a hard error (OpenSSL 3.5+
 * decoder_construct_pkey; 3.0's store keeps the error of a failed key
 * reference, try_key_ref): the reason reaches the user, as it does for
 * OpenSSL 3.5's own ML-KEM ("explicit ... private key does not match
 * seed"). A malformed encoding of this set's OID is treated the same way.
 */
typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    codec_structure st;         /* ST_SPKI or ST_PKI */
    int reason;                 /* MLKEM_DER_OK, or the MLKEM_R_* found */
    const char *reason_text;    /* data text for reason (NULL: set, struct) */
    mlkem_der_priv priv;        /* ST_PKI: the parsed forms */
    const uint8_t *ek;          /* ST_SPKI: p->ek_bytes */
} mlkem_decoded;

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

    codec_trace("decode %s %s rejected: %s", d->params->name,
                structure_names[d->st], r != NULL ? r : "(no reason)");
}

MLKEM_KEY *mlkem_prov_key_from_decoded(const void *ref, size_t ref_sz,
                                       const mlkem_params *want)
{
    const mlkem_decoded *d = ref;
    const char *sname;
    MLKEM_KEY *k;

    if (d == NULL || ref_sz != sizeof(*d))
        return NULL;
    sname = structure_names[d->st];
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
                             sname);
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

static int dec_decode(void *vctx, OSSL_CORE_BIO *cin, int selection,
                      OSSL_CALLBACK *data_cb, void *data_cbarg,
                      OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
    codec_dec_ctx *ctx = vctx;
    const mlkem_params *p = ctx->params;
    const size_t cap = MLKEM_DER_MAX_INPUT + 1;
    const char *sname = structure_names[ctx->st];
    int priv = ctx->st == ST_PKI;
    BIO *in = NULL;
    uint8_t *buf = NULL;
    size_t len = 0;
    mlkem_decoded d;
    int ret = 1; /* 1 without a callback: "not mine, try others" */

    (void)pw_cb;
    (void)pw_cbarg;
    ctx->selection = selection;
    if (!selection_matches(selection, priv ? OSSL_KEYMGMT_SELECT_PRIVATE_KEY
                                           : OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
        return 1;
    if ((in = BIO_new_from_core_bio(ctx->provctx->libctx, cin)) == NULL)
        return 0;
    /* Private-key input may hold secrets: secure memory, cleared on free. */
    buf = priv ? OPENSSL_secure_malloc(cap) : OPENSSL_malloc(cap);
    if (buf == NULL) {
        ret = 0;
        goto end;
    }
    len = read_input(in, buf, cap);

    memset(&d, 0, sizeof(d));
    d.provctx = ctx->provctx;
    d.params = p;
    d.st = ctx->st;
    d.reason = priv ? mlkem_der_pkcs8_read(p, buf, len, &d.priv)
                    : mlkem_der_spki_read(p, buf, len, &d.ek);
    if (d.reason == MLKEM_DER_NOT_MINE)
        goto end;
    if (d.reason == MLKEM_DER_OK && priv
        && ctx->provctx->input_formats[0] < 0
        && ctx->provctx->config_error[0] != '\0') {
        /* No input format enabled because the configuration was bad: a
         * fatal error naming the bad value, rather than "not found". */
        d.reason = MLKEM_R_BAD_FORMAT_NAME;
        d.reason_text = ctx->provctx->config_error;
    } else if (d.reason == MLKEM_DER_OK && priv
               && !format_listed(ctx->provctx->input_formats, d.priv.fmt)) {
        /* Like OpenSSL 3.5: a disabled format is "not found", so another
         * provider may still accept the key. */
        codec_trace("decode %s %s %s not in ml-kem.input_formats", p->name,
                    sname, mlkem_der_fmt_name(d.priv.fmt));
        goto end;
    }
    if (d.reason == MLKEM_DER_OK)
        codec_trace("decode %s %s%s%s", p->name, sname, priv ? " " : "",
                    priv ? mlkem_der_fmt_name(d.priv.fmt) : "");
    {
        int object_type = OSSL_OBJECT_PKEY;
        OSSL_PARAM params[4];

        params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE,
                                             &object_type);
        params[1] = OSSL_PARAM_construct_utf8_string(
            OSSL_OBJECT_PARAM_DATA_TYPE, (char *)p->name, 0);
        /* The reference lives until data_cb returns (the core's contract:
         * it points into buf, which is freed below). */
        params[2] = OSSL_PARAM_construct_octet_string(
            OSSL_OBJECT_PARAM_REFERENCE, &d, sizeof(d));
        params[3] = OSSL_PARAM_construct_end();
        ret = data_cb(params, data_cbarg);
    }
end:
    /* A public-key decoder may be handed a private key by mistake (say,
     * d2i_PUBKEY of PKCS#8 bytes; it answers "not mine"): wipe what it
     * read, as for a private key. */
    if (priv)
        OPENSSL_secure_clear_free(buf, cap);
    else
        OPENSSL_clear_free(buf, len);
    BIO_free(in);
    return ret;
}

/* Hand a decoded key to another provider's key management (the core
 * passes the reference from dec_decode): built and checked here first. */
static int dec_export_object(void *vctx, const void *ref, size_t ref_sz,
                             OSSL_CALLBACK *export_cb, void *export_cbarg)
{
    codec_dec_ctx *ctx = vctx;
    OSSL_FUNC_keymgmt_export_fn *kmexport =
        (OSSL_FUNC_keymgmt_export_fn *)dispatch_find(
            mlkem_prov_set_of(ctx->params)->keymgmt, OSSL_FUNC_KEYMGMT_EXPORT);
    int selection = ctx->selection != 0 ? ctx->selection
                                        : OSSL_KEYMGMT_SELECT_ALL;
    MLKEM_KEY *k;
    int ok;

    if (kmexport == NULL
        || (k = mlkem_prov_key_from_decoded(ref, ref_sz, ctx->params)) == NULL)
        return 0;
    ok = kmexport(k, selection, export_cb, export_cbarg);
    mlkem_prov_key_free(k);
    return ok;
}

/* ============================================================================
 * Dispatch tables (one per parameter set, structure and output type)
 * ========================================================================== */

#define ENCODER(bits, tag, st, out, does_sel)                                   \
    static OSSL_FUNC_encoder_newctx_fn enc_##bits##_##tag##_newctx;             \
    static void *enc_##bits##_##tag##_newctx(void *provctx)                     \
    {                                                                           \
        return enc_newctx(provctx, MLKEM_##bits, st, out);                      \
    }                                                                           \
    static const OSSL_DISPATCH enc_##bits##_##tag##_functions[] = {             \
        { OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_##bits##_##tag##_newctx }, \
        { OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx },             \
        { OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params }, \
        { OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS,                                \
          (void (*)(void))enc_settable_ctx_params },                            \
        { OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))does_sel },         \
        { OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))enc_import_object }, \
        { OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))enc_free_object },     \
        { OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_encode },               \
        { 0, NULL }                                                             \
    }

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

#define CODECS(bits)                                                            \
    ENCODER(bits, spki_der, ST_SPKI, OUT_DER, enc_does_selection_pub);          \
    ENCODER(bits, spki_pem, ST_SPKI, OUT_PEM, enc_does_selection_pub);          \
    ENCODER(bits, pki_der, ST_PKI, OUT_DER, enc_does_selection_priv);           \
    ENCODER(bits, pki_pem, ST_PKI, OUT_PEM, enc_does_selection_priv);           \
    ENCODER(bits, epki_der, ST_EPKI, OUT_DER, enc_does_selection_priv);         \
    ENCODER(bits, epki_pem, ST_EPKI, OUT_PEM, enc_does_selection_priv);         \
    ENCODER(bits, text, ST_TEXT, OUT_TEXT, enc_does_selection_text);            \
    DECODER(bits, spki, ST_SPKI, dec_does_selection_pub);                       \
    DECODER(bits, pki, ST_PKI, dec_does_selection_priv)

#define CODECS_SET(bits, variant) CODECS(bits);
MLKEM_PROV_SETS(CODECS_SET)

#define ENC_ALG(bits, tag, props)                                               \
    { MLKEM_PROV_NAMES(bits), "provider=mlkem," props,                              \
      enc_##bits##_##tag##_functions, NULL }
#define ENC_ALGS(bits)                                                          \
    ENC_ALG(bits, spki_der, "output=der,structure=SubjectPublicKeyInfo"),       \
    ENC_ALG(bits, spki_pem, "output=pem,structure=SubjectPublicKeyInfo"),       \
    ENC_ALG(bits, pki_der, "output=der,structure=PrivateKeyInfo"),              \
    ENC_ALG(bits, pki_pem, "output=pem,structure=PrivateKeyInfo"),              \
    ENC_ALG(bits, epki_der, "output=der,structure=EncryptedPrivateKeyInfo"),    \
    ENC_ALG(bits, epki_pem, "output=pem,structure=EncryptedPrivateKeyInfo"),    \
    ENC_ALG(bits, text, "output=text")

#define ENC_ALGS_SET(bits, variant) ENC_ALGS(bits),
const OSSL_ALGORITHM mlkem_prov_encoders[] = {
    MLKEM_PROV_SETS(ENC_ALGS_SET)
    { NULL, NULL, NULL, NULL }
};

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
