/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encoders.c: ML-KEM key encoders. SubjectPublicKeyInfo, PrivateKeyInfo
 * and EncryptedPrivateKeyInfo as DER and PEM, and text (`openssl pkey
 * -text`), for ML-KEM-512/768/1024: seven per parameter set.
 *
 * References
 *   [OSSL35] OpenSSL 3.5 ml_kem_codecs.c / encode_key2any.c / encode_key2text.c:
 *            the layouts (codecs_der.h), the format names, and the text
 *            layout this file reproduces byte for byte.
 *   [OSSL40] OpenSSL 4.0 NEWS.md: hex dumps in text output are 16 bytes a
 *            line (3.x: 15); the same otherwise.
 *
 * Private key formats follow the provider configuration (config.c):
 * ml-kem.output_formats is an ordered preference list (the first format the
 * key can produce is written: seed formats need the seed to be retained).
 * Private-key bytes are only ever held in OPENSSL_secure memory, cleared on
 * free.
 *
 * Trace (MLKEM_TRACE, errors.c): every encode writes one line, e.g.
 * "mlkem: encode ML-KEM-768 PrivateKeyInfo seed-priv der". The line names
 * the operation, parameter set, structure and format, never key material.
 * It exists so tests can prove which provider served an operation.
 */
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "provider/codecs.h"
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

typedef enum { ST_SPKI, ST_PKI, ST_EPKI, ST_TEXT } enc_structure;
typedef enum { OUT_DER, OUT_PEM, OUT_TEXT } enc_output;

static const char *const structure_names[] = {
    "SubjectPublicKeyInfo", "PrivateKeyInfo", "EncryptedPrivateKeyInfo", "text"
};
static const char *const output_names[] = { "der", "pem", "text" };

typedef struct {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    enc_structure st;
    enc_output out;
    EVP_CIPHER *cipher; /* set: write EncryptedPrivateKeyInfo */
    char *propq;        /* "properties" for the cipher and PBE fetches */
} codec_enc_ctx;

static void *enc_newctx(void *provctx, mlkem_variant v, enc_structure st,
                        enc_output out)
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
    return mlkem_codec_selection_matches(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static int enc_does_selection_priv(void *provctx, int selection)
{
    (void)provctx;
    return mlkem_codec_selection_matches(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

static int enc_does_selection_text(void *provctx, int selection)
{
    (void)provctx;
    return mlkem_codec_selection_matches(selection, OSSL_KEYMGMT_SELECT_KEYPAIR);
}

/* A key held by another provider reaches us as parameters: import it with
 * our own key management (same rules as EVP_PKEY_fromdata). */
static void *enc_import_object(void *vctx, int selection,
                               const OSSL_PARAM params[])
{
    codec_enc_ctx *ctx = vctx;
    MLKEM_KEY *key = mlkem_prov_key_new(ctx->provctx, ctx->params);

    if (key == NULL)
        return NULL;
    if (!mlkem_prov_kmgmt_import(key, selection, params)) {
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
static int emit(BIO *out, enc_output o, const char *pem_name,
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
    mlkem_prov_trace("encode %s SubjectPublicKeyInfo %s%s", p->name,
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
    const char *why;
    int fmt, ok = 0;
    int encrypt = ctx->st == ST_EPKI || ctx->cipher != NULL;

    if ((key->flags & MLKEM_KEY_HAS_PRIV) == 0) {
        MLKEM_RAISE(ctx->provctx, MLKEM_R_MISSING_KEY);
        return 0;
    }
    fmt = pick_output_format(ctx->provctx, key->flags);
    if (fmt < 0 && (why = mlkem_prov_config_formats_problem(
                        ctx->provctx, ctx->provctx->output_formats)) != NULL) {
        /* No format is enabled because the configuration was bad: say so. */
        MLKEM_RAISE_DATA(ctx->provctx, MLKEM_R_BAD_FORMAT_NAME, "%s", why);
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
    mlkem_prov_trace("encode %s %s %s %s%s", p->name,
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
    mlkem_prov_trace("encode %s text %s%s", p->name, priv ? "private" : "public",
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
    if (!mlkem_codec_selection_matches(selection,
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

/* ---- Dispatch tables (one per parameter set, structure and output) -------- */

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

#define ENCODERS(bits)                                                          \
    ENCODER(bits, spki_der, ST_SPKI, OUT_DER, enc_does_selection_pub);          \
    ENCODER(bits, spki_pem, ST_SPKI, OUT_PEM, enc_does_selection_pub);          \
    ENCODER(bits, pki_der, ST_PKI, OUT_DER, enc_does_selection_priv);           \
    ENCODER(bits, pki_pem, ST_PKI, OUT_PEM, enc_does_selection_priv);           \
    ENCODER(bits, epki_der, ST_EPKI, OUT_DER, enc_does_selection_priv);         \
    ENCODER(bits, epki_pem, ST_EPKI, OUT_PEM, enc_does_selection_priv);         \
    ENCODER(bits, text, ST_TEXT, OUT_TEXT, enc_does_selection_text)

#define ENCODERS_SET(bits, variant) ENCODERS(bits);
MLKEM_PROV_SETS(ENCODERS_SET)

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

