/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prov.c: the provider's entry point. OSSL_provider_init, provider
 * parameters, query_operation with the OSSL_ALGORITHM tables, the
 * parameter-set table, OID creation, configuration, the OSSL_PARAM helpers,
 * and mlkem_prov_err (errors, their library number and reason strings).
 *
 * References
 *   [FIPS203]  NIST FIPS 203 (ML-KEM), August 2024; OIDs from NIST CSOR:
 *              id-alg-ml-kem-512/768/1024 = 2.16.840.1.101.3.4.4.1/.2/.3.
 *   [PROV]     OpenSSL provider(7), provider-base(7): the core upcalls used
 *              here exist unchanged in every OpenSSL 3.x.
 *
 * Configuration (openssl.cnf, the provider's section; OpenSSL 3.5's knobs):
 *   ml-kem.retain_seed    yes|no   keep d||z after keygen (default yes)
 *   ml-kem.prefer_seed    yes|no   with seed and dk both given, rebuild from
 *                                  the seed and check dk (default yes)
 *   ml-kem.output_formats list     private key encoder order (default:
 *                                  seed-priv, priv-only, seed-only, ...)
 *   ml-kem.input_formats  list     formats the decoders accept (default all)
 * The same keys without the "ml-kem." prefix are read too (the prefixed one
 * wins). Lists are separated by commas, spaces or tabs. One key of our own,
 * at the top of the section only:
 *   decoders              yes|no   offer the key decoders (default yes); no
 *                                  is for TLS-only deployments: OpenSSL 3.0
 *                                  walks every provider's decoders on every
 *                                  certificate parse, ours included, and
 *                                  TLS key exchange never decodes ML-KEM
 *                                  keys. Key files, d2i_* and PEM reading
 *                                  of ML-KEM keys then need another
 *                                  provider (none before 3.5).
 *
 * A bad value does NOT fail provider initialisation. Verified on 3.0.19 and
 * 3.5.7: a provider whose init fails during configuration loading is just
 * absent, with no error shown (`openssl list -providers`), which would
 * silently take ML-KEM and the post-quantum TLS groups away (and 3.0 then
 * drops the whole Groups line). Instead, as OpenSSL 3.5 does:
 *   - a bad yes/no value keeps the default (3.5 does the same);
 *   - a bad format list becomes EMPTY: no private key format is enabled, so
 *     writing (output) or reading (input) private keys fails at use time,
 *     closed, while KEM, public keys and TLS keep working (3.5 also fails
 *     only when a key is encoded or decoded).
 *   - an unknown key ("retain_sed", "ml-kem.prefer_sed") is ignored and
 *     reported (check_unknown_keys says how it is found, and its limits).
 * The first problem is kept as a message in MLKEM_PROV_CTX.config_error,
 * served as the provider parameter "config-error" (empty when none), e.g.
 * 'ml-kem.output_formats: unknown key format name "bogus"', and appended
 * to the build info ("; configuration error: ..."), the one value that
 * `openssl list -providers -verbose` prints on 3.0. With the environment
 * variable MLKEM_TRACE set, every problem is also written to stderr once,
 * when the instance starts ("mlkem: configuration: ..."); without it the
 * provider writes nothing (OpenSSL users expect no stderr output from a
 * library). Init leaves no error on the queue: a stale error would make
 * later calls such as SSL_get_error() misreport.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/conf.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "provider/codecs_der.h"
#include "provider/prov.h"
#include "provider/rand.h"

/* Provider parameter: the first bad configuration value ("" if none). */
#define MLKEM_PROV_PARAM_CONFIG_ERROR "config-error"

#ifndef MLKEM_VERSION_STR
#define MLKEM_VERSION_STR "0.0.0"
#endif

/* ---- Errors -------------------------------------------------------------------
 * OpenSSL gives every provider object a new error library number
 * (ERR_get_next_error_library: one for each OSSL_PROVIDER_load, and one for
 * each mirror a child library context makes of it), never reuses a number,
 * and keeps only its low 8 bits in an error code (ERR_PACK). Loading
 * "mlkem" and "default" into a library context takes 3 numbers (the two
 * providers and default's mirror in our child library context, which has
 * no mirror of mlkem itself: child_ctx_new), so after about 85 loads the
 * packed values repeat (4 numbers and 64 loads with the self-mirror). Had each object served its own
 * reason strings (OSSL_FUNC_PROVIDER_GET_REASON_STRINGS), unloading any
 * short-lived object whose number aliases a long-lived one would delete
 * the long-lived one's strings too (ERR_unload_strings works on packed
 * codes), and that instance's errors would print as "lib(128)" /
 * "reason(104)" (test/provider/test_evp_cycles.c).
 *
 * So mlkem.so takes one library number per process, loads its strings for
 * that number once, and never unloads them (the module is linked with
 * -z nodelete, so the strings, like the file and function names in queued
 * errors, stay mapped after the last instance is unloaded). Errors are
 * raised through each instance's own handle with the reason packed with
 * that number; the core (3.0 to 4.0 core_vset_error) passes a reason whose
 * library field is set to ERR_vset_error unchanged. The provider serves no
 * reason strings, so loading and unloading its instances never touches
 * OpenSSL's string table. The exception is a core of another major release
 * (a 3.x-built mlkem.so in OpenSSL 4.0): the module's libcrypto.so.3 is then
 * not the host's, so a number taken and strings loaded there mean nothing
 * to the host; such an instance raises plain reasons, packed by the core
 * with the instance's own number, and serves its strings to the core, as
 * providers usually do (with the aliasing limit below).
 *
 * What remains OpenSSL's limit: the core still hands each provider object
 * its own number, so other providers' numbers wrap around past 255 too.
 * Another provider that serves reason strings under a number aliasing ours
 * replaces our strings while it is loaded and deletes them when it is
 * unloaded; and any number past 255 whose low 8 bits fall below 128
 * aliases one of OpenSSL's own libraries (ERR_LIB_*), whose strings such a
 * provider then overwrites. Library numbers are 8 bits in the packed error
 * code (ERR_PACK in include/openssl/err.h; the 8-bit library field
 * is discussed in openssl/openssl#9003), and
 * ERR_get_next_error_library() has no way to return or reuse one
 * (discussed in openssl/openssl#17974); no upstream fix as of 4.0. */
static CRYPTO_ONCE err_once = CRYPTO_ONCE_STATIC_INIT;
static atomic_int err_lib; /* 0 until err_init ran (or if it failed) */

/* The reason strings, listed once; expanded for ERR_load_strings() (which
 * adds the library number to each code in place, hence not const; the
 * first entry names the library) and for the core's get_reason_strings. */
#define MLKEM_REASONS(X)                                                      \
    X(MLKEM_R_EK_NOT_REDUCED, "encapsulation key not reduced mod q")          \
    X(MLKEM_R_DK_HASH_MISMATCH, "decapsulation key hash check failed")        \
    X(MLKEM_R_DK_NOT_REDUCED, "decapsulation key not reduced mod q")          \
    X(MLKEM_R_BAD_KEY_LENGTH, "invalid key length")                           \
    X(MLKEM_R_BAD_CIPHERTEXT_LENGTH, "invalid ciphertext length")             \
    X(MLKEM_R_BAD_SEED_LENGTH, "invalid seed length")                         \
    X(MLKEM_R_SEED_KEY_MISMATCH, "seed does not match private key")           \
    X(MLKEM_R_PCT_FAILED, "pairwise consistency test failed")                 \
    X(MLKEM_R_MISSING_KEY, "missing key")                                     \
    X(MLKEM_R_KEY_NOT_EMPTY, "key already set")                               \
    X(MLKEM_R_BAD_IKME_LENGTH, "invalid ikme length")                         \
    X(MLKEM_R_OUTPUT_TOO_SMALL, "output buffer too small")                    \
    X(MLKEM_R_RANDOM_FAILED, "random generation failed")                      \
    X(MLKEM_R_BAD_ENCODING, "invalid key encoding")                           \
    X(MLKEM_R_WRONG_ALGORITHM, "wrong algorithm identifier")                  \
    X(MLKEM_R_BAD_FORMAT_NAME, "unknown key format name")                     \
    X(MLKEM_R_BAD_PARAMETER, "invalid parameter")                             \
    X(MLKEM_R_BAD_POINT, "invalid elliptic curve point")                      \
    X(MLKEM_R_ZERO_SHARED_SECRET, "all-zero X25519 or X448 shared secret")    \
    X(MLKEM_R_CLASSICAL_FAILED, "classical key exchange failed")              \
    X(MLKEM_R_WRONG_KEY_TYPE, "key of the wrong type")                        \
    X(MLKEM_R_OBJ_CREATE_FAILED, "cannot create object identifier")           \
    X(MLKEM_R_KEY_MISMATCH, "public key does not match private key")          \
    X(MLKEM_R_ALLOC_FAILED, "memory allocation failed")

#define ERR_ROW(code, text) { (code), (text) },
static ERR_STRING_DATA err_strings[] = {
    { 0, "mlkem" },
    MLKEM_REASONS(ERR_ROW)
    { 0, NULL }
};

/* For a core of another major release only (see OSSL_provider_init): the
 * core loads these under the instance's own library number. */
#define ITEM_ROW(code, text) { (code), (void *)(text) },
static const OSSL_ITEM reason_items[] = {
    MLKEM_REASONS(ITEM_ROW)
    { 0, NULL }
};

static void err_init(void)
{
    int lib = 0;

    /* A number whose low 8 bits are below ERR_LIB_USER (128) would alias
     * one of OpenSSL's own libraries: take the next one that does not (at
     * most 128 more, and only when over 128 provider objects were created
     * before this module's first load). */
    for (int i = 0; i <= 128; i++) {
        lib = ERR_get_next_error_library();
        if (lib <= 0 || (lib & 0xFF) >= ERR_LIB_USER)
            break;
    }
    if (lib <= 0 || (lib & 0xFF) < ERR_LIB_USER)
        return; /* errors are then raised as the core's own, unnamed */
    err_strings[0].error = ERR_PACK(lib, 0, 0);
    ERR_load_strings(lib, err_strings);
    atomic_store(&err_lib, lib);
}

/* The reason this thread raised last, for MLKEM_TRACE lines: the error
 * queue cannot be read back from here when the host's libcrypto is not
 * ours (a 3.x-built module in OpenSSL 4.0). */
static _Thread_local int last_reason;

int mlkem_prov_last_reason(void)
{
    return last_reason;
}

const char *mlkem_prov_reason_string(int reason)
{
    /* ERR_load_strings packs each code with the library in place. */
    for (const ERR_STRING_DATA *e = err_strings + 1; e->string != NULL; e++)
        if (ERR_GET_REASON(e->error) == reason)
            return e->string;
    return NULL;
}

void mlkem_prov_err(const MLKEM_PROV_CTX *ctx, const char *file, int line,
                    const char *func, int reason, const char *fmt, ...)
{
    va_list ap;
    int lib = ctx != NULL ? ctx->err_lib : atomic_load(&err_lib);
    uint32_t code = lib != 0 ? (uint32_t)ERR_PACK(lib, 0, reason)
                             : (uint32_t)reason;

    last_reason = reason;
    va_start(ap, fmt);
    if (ctx != NULL && ctx->core_new_error != NULL
        && ctx->core_set_error_debug != NULL && ctx->core_vset_error != NULL) {
        ctx->core_new_error(ctx->handle);
        ctx->core_set_error_debug(ctx->handle, file, line, func);
        ctx->core_vset_error(ctx->handle, code, fmt, ap);
    } else if (lib != 0) {
        ERR_new();
        ERR_set_debug(file, line, func);
        ERR_vset_error(lib, reason, fmt, ap);
    }
    va_end(ap);
}

/* ---- OSSL_PARAM helpers (prov.h) -------------------------------------------
 * The octet-string rules of libcrypto's OSSL_PARAM_get_octet_string_ptr and
 * OSSL_PARAM_set_octet_string (the same in 3.0 to 4.0), and the common case
 * of OSSL_PARAM_set_int, done here. Calling libcrypto instead would need an
 * ERR_set_mark / ERR_pop_to_mark pair around each call (3.5+ raises its own
 * error on a mismatch, and ours must be the one on top): ~0.5k instructions
 * per pair on OpenSSL 3.0, and every key a keygen or an import makes passes
 * through here several times (libcrypto reads bits, security-bits and
 * max-size of each new key). Only the rare cases (an integer parameter that
 * is not a plain int) still go through libcrypto, with the mark. */

int mlkem_prov_get_octets(const MLKEM_PROV_CTX *ctx, const OSSL_PARAM *p,
                          const void **data, size_t *len)
{
    const void *d = NULL;

    /* An octet string's bytes, or what an octet pointer points to. */
    if (p->data_type == OSSL_PARAM_OCTET_STRING)
        d = p->data;
    else if (p->data_type == OSSL_PARAM_OCTET_PTR && p->data != NULL)
        d = *(const void *const *)p->data;
    if (d == NULL) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be an octet string", p->key);
        return 0;
    }
    *data = d;
    *len = p->data_size;
    return 1;
}

int mlkem_prov_set_octets(const MLKEM_PROV_CTX *ctx, OSSL_PARAM *p,
                          const void *data, size_t len)
{
    p->return_size = len;
    if (p->data == NULL)
        return 1; /* a size query, whatever the type (as libcrypto) */
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be an octet string", p->key);
        return 0;
    }
    if (p->data_size < len) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_OUTPUT_TOO_SMALL,
                         "parameter \"%s\": %zu bytes, need %zu", p->key,
                         p->data_size, len);
        return 0;
    }
    memcpy(p->data, data, len);
    return 1;
}

int mlkem_prov_set_int(const MLKEM_PROV_CTX *ctx, OSSL_PARAM *p, int v)
{
    int ok;

    /* What libcrypto's evp_keymgmt_util_cache_keyinfo and most callers
     * pass: a plain int (or a size query). */
    if (p->data_type == OSSL_PARAM_INTEGER
        && (p->data == NULL || p->data_size == sizeof(int))) {
        p->return_size = sizeof(int);
        if (p->data != NULL)
            memcpy(p->data, &v, sizeof(v));
        return 1;
    }
    /* Other widths, unsigned and real: libcrypto converts. */
    ERR_set_mark();
    ok = OSSL_PARAM_set_int(p, v);
    ERR_pop_to_mark();
    if (!ok)
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be an integer", p->key);
    return ok;
}

/* ---- The parameter-set table (prov.h) ------------------------------------ */

#define SET_ROW(bits, v)                                                      \
    [v] = { v, MLKEM_PROV_NAMES(bits), MLKEM_PROV_OID(bits),                  \
            MLKEM_PROV_OID_SN(bits), mlkem_##bits##_keymgmt_functions },
static const mlkem_prov_set mlkem_prov_sets[] = { MLKEM_PROV_SETS(SET_ROW) };
#undef SET_ROW

const mlkem_prov_set *mlkem_prov_set_of(const mlkem_params *p)
{
    return &mlkem_prov_sets[p->variant];
}

/* ---- Algorithm tables -----------------------------------------------------
 * The ML-KEM names are prov.h's (OpenSSL 3.5's); the hybrids' are 3.5's.
 * X448MLKEM1024 is a KEM only (no TLS group: it has no codepoint, and 3.5
 * and 4.0 announce none either; capabilities.c). */
#define MLKEM_PROPS "provider=mlkem"

#define KEYMGMT_ALG(bits, v)                                                   \
    { MLKEM_PROV_NAMES(bits), MLKEM_PROPS, mlkem_##bits##_keymgmt_functions,   \
      "ML-KEM-" #bits " key management (FIPS 203)" },
#define KEM_ALG(bits, v)                                                       \
    { MLKEM_PROV_NAMES(bits), MLKEM_PROPS, mlkem_kem_functions,                \
      "ML-KEM-" #bits " encapsulation (FIPS 203)" },

static const OSSL_ALGORITHM mlkem_keymgmt_algs[] = {
    MLKEM_PROV_SETS(KEYMGMT_ALG)
    { "X25519MLKEM768", MLKEM_PROPS, mlkem_x25519mlkem768_keymgmt_functions,
      "X25519 + ML-KEM-768 hybrid key management" },
    { "SecP256r1MLKEM768", MLKEM_PROPS,
      mlkem_secp256r1mlkem768_keymgmt_functions,
      "P-256 + ML-KEM-768 hybrid key management" },
    { "SecP384r1MLKEM1024", MLKEM_PROPS,
      mlkem_secp384r1mlkem1024_keymgmt_functions,
      "P-384 + ML-KEM-1024 hybrid key management" },
    { "X448MLKEM1024", MLKEM_PROPS, mlkem_x448mlkem1024_keymgmt_functions,
      "X448 + ML-KEM-1024 hybrid key management" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM mlkem_kem_algs[] = {
    MLKEM_PROV_SETS(KEM_ALG)
    { "X25519MLKEM768", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "X25519 + ML-KEM-768 hybrid KEM" },
    { "SecP256r1MLKEM768", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "P-256 + ML-KEM-768 hybrid KEM" },
    { "SecP384r1MLKEM1024", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "P-384 + ML-KEM-1024 hybrid KEM" },
    { "X448MLKEM1024", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "X448 + ML-KEM-1024 hybrid KEM" },
    { NULL, NULL, NULL, NULL }
};
#undef KEYMGMT_ALG
#undef KEM_ALG

/* ---- Provider functions ---------------------------------------------------- */

static OSSL_FUNC_provider_teardown_fn mlkem_prov_teardown;
static OSSL_FUNC_provider_gettable_params_fn mlkem_prov_gettable_params;
static OSSL_FUNC_provider_get_params_fn mlkem_prov_get_params;
static OSSL_FUNC_provider_query_operation_fn mlkem_prov_query;

static const OSSL_PARAM *mlkem_prov_gettable_params(void *provctx)
{
    static const OSSL_PARAM gettable[] = {
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
        OSSL_PARAM_DEFN(MLKEM_PROV_PARAM_CONFIG_ERROR, OSSL_PARAM_UTF8_PTR,
                        NULL, 0),
        OSSL_PARAM_END
    };
    (void)provctx;
    return gettable;
}

static int mlkem_prov_get_params(void *provctx, OSSL_PARAM params[])
{
    MLKEM_PROV_CTX *ctx = provctx;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "mlkem"))
        goto err;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, MLKEM_VERSION_STR))
        goto err;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, ctx->buildinfo))
        goto err;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        goto err;
    p = OSSL_PARAM_locate(params, MLKEM_PROV_PARAM_CONFIG_ERROR);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, ctx->config_error))
        goto err;
    return 1;
err:
    MLKEM_RAISE(ctx, MLKEM_R_BAD_PARAMETER);
    return 0;
}

static const OSSL_ALGORITHM *mlkem_prov_query(void *provctx, int operation_id,
                                              int *no_cache)
{
    const MLKEM_PROV_CTX *ctx = provctx;

    /* Cached: with no_cache = 1, OpenSSL 3.0 rebuilds our decoders in a
     * temporary store on every OSSL_DECODER_do_all_provided (twice per
     * certificate parse): +336k instructions per X25519 handshake, measured. */
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return mlkem_keymgmt_algs;
    case OSSL_OP_KEM:
        return mlkem_kem_algs;
    case OSSL_OP_ENCODER:
        return mlkem_prov_encoders;
    case OSSL_OP_DECODER:
        return ctx->decoders ? mlkem_prov_decoders : NULL;
    default:
        return NULL;
    }
}

static void mlkem_prov_teardown(void *vctx)
{
    MLKEM_PROV_CTX *ctx = vctx;

    if (ctx == NULL)
        return;
    mlkem_prov_rand_teardown(ctx);
    OSSL_LIB_CTX_free(ctx->libctx);
    OPENSSL_free(ctx);
}

/* Reason strings are served to the core only by an instance whose host
 * libcrypto is not this module's (err_lib 0, see "Errors" above): a table
 * with get_reason_strings makes the core load, and at unload delete, the
 * library name under the instance's own number, which may alias mlkem's
 * process-wide one. */
static const OSSL_ITEM *mlkem_prov_reasons(void *provctx)
{
    (void)provctx;
    return reason_items;
}

#define MLKEM_PROV_DISPATCH_COMMON                                            \
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))mlkem_prov_teardown },     \
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS,                                     \
      (void (*)(void))mlkem_prov_gettable_params },                           \
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))mlkem_prov_get_params }, \
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))mlkem_prov_query }, \
    { OSSL_FUNC_PROVIDER_GET_CAPABILITIES,                                    \
      (void (*)(void))mlkem_prov_get_capabilities }

static const OSSL_DISPATCH mlkem_prov_dispatch[] = {
    MLKEM_PROV_DISPATCH_COMMON,
    { 0, NULL }
};

static const OSSL_DISPATCH mlkem_prov_dispatch_reasons[] = {
    MLKEM_PROV_DISPATCH_COMMON,
    { OSSL_FUNC_PROVIDER_GET_REASON_STRINGS,
      (void (*)(void))mlkem_prov_reasons },
    { 0, NULL }
};

/* ---- Running OpenSSL version ------------------------------------------------
 * "3.10.2" > "3.5.7": compare numerically, never as strings. Returns the
 * MLKEM_OSSL_VERSION() encoding, or 0 if the text does not start with
 * "major.minor". */
static unsigned long parse_version(const char *s)
{
    unsigned long part[3] = { 0, 0, 0 };
    int n = 0;

    if (s == NULL)
        return 0;
    while (n < 3) {
        if (*s < '0' || *s > '9')
            break;
        unsigned long v = 0;
        while (*s >= '0' && *s <= '9') {
            if (v < 100000)
                v = v * 10 + (unsigned long)(*s - '0');
            s++;
        }
        part[n++] = v;
        if (*s != '.')
            break;
        s++;
    }
    if (n < 2)
        return 0;
    /* Field widths of the 0xMNN00PP0 layout: major 4 bits, minor and patch
     * 8 bits. Saturate rather than wrap. */
    if (part[0] > 0xF)
        part[0] = 0xF;
    if (part[1] > 0xFF)
        part[1] = 0xFF;
    if (part[2] > 0xFF)
        part[2] = 0xFF;
    return MLKEM_OSSL_VERSION(part[0], part[1], part[2]);
}

/* ---- Configuration ------------------------------------------------------------ */


static int ascii_ieq(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y || y == '\0')
            return 0;
    }
    return b[n] == '\0';
}

/* yes/no, true/false, on/off, 1/0 (case-insensitive), as OpenSSL's own
 * boolean config values. Returns 1/0, or -1 for anything else. */
static int parse_bool(const char *v)
{
    static const char *const yes[] = { "yes", "true", "on", "1" };
    static const char *const no[] = { "no", "false", "off", "0" };
    size_t n = strlen(v);

    for (size_t i = 0; i < 4; i++) {
        if (ascii_ieq(v, yes[i], n))
            return 1;
        if (ascii_ieq(v, no[i], n))
            return 0;
    }
    return -1;
}

/* Record a configuration problem: the first one becomes "config-error";
 * with MLKEM_TRACE set, each one is also written to stderr, once (at the
 * instance's start, where configuration is read). */
static void config_problem(MLKEM_PROV_CTX *ctx, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void config_problem(MLKEM_PROV_CTX *ctx, const char *fmt, ...)
{
    const char *trace = getenv("MLKEM_TRACE");
    char msg[sizeof(ctx->config_error)];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (trace != NULL && *trace != '\0')
        fprintf(stderr, "mlkem: configuration: %s\n", msg);
    if (ctx->config_error[0] == '\0')
        memcpy(ctx->config_error, msg, sizeof(msg));
}

/* Parse an ordered list of format names into out[] (ended by -1; duplicates
 * dropped). On a bad or empty list, out[] is left empty and the problem is
 * recorded. */
static void parse_formats(MLKEM_PROV_CTX *ctx, const char *key, const char *v,
                          int out[])
{
    size_t n = 0;
    const char *s = v;

    while (*s != '\0') {
        while (*s == ',' || *s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            break;
        size_t len = strcspn(s, ", \t");
        int found = -1;
        for (int f = 0; f < MLKEM_FMT_COUNT; f++) {
            if (ascii_ieq(s, mlkem_der_fmt_name((mlkem_fmt)f), len) &&
                strlen(mlkem_der_fmt_name((mlkem_fmt)f)) == len) {
                found = f;
                break;
            }
        }
        if (found < 0) {
            config_problem(ctx, "%s: unknown key format name \"%.*s\" "
                           "(known: seed-priv, seed-only, priv-only, "
                           "oqskeypair, bare-seed, bare-priv)",
                           key, (int)(len > 64 ? 64 : len), s);
            out[0] = -1;
            return;
        }
        int dup = 0;
        for (size_t i = 0; i < n; i++)
            dup |= out[i] == found;
        if (!dup)
            out[n++] = found;
        s += len;
    }
    out[n] = -1;
    if (n == 0)
        config_problem(ctx, "%s: empty key format list", key);
}

static void set_default_config(MLKEM_PROV_CTX *ctx)
{
    /* OpenSSL 3.5's defaults: the encoder takes the first format the key can
     * produce, so seed-priv when the seed is known, else priv-only. The
     * decoders accept everything. */
    static const int out_order[] = {
        MLKEM_FMT_SEED_PRIV, MLKEM_FMT_PRIV_ONLY, MLKEM_FMT_SEED_ONLY,
        MLKEM_FMT_OQS_KEYPAIR, MLKEM_FMT_BARE_SEED, MLKEM_FMT_BARE_PRIV, -1
    };
    static const int in_order[] = {
        MLKEM_FMT_SEED_ONLY, MLKEM_FMT_SEED_PRIV, MLKEM_FMT_PRIV_ONLY,
        MLKEM_FMT_OQS_KEYPAIR, MLKEM_FMT_BARE_SEED, MLKEM_FMT_BARE_PRIV, -1
    };

    ctx->retain_seed = 1;
    ctx->prefer_seed = 1;
    ctx->decoders = 1;
    memcpy(ctx->output_formats, out_order, sizeof(out_order));
    memcpy(ctx->input_formats, in_order, sizeof(in_order));
}

/* ---- Unknown configuration keys ---------------------------------------------
 * The core hands a provider its section's values only by exact key
 * (core_get_params locates each stored key in the caller's list), so it
 * cannot say which keys exist. To catch a mistyped key ("retain_sed"), the
 * provider reads the configuration file OpenSSL loads by default
 * (OPENSSL_CONF, else OPENSSLDIR/openssl.cnf), finds its section through
 * openssl_conf -> providers -> <this provider's name>, and walks it as the
 * core does (a value naming a section is a subsection: "ml-kem =
 * ml_kem_sect" gives "ml-kem.<key>"). A key counts only if the core
 * answers the same value for it, so another file than the one loaded
 * (OSSL_LIB_CTX_load_config with another path, -config) or another
 * provider's section reports nothing. Keys the core reads itself (module,
 * activate, identity, soft_load) are known. Nothing is read for an
 * instance without configuration (OSSL_PROVIDER_load, -provider). */
static int known_key(const char *key)
{
    static const char *const keys[] = {
        "module", "activate", "identity", "soft_load", /* the core's */
        "decoders", /* ours: top level only, like the core's */
        "retain_seed", "prefer_seed", "output_formats", "input_formats",
    };
    const char *k = strncmp(key, "ml-kem.", 7) == 0 ? key + 7 : key;

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (strcmp(k, keys[i]) == 0 && (k == key || i >= 5))
            return 1;
    return 0;
}

/* 1 if the core holds key = value for this instance. */
static int core_has(OSSL_FUNC_core_get_params_fn *get_params,
                    const OSSL_CORE_HANDLE *handle, const char *key,
                    const char *value)
{
    const char *v = NULL;
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_utf8_ptr(key, (char **)&v, 0);
    p[1] = OSSL_PARAM_construct_end();
    return get_params(handle, p) && v != NULL && strcmp(v, value) == 0;
}

static void check_section(MLKEM_PROV_CTX *ctx,
                          OSSL_FUNC_core_get_params_fn *get_params,
                          const OSSL_CORE_HANDLE *handle, const CONF *conf,
                          const char *section, const char *prefix, int depth)
{
    STACK_OF(CONF_VALUE) *sk = NCONF_get_section(conf, section);

    for (int i = 0; sk != NULL && i < sk_CONF_VALUE_num(sk); i++) {
        const CONF_VALUE *cv = sk_CONF_VALUE_value(sk, i);
        char key[128];

        if (cv->name == NULL || cv->value == NULL)
            continue;
        snprintf(key, sizeof(key), "%s%s", prefix, cv->name);
        if (depth < 4 && NCONF_get_section(conf, cv->value) != NULL) {
            char sub[sizeof(key) + 1];

            snprintf(sub, sizeof(sub), "%s.", key);
            check_section(ctx, get_params, handle, conf, cv->value, sub,
                          depth + 1);
        } else if (!known_key(key)
                   && core_has(get_params, handle, key, cv->value)) {
            if (strcmp(key, "ml-kem.import_pct_type") == 0
                || strcmp(key, "import_pct_type") == 0)
                config_problem(ctx, "%s: not supported by mlkem (ignored: "
                               "an imported private key always gets a "
                               "pairwise test with a random m)", key);
            else
                config_problem(ctx, "%s: unknown key (ignored; known: "
                               "ml-kem.retain_seed, ml-kem.prefer_seed, "
                               "ml-kem.output_formats, "
                               "ml-kem.input_formats, decoders)", key);
        }
    }
}

static void check_unknown_keys(MLKEM_PROV_CTX *ctx,
                               OSSL_FUNC_core_get_params_fn *get_params,
                               const OSSL_CORE_HANDLE *handle)
{
    const char *name = NULL;
    char *file = NULL;
    CONF *conf = NULL;
    long eline = 0;
    OSSL_PARAM p[2];

    /* Only an instance loaded from a configuration section has "module"
     * or "activate" among its parameters. */
    p[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_CORE_PROV_NAME,
                                         (char **)&name, 0);
    p[1] = OSSL_PARAM_construct_end();
    if (!get_params(handle, p) || name == NULL)
        return;
    {
        const char *m = NULL, *a = NULL;
        OSSL_PARAM q[3];

        q[0] = OSSL_PARAM_construct_utf8_ptr("module", (char **)&m, 0);
        q[1] = OSSL_PARAM_construct_utf8_ptr("activate", (char **)&a, 0);
        q[2] = OSSL_PARAM_construct_end();
        if (!get_params(handle, q) || (m == NULL && a == NULL))
            return;
    }
    ERR_set_mark(); /* a missing file or value is not an error here */
    if ((file = CONF_get1_default_config_file()) != NULL
        && (conf = NCONF_new(NULL)) != NULL
        && NCONF_load(conf, file, &eline) > 0) {
        const char *init = NCONF_get_string(conf, NULL, "openssl_conf");
        const char *provs = init != NULL
                                ? NCONF_get_string(conf, init, "providers")
                                : NULL;
        const char *sect = provs != NULL ? NCONF_get_string(conf, provs, name)
                                         : NULL;

        if (sect != NULL)
            check_section(ctx, get_params, handle, conf, sect, "", 0);
    }
    NCONF_free(conf);
    OPENSSL_free(file);
    ERR_pop_to_mark();
}

/* Read the provider's configuration section through core_get_params. */
static void read_config(OSSL_FUNC_core_get_params_fn *c_get_params,
                        const OSSL_CORE_HANDLE *handle, MLKEM_PROV_CTX *ctx)
{
    enum { RETAIN, PREFER, OUTF, INF, DECODERS, NKEYS };
    /* [0]: the ml-kem subsection's name (3.5's), [1]: the top level. */
    static const char *const keys[NKEYS][2] = {
        { "ml-kem.retain_seed", "retain_seed" },
        { "ml-kem.prefer_seed", "prefer_seed" },
        { "ml-kem.output_formats", "output_formats" },
        { "ml-kem.input_formats", "input_formats" },
        { NULL, "decoders" },
    };
    char *val[NKEYS][2] = { { NULL, NULL } };
    OSSL_PARAM params[2 * NKEYS + 1];
    size_t n = 0;

    set_default_config(ctx);
    if (c_get_params == NULL)
        return;
    for (int k = 0; k < NKEYS; k++)
        for (int j = 0; j < 2; j++)
            if (keys[k][j] != NULL)
                params[n++] = OSSL_PARAM_construct_utf8_ptr(keys[k][j],
                                                            &val[k][j], 0);
    params[n] = OSSL_PARAM_construct_end();
    if (!c_get_params(handle, params))
        return; /* no configuration available: defaults */

    for (int k = 0; k < NKEYS; k++) {
        const char *v = val[k][0] != NULL ? val[k][0] : val[k][1];
        const char *key = val[k][0] != NULL ? keys[k][0] : keys[k][1];
        if (v == NULL)
            continue;
        switch (k) {
        case RETAIN:
        case PREFER:
        case DECODERS: {
            int b = parse_bool(v);
            if (b < 0) {
                config_problem(ctx, "%s: invalid value \"%.64s\" (expected "
                               "yes or no; the default stays)", key, v);
                break;
            }
            if (k == RETAIN)
                ctx->retain_seed = b;
            else if (k == PREFER)
                ctx->prefer_seed = b;
            else
                ctx->decoders = b;
            break;
        }
        case OUTF:
            parse_formats(ctx, key, v, ctx->output_formats);
            break;
        case INF:
            parse_formats(ctx, key, v, ctx->input_formats);
            break;
        }
    }
    check_unknown_keys(ctx, c_get_params, handle);
}

/* ---- Child library context -----------------------------------------------------
 * OSSL_LIB_CTX_new_child() mirrors every provider of the core's library
 * context, this instance included. A mirror of ourselves in our own child
 * context would hold an activation of this instance (the core up-refs a
 * mirror's parent with activation), so a library context freed without
 * OSSL_PROVIDER_unload() first (the default one at exit, when an
 * application never unloads, or a configuration-loaded provider) only
 * deactivates us down to that self-activation: teardown never runs, and
 * the instance, its child context and its DRBG stay allocated (a leak
 * report under LeakSanitizer). It would also take one more error library
 * number per load, and serves nothing: the child context is for the
 * default provider's X25519, ECDH, ciphers and DRBG. So the child context
 * is created from a copy of the core's dispatch table whose
 * register_child_cb registers filtering callbacks: they forward every
 * provider's creation and removal to the child context except this
 * instance's own. The callbacks are registered synchronously inside
 * OSSL_LIB_CTX_new_child(), in the initialising thread, which is how the
 * filter learns its context (child_init_ctx); later calls carry the
 * context as their callback data. */
static _Thread_local MLKEM_PROV_CTX *child_init_ctx;

static int child_create(const OSSL_CORE_HANDLE *prov, void *cbdata)
{
    MLKEM_PROV_CTX *ctx = cbdata;

    if (prov == ctx->handle)
        return 1; /* not ourselves */
    return ctx->child_create_cb(prov, ctx->child_cbdata);
}

static int child_remove(const OSSL_CORE_HANDLE *prov, void *cbdata)
{
    MLKEM_PROV_CTX *ctx = cbdata;

    if (prov == ctx->handle)
        return 1;
    return ctx->child_remove_cb(prov, ctx->child_cbdata);
}

static int child_global_props(const char *props, void *cbdata)
{
    MLKEM_PROV_CTX *ctx = cbdata;

    return ctx->child_global_props_cb(props, ctx->child_cbdata);
}

static int child_register(const OSSL_CORE_HANDLE *handle,
                          int (*create_cb)(const OSSL_CORE_HANDLE *, void *),
                          int (*remove_cb)(const OSSL_CORE_HANDLE *, void *),
                          int (*global_props_cb)(const char *, void *),
                          void *cbdata)
{
    MLKEM_PROV_CTX *ctx = child_init_ctx;

    if (ctx == NULL || handle != ctx->handle)
        return 0;
    ctx->child_create_cb = create_cb;
    ctx->child_remove_cb = remove_cb;
    ctx->child_global_props_cb = global_props_cb;
    ctx->child_cbdata = cbdata;
    return ctx->core_register_child_cb(handle, child_create, child_remove,
                                       child_global_props, ctx);
}

static OSSL_LIB_CTX *child_ctx_new(MLKEM_PROV_CTX *ctx,
                                   const OSSL_DISPATCH *in)
{
    OSSL_DISPATCH *copy;
    OSSL_LIB_CTX *libctx;
    size_t n = 0;

    while (in[n].function_id != 0)
        n++;
    if ((copy = OPENSSL_malloc((n + 1) * sizeof(*copy))) == NULL)
        return NULL;
    for (size_t i = 0; i <= n; i++) {
        copy[i] = in[i];
        if (in[i].function_id == OSSL_FUNC_PROVIDER_REGISTER_CHILD_CB) {
            ctx->core_register_child_cb =
                OSSL_FUNC_provider_register_child_cb(&in[i]);
            copy[i].function = (void (*)(void))child_register;
        }
    }
    child_init_ctx = ctx;
    libctx = OSSL_LIB_CTX_new_child(ctx->handle, copy);
    child_init_ctx = NULL;
    OPENSSL_free(copy); /* the child context keeps the functions, not the table */
    return libctx;
}

/* ---- OIDs -------------------------------------------------------------------
 * OpenSSL 3.0 knows no ML-KEM OIDs; create them through the core (which
 * answers success when the OID already exists, as on 3.5). */
static int create_oids(const MLKEM_PROV_CTX *ctx,
                       OSSL_FUNC_core_obj_create_fn *obj_create)
{
    if (obj_create == NULL) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_OBJ_CREATE_FAILED,
                         "mlkem: cannot create object identifier: the core "
                         "offers no obj_create");
        return 0;
    }
    for (int v = MLKEM_512; v <= MLKEM_1024; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        const mlkem_prov_set *set = mlkem_prov_set_of(p);

        if (!obj_create(ctx->handle, set->oid, set->oid_sn, p->name)) {
            MLKEM_RAISE_DATA(ctx, MLKEM_R_OBJ_CREATE_FAILED,
                             "mlkem: cannot create object identifier %s (%s)",
                             set->oid, set->oid_sn);
            return 0;
        }
    }
    return 1;
}

/* ---- Entry point ---------------------------------------------------------------- */

/* The module's only exported symbol (the build compiles with hidden
 * visibility; provider/mlkem.map keeps everything else local). */
#if defined(__GNUC__) || defined(__clang__)
#define MLKEM_EXPORT __attribute__((visibility("default")))
#else
#define MLKEM_EXPORT
#endif

OSSL_provider_init_fn OSSL_provider_init;

MLKEM_EXPORT int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                    const OSSL_DISPATCH *in,
                                    const OSSL_DISPATCH **out, void **provctx)
{
    MLKEM_PROV_CTX *ctx = NULL;
    OSSL_FUNC_core_get_params_fn *get_params = NULL;
    OSSL_FUNC_core_obj_create_fn *obj_create = NULL;
    const char *ossl_version = NULL;

    /* mlkem's error library number and strings, once per process. */
    if (!CRYPTO_THREAD_run_once(&err_once, err_init))
        return 0;
    if ((ctx = OPENSSL_zalloc(sizeof(*ctx))) == NULL)
        return 0;
    ctx->handle = handle;
    ctx->err_lib = atomic_load(&err_lib);
    ctx->rand_id = mlkem_prov_rand_new_id();
    for (const OSSL_DISPATCH *d = in; d->function_id != 0; d++) {
        switch (d->function_id) {
        case OSSL_FUNC_CORE_GET_PARAMS:
            get_params = OSSL_FUNC_core_get_params(d);
            break;
        case OSSL_FUNC_CORE_NEW_ERROR:
            ctx->core_new_error = OSSL_FUNC_core_new_error(d);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            ctx->core_set_error_debug = OSSL_FUNC_core_set_error_debug(d);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            ctx->core_vset_error = OSSL_FUNC_core_vset_error(d);
            break;
        case OSSL_FUNC_CORE_OBJ_CREATE:
            obj_create = OSSL_FUNC_core_obj_create(d);
            break;
        default:
            /* Unknown or unneeded upcalls are ignored. */
            break;
        }
    }

    if (get_params != NULL) {
        OSSL_PARAM vp[2];
        vp[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_CORE_VERSION,
                                              (char **)&ossl_version, 0);
        vp[1] = OSSL_PARAM_construct_end();
        if (!get_params(handle, vp))
            ossl_version = NULL;
    }
    ctx->ossl_version = parse_version(ossl_version);
    if (ctx->ossl_version == 0) {
        /* The core always answers "openssl-version"; this is a fallback. */
        unsigned long v = OpenSSL_version_num();
        ctx->ossl_version = MLKEM_OSSL_VERSION((v >> 28) & 0xF,
                                               (v >> 20) & 0xFF,
                                               (v >> 4) & 0xFF);
    }
    /* A core of another major release (this 3.x-built module in OpenSSL
     * 4.0, whose libcrypto.so.4 versions every symbol OPENSSL_4.0.0, so our
     * OPENSSL_3.0.0 references bind to a libcrypto.so.3 that only we use).
     * That library would clean up in its atexit handler, and the host's
     * cleanup runs later, from a destructor (4.0 NEWS), and calls our
     * teardown, which would then free the child library context below in
     * a finished library: a crash at every exit. So ours never cleans up;
     * the option counts because this is that library's first
     * initialisation (docs/openssl-versions.md). */
    if ((ctx->ossl_version >> 28) != (OpenSSL_version_num() >> 28)) {
        OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
        /* Our library number and strings live in that other libcrypto, which
         * the host's error queue never reads: raise unpacked reasons, which
         * the core packs with this instance's number, and serve the strings
         * to the core (mlkem_prov_reasons). */
        ctx->err_lib = 0;
    }

    read_config(get_params, handle, ctx);
    /* "mlkem 0.1.0 (FIPS 203 final; backend avx2; built with OpenSSL
     * 3.0.19; running on OpenSSL 3.5.7)", plus "; configuration error:
     * <config-error>" when there is one: `openssl list -providers -verbose`
     * prints the build info, and no other parameter value, on 3.0. The
     * kernels for this CPU are chosen once (arch/dispatch.c). */
    snprintf(ctx->buildinfo, sizeof(ctx->buildinfo),
             "mlkem %s (FIPS 203 final; backend %s; built with OpenSSL %s; "
             "running on OpenSSL %lu.%lu.%lu)%s%s",
             MLKEM_VERSION_STR, mlkem_backend_name(), OPENSSL_VERSION_STR,
             (ctx->ossl_version >> 28) & 0xF,
             (ctx->ossl_version >> 20) & 0xFF,
             (ctx->ossl_version >> 4) & 0xFF,
             ctx->config_error[0] != '\0' ? "; configuration error: " : "",
             ctx->config_error);
    if (!create_oids(ctx, obj_create))
        goto err;

    /* A child library context mirrors the providers loaded in ours (but
     * this instance, see child_ctx_new): the hybrids fetch X25519 / ECDH
     * there, and RAND_priv_bytes_ex draws from its DRBG (seeded through the
     * parent). */
    if ((ctx->libctx = child_ctx_new(ctx, in)) == NULL) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "mlkem: cannot create a child library context");
        goto err;
    }

    if (!mlkem_prov_rand_init(ctx, in))
        goto err;
    *out = ctx->err_lib != 0 ? mlkem_prov_dispatch
                             : mlkem_prov_dispatch_reasons;
    *provctx = ctx;
    return 1;

err:
    OSSL_LIB_CTX_free(ctx->libctx);
    OPENSSL_free(ctx);
    return 0;
}
