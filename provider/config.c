/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config.c: the provider's configuration, read once per instance at init
 * (mlkem_prov_config_read) into MLKEM_PROV_CTX.
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
 * library).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/conf.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "provider/codecs_der.h"
#include "provider/conf_keys.h"
#include "provider/prov.h"

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
    char msg[sizeof(ctx->config_error)];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    mlkem_prov_trace("configuration: %s", msg);
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
 * instance without configuration (OSSL_PROVIDER_load, -provider). The
 * keys and the walk are provider/conf_keys.h's, shared with mlkem-check. */

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

struct check_arg {
    MLKEM_PROV_CTX *ctx;
    OSSL_FUNC_core_get_params_fn *get_params;
    const OSSL_CORE_HANDLE *handle;
};

static void check_key(const char *section, const char *name, const char *key,
                      const char *value, void *arg)
{
    const struct check_arg *c = arg;

    (void)section;
    (void)name;
    if (mlkem_conf_known_key(key)
        || !core_has(c->get_params, c->handle, key, value))
        return;
    if (strcmp(mlkem_conf_base(key), "import_pct_type") == 0)
        config_problem(c->ctx, "%s: not supported by mlkem (ignored: "
                       "an imported private key always gets a "
                       "pairwise test with a random m)", key);
    else
        config_problem(c->ctx, "%s: unknown key (ignored; known: "
                       MLKEM_CONF_OWN_KEYS ")", key);
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

        if (sect != NULL) {
            struct check_arg c = { ctx, get_params, handle };

            mlkem_conf_walk(conf, sect, "", 0, check_key, &c);
        }
    }
    NCONF_free(conf);
    OPENSSL_free(file);
    ERR_pop_to_mark();
}

/* ---- Reading the section (prov.h) ------------------------------------------ */

void mlkem_prov_config_read(MLKEM_PROV_CTX *ctx,
                            OSSL_FUNC_core_get_params_fn *c_get_params,
                            const OSSL_CORE_HANDLE *handle)
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


const char *mlkem_prov_config_formats_problem(const MLKEM_PROV_CTX *ctx,
                                              const int *list)
{
    /* A list is only ever empty when a bad value emptied it (the defaults
     * list every format); the first problem recorded names it. */
    return list[0] < 0 && ctx->config_error[0] != '\0' ? ctx->config_error
                                                       : NULL;
}
