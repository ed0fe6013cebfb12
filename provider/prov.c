/*
 * prov.c: the provider's entry point. OSSL_provider_init, provider
 * parameters, query_operation with the OSSL_ALGORITHM tables, reason strings,
 * OID creation, configuration, and mlkem_prov_err (errors through the core).
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
 * wins). Lists are separated by commas, spaces or tabs.
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
 * The first bad value is kept as a message in MLKEM_PROV_CTX.config_error
 * and served as the provider parameter "config-error" (empty when none),
 * e.g. 'ml-kem.output_formats: unknown key format name "bogus"'. Init
 * leaves no error on the queue: a stale error would make later calls such
 * as SSL_get_error() misreport.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "provider/codecs_der.h"
#include "provider/prov.h"

/* Provider parameter: the first bad configuration value ("" if none). */
#define MLKEM_PROV_PARAM_CONFIG_ERROR "config-error"

#ifndef MLKEM_VERSION_STR
#define MLKEM_VERSION_STR "0.0.0"
#endif

/* ---- Core upcalls ---------------------------------------------------------
 * The function pointers are the same for every load of this module (one
 * libcrypto per process), so they live in statics. The handle decides which
 * library code an error gets; see the handle registry below. */
static OSSL_FUNC_core_get_params_fn *c_get_params;
static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;
static OSSL_FUNC_core_obj_create_fn *c_obj_create;

/* ---- Handle registry ------------------------------------------------------
 * mlkem_prov_err() has no provider context, so it needs a live core handle.
 * The module may be loaded into several library contexts at once, and any of
 * them may be unloaded first: keep every live handle and use the oldest.
 * Each provider object has its own error library code with our reason
 * strings loaded, so any live handle gives the right text. A spin lock (no
 * allocation, nothing to free at dlclose) guards the table; errors are rare. */
#define MLKEM_MAX_INSTANCES 64
static atomic_flag g_lock = ATOMIC_FLAG_INIT;
static const OSSL_CORE_HANDLE *g_handles[MLKEM_MAX_INSTANCES];

static void registry_lock(void)
{
    while (atomic_flag_test_and_set_explicit(&g_lock, memory_order_acquire))
        ;
}

static void registry_unlock(void)
{
    atomic_flag_clear_explicit(&g_lock, memory_order_release);
}

static void registry_add(const OSSL_CORE_HANDLE *h)
{
    registry_lock();
    for (size_t i = 0; i < MLKEM_MAX_INSTANCES; i++) {
        if (g_handles[i] == NULL) {
            g_handles[i] = h;
            break;
        }
    }
    registry_unlock();
}

static void registry_remove(const OSSL_CORE_HANDLE *h)
{
    registry_lock();
    for (size_t i = 0; i < MLKEM_MAX_INSTANCES; i++) {
        if (g_handles[i] == h)
            g_handles[i] = NULL;
    }
    registry_unlock();
}

/* During OSSL_provider_init the handle is not registered yet (init may still
 * fail); errors raised there use it when no registered one exists. */
static const OSSL_CORE_HANDLE *g_init_handle;

static void set_init_handle(const OSSL_CORE_HANDLE *h)
{
    registry_lock();
    g_init_handle = h;
    registry_unlock();
}

static void raise_with(const OSSL_CORE_HANDLE *h, const char *file, int line,
                       const char *func, int reason, const char *fmt,
                       va_list ap)
{
    c_new_error(h);
    c_set_error_debug(h, file, line, func);
    /* A reason with a zero library field is ours: the core adds the library
     * code it assigned to this provider object. */
    c_vset_error(h, (uint32_t)reason, fmt, ap);
}

void mlkem_prov_err(const char *file, int line, const char *func, int reason,
                    const char *fmt, ...)
{
    va_list ap;
    const OSSL_CORE_HANDLE *h = NULL;

    va_start(ap, fmt);
    registry_lock();
    for (size_t i = 0; i < MLKEM_MAX_INSTANCES && h == NULL; i++)
        h = g_handles[i];
    if (h == NULL)
        h = g_init_handle;
    if (h != NULL && c_new_error != NULL && c_set_error_debug != NULL
        && c_vset_error != NULL)
        raise_with(h, file, line, func, reason, fmt, ap);
    registry_unlock();
    va_end(ap);
}

/* ---- Reason strings (served to the core, which tags them with our library
 * code; `openssl` then prints e.g. "encapsulation key not reduced mod q"). */
static const OSSL_ITEM mlkem_reason_strings[] = {
    { MLKEM_R_EK_NOT_REDUCED, "encapsulation key not reduced mod q" },
    { MLKEM_R_DK_HASH_MISMATCH, "decapsulation key hash check failed" },
    { MLKEM_R_DK_NOT_REDUCED, "decapsulation key not reduced mod q" },
    { MLKEM_R_BAD_KEY_LENGTH, "invalid key length" },
    { MLKEM_R_BAD_CIPHERTEXT_LENGTH, "invalid ciphertext length" },
    { MLKEM_R_BAD_SEED_LENGTH, "invalid seed length" },
    { MLKEM_R_SEED_KEY_MISMATCH, "seed does not match private key" },
    { MLKEM_R_PCT_FAILED, "pairwise consistency test failed" },
    { MLKEM_R_MISSING_KEY, "missing key" },
    { MLKEM_R_KEY_NOT_EMPTY, "key already set" },
    { MLKEM_R_BAD_IKME_LENGTH, "invalid ikme length" },
    { MLKEM_R_OUTPUT_TOO_SMALL, "output buffer too small" },
    { MLKEM_R_RANDOM_FAILED, "random generation failed" },
    { MLKEM_R_BAD_ENCODING, "invalid key encoding" },
    { MLKEM_R_WRONG_ALGORITHM, "wrong algorithm identifier" },
    { MLKEM_R_BAD_FORMAT_NAME, "unknown key format name" },
    { MLKEM_R_BAD_PARAMETER, "invalid parameter" },
    { MLKEM_R_BAD_POINT, "invalid elliptic curve point" },
    { MLKEM_R_ZERO_SHARED_SECRET, "all-zero X25519 shared secret" },
    { MLKEM_R_CLASSICAL_FAILED, "classical key exchange failed" },
    { MLKEM_R_WRONG_KEY_TYPE, "key of the wrong type" },
    { MLKEM_R_OBJ_CREATE_FAILED, "cannot create object identifier" },
    { MLKEM_R_KEY_MISMATCH, "public key does not match private key" },
    { 0, NULL }
};

/* ---- Algorithm tables -----------------------------------------------------
 * Names copied from OpenSSL 3.5 (name, alias, OID short name, dotted OID), so
 * code and configuration written for 3.5 work unchanged on 3.0. */
#define MLKEM_PROPS "provider=mlkem"
#define MLKEM_NAMES_512 "ML-KEM-512:MLKEM512:id-alg-ml-kem-512:2.16.840.1.101.3.4.4.1"
#define MLKEM_NAMES_768 "ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2"
#define MLKEM_NAMES_1024 "ML-KEM-1024:MLKEM1024:id-alg-ml-kem-1024:2.16.840.1.101.3.4.4.3"

static const OSSL_ALGORITHM mlkem_keymgmt_algs[] = {
    { MLKEM_NAMES_512, MLKEM_PROPS, mlkem_512_keymgmt_functions,
      "ML-KEM-512 key management (FIPS 203)" },
    { MLKEM_NAMES_768, MLKEM_PROPS, mlkem_768_keymgmt_functions,
      "ML-KEM-768 key management (FIPS 203)" },
    { MLKEM_NAMES_1024, MLKEM_PROPS, mlkem_1024_keymgmt_functions,
      "ML-KEM-1024 key management (FIPS 203)" },
    { "X25519MLKEM768", MLKEM_PROPS, mlkem_x25519mlkem768_keymgmt_functions,
      "X25519 + ML-KEM-768 hybrid key management" },
    { "SecP256r1MLKEM768", MLKEM_PROPS,
      mlkem_secp256r1mlkem768_keymgmt_functions,
      "P-256 + ML-KEM-768 hybrid key management" },
    { "SecP384r1MLKEM1024", MLKEM_PROPS,
      mlkem_secp384r1mlkem1024_keymgmt_functions,
      "P-384 + ML-KEM-1024 hybrid key management" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM mlkem_kem_algs[] = {
    { MLKEM_NAMES_512, MLKEM_PROPS, mlkem_kem_functions,
      "ML-KEM-512 encapsulation (FIPS 203)" },
    { MLKEM_NAMES_768, MLKEM_PROPS, mlkem_kem_functions,
      "ML-KEM-768 encapsulation (FIPS 203)" },
    { MLKEM_NAMES_1024, MLKEM_PROPS, mlkem_kem_functions,
      "ML-KEM-1024 encapsulation (FIPS 203)" },
    { "X25519MLKEM768", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "X25519 + ML-KEM-768 hybrid KEM" },
    { "SecP256r1MLKEM768", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "P-256 + ML-KEM-768 hybrid KEM" },
    { "SecP384r1MLKEM1024", MLKEM_PROPS, mlkem_hybrid_kem_functions,
      "P-384 + ML-KEM-1024 hybrid KEM" },
    { NULL, NULL, NULL, NULL }
};

/* ---- Provider functions ---------------------------------------------------- */

static OSSL_FUNC_provider_teardown_fn mlkem_prov_teardown;
static OSSL_FUNC_provider_gettable_params_fn mlkem_prov_gettable_params;
static OSSL_FUNC_provider_get_params_fn mlkem_prov_get_params;
static OSSL_FUNC_provider_query_operation_fn mlkem_prov_query;
static OSSL_FUNC_provider_get_reason_strings_fn mlkem_prov_reasons;

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

/* "mlkem 0.1.0 (FIPS 203 final; backend portable; built with OpenSSL 3.0.19;
 * running on OpenSSL 3.5.7)". One libcrypto per process, so one text. */
static char g_buildinfo[200];

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
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, g_buildinfo))
        goto err;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        goto err;
    p = OSSL_PARAM_locate(params, MLKEM_PROV_PARAM_CONFIG_ERROR);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, ctx->config_error))
        goto err;
    return 1;
err:
    MLKEM_RAISE(MLKEM_R_BAD_PARAMETER);
    return 0;
}

static const OSSL_ALGORITHM *mlkem_prov_query(void *provctx, int operation_id,
                                              int *no_cache)
{
    (void)provctx;
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
        return mlkem_prov_decoders;
    default:
        return NULL;
    }
}

static const OSSL_ITEM *mlkem_prov_reasons(void *provctx)
{
    (void)provctx;
    return mlkem_reason_strings;
}

static void mlkem_prov_teardown(void *vctx)
{
    MLKEM_PROV_CTX *ctx = vctx;

    if (ctx == NULL)
        return;
    registry_remove(ctx->handle);
    OSSL_LIB_CTX_free(ctx->libctx);
    OPENSSL_free(ctx);
}

static const OSSL_DISPATCH mlkem_prov_dispatch[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))mlkem_prov_teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS,
      (void (*)(void))mlkem_prov_gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))mlkem_prov_get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))mlkem_prov_query },
    { OSSL_FUNC_PROVIDER_GET_REASON_STRINGS,
      (void (*)(void))mlkem_prov_reasons },
    { OSSL_FUNC_PROVIDER_GET_CAPABILITIES,
      (void (*)(void))mlkem_prov_get_capabilities },
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

/* Record the first configuration problem (later ones are dropped). */
static void config_problem(MLKEM_PROV_CTX *ctx, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void config_problem(MLKEM_PROV_CTX *ctx, const char *fmt, ...)
{
    va_list ap;

    if (ctx->config_error[0] != '\0')
        return;
    va_start(ap, fmt);
    vsnprintf(ctx->config_error, sizeof(ctx->config_error), fmt, ap);
    va_end(ap);
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
    memcpy(ctx->output_formats, out_order, sizeof(out_order));
    memcpy(ctx->input_formats, in_order, sizeof(in_order));
}

/* Read the provider's configuration section through core_get_params. */
static void read_config(const OSSL_CORE_HANDLE *handle, MLKEM_PROV_CTX *ctx)
{
    enum { RETAIN, PREFER, OUTF, INF, NKEYS };
    static const char *const keys[NKEYS][2] = {
        { "ml-kem.retain_seed", "retain_seed" },
        { "ml-kem.prefer_seed", "prefer_seed" },
        { "ml-kem.output_formats", "output_formats" },
        { "ml-kem.input_formats", "input_formats" },
    };
    char *val[NKEYS][2] = { { NULL, NULL } };
    OSSL_PARAM params[2 * NKEYS + 1];
    size_t n = 0;

    set_default_config(ctx);
    if (c_get_params == NULL)
        return;
    for (int k = 0; k < NKEYS; k++)
        for (int j = 0; j < 2; j++)
            params[n++] = OSSL_PARAM_construct_utf8_ptr(keys[k][j], &val[k][j], 0);
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
        case PREFER: {
            int b = parse_bool(v);
            if (b < 0) {
                config_problem(ctx, "%s: invalid value \"%.64s\" (expected "
                               "yes or no; the default stays)", key, v);
                break;
            }
            if (k == RETAIN)
                ctx->retain_seed = b;
            else
                ctx->prefer_seed = b;
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
}

/* ---- OIDs -------------------------------------------------------------------
 * OpenSSL 3.0 knows no ML-KEM OIDs; create them through the core (which
 * answers success when the OID already exists, as on 3.5). */
static int create_oids(const OSSL_CORE_HANDLE *handle)
{
    static const char *const oids[3][3] = {
        { "2.16.840.1.101.3.4.4.1", "id-alg-ml-kem-512", "ML-KEM-512" },
        { "2.16.840.1.101.3.4.4.2", "id-alg-ml-kem-768", "ML-KEM-768" },
        { "2.16.840.1.101.3.4.4.3", "id-alg-ml-kem-1024", "ML-KEM-1024" },
    };

    if (c_obj_create == NULL) {
        MLKEM_RAISE_DATA(MLKEM_R_OBJ_CREATE_FAILED,
                         "mlkem: cannot create object identifier: the core "
                         "offers no obj_create");
        return 0;
    }
    for (size_t i = 0; i < 3; i++) {
        if (!c_obj_create(handle, oids[i][0], oids[i][1], oids[i][2])) {
            MLKEM_RAISE_DATA(MLKEM_R_OBJ_CREATE_FAILED,
                             "mlkem: cannot create object identifier %s (%s)",
                             oids[i][0], oids[i][1]);
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
    const char *ossl_version = NULL;

    /* The upcalls are the same for every load; store them under the lock
     * that mlkem_prov_err() reads them with. */
    registry_lock();
    for (const OSSL_DISPATCH *d = in; d->function_id != 0; d++) {
        switch (d->function_id) {
        case OSSL_FUNC_CORE_GET_PARAMS:
            c_get_params = OSSL_FUNC_core_get_params(d);
            break;
        case OSSL_FUNC_CORE_NEW_ERROR:
            c_new_error = OSSL_FUNC_core_new_error(d);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            c_set_error_debug = OSSL_FUNC_core_set_error_debug(d);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            c_vset_error = OSSL_FUNC_core_vset_error(d);
            break;
        case OSSL_FUNC_CORE_OBJ_CREATE:
            c_obj_create = OSSL_FUNC_core_obj_create(d);
            break;
        default:
            /* Unknown or unneeded upcalls are ignored. */
            break;
        }
    }
    g_init_handle = handle;
    registry_unlock();

    /* The kernels for this CPU are chosen once (arch/dispatch.c). */
    const char *backend = mlkem_backend_name();

    if ((ctx = OPENSSL_zalloc(sizeof(*ctx))) == NULL)
        goto err;
    ctx->handle = handle;

    if (c_get_params != NULL) {
        OSSL_PARAM vp[2];
        vp[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_CORE_VERSION,
                                              (char **)&ossl_version, 0);
        vp[1] = OSSL_PARAM_construct_end();
        if (!c_get_params(handle, vp))
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
    if ((ctx->ossl_version >> 28) != (OpenSSL_version_num() >> 28))
        OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);

    read_config(handle, ctx);
    if (!create_oids(handle))
        goto err;

    /* A child library context mirrors the providers loaded in ours: the
     * hybrids fetch X25519 / ECDH there, and RAND_priv_bytes_ex draws from
     * its DRBG (seeded through the parent). */
    if ((ctx->libctx = OSSL_LIB_CTX_new_child(handle, in)) == NULL) {
        MLKEM_RAISE_DATA(MLKEM_R_BAD_PARAMETER,
                         "mlkem: cannot create a child library context");
        goto err;
    }

    /* Written once (by the first load); later loads see the same text. */
    registry_lock();
    if (g_buildinfo[0] == '\0')
        snprintf(g_buildinfo, sizeof(g_buildinfo),
                 "mlkem %s (FIPS 203 final; backend %s; built with OpenSSL %s; "
                 "running on OpenSSL %lu.%lu.%lu)",
                 MLKEM_VERSION_STR, backend, OPENSSL_VERSION_STR,
                 (ctx->ossl_version >> 28) & 0xF,
                 (ctx->ossl_version >> 20) & 0xFF,
                 (ctx->ossl_version >> 4) & 0xFF);
    registry_unlock();

    registry_add(handle);
    set_init_handle(NULL);
    *out = mlkem_prov_dispatch;
    *provctx = ctx;
    return 1;

err:
    if (ctx != NULL) {
        OSSL_LIB_CTX_free(ctx->libctx);
        OPENSSL_free(ctx);
    }
    set_init_handle(NULL);
    return 0;
}
