/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prov.c: the provider's entry point. OSSL_provider_init (the core's
 * upcalls, the running OpenSSL version, the build info, OID creation), the
 * provider's parameters, query_operation with the OSSL_ALGORITHM tables,
 * and the parameter-set table. What init calls lives beside it: errors.c
 * (library number), config.c (the configuration section), child.c (the
 * instance's library context).
 *
 * References
 *   [FIPS203]  NIST FIPS 203 (ML-KEM), August 2024; OIDs from NIST CSOR:
 *              id-alg-ml-kem-512/768/1024 = 2.16.840.1.101.3.4.4.1/.2/.3.
 *   [PROV]     OpenSSL provider(7), provider-base(7): the core upcalls used
 *              here exist unchanged in every OpenSSL 3.x.
 *
 * Init leaves no error on the queue when it succeeds: a stale error would
 * make later calls such as SSL_get_error() misreport (a bad configuration
 * does not fail init, config.c says why).
 */
#include <stdio.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "provider/prov.h"
#include "provider/rand.h"

/* Provider parameter: the first bad configuration value ("" if none). */
#define MLKEM_PROV_PARAM_CONFIG_ERROR "config-error"

#ifndef MLKEM_VERSION_STR
#define MLKEM_VERSION_STR "0.0.0"
#endif

/* ---- The parameter-set table (prov.h) ------------------------------------ */

#define SET_ROW(bits, v)                                                      \
    [v] = { v, MLKEM_PROV_NAMES(bits), MLKEM_PROV_OID(bits),                  \
            MLKEM_PROV_OID_SN(bits) },
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
      (void (*)(void))mlkem_prov_get_reason_strings },
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
    int err_lib = 0;

    /* mlkem's error library number and strings, once per process. */
    if (!mlkem_prov_err_init(&err_lib))
        return 0;
    if ((ctx = OPENSSL_zalloc(sizeof(*ctx))) == NULL)
        return 0;
    ctx->handle = handle;
    ctx->err_lib = err_lib;
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
         * to the core (mlkem_prov_get_reason_strings). */
        ctx->err_lib = 0;
    }

    mlkem_prov_config_read(ctx, get_params, handle);
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
     * this instance, child.c): the hybrids fetch X25519 / ECDH there
     * (mirrored providers run with the application's provider context, so
     * their keys come from the application's DRBG); our own randomness is
     * rand.c's (mlkem_prov_rand_init). */
    if ((ctx->libctx = mlkem_prov_child_ctx_new(ctx, in)) == NULL) {
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
