/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem_check_config.c: `mlkem-check --config [FILE]`, the configuration
 * doctor.
 *
 * `openssl list -providers -provider mlkem` says "active" even when
 * openssl.cnf is broken, because -provider loads the module by name. And
 * OpenSSL 3.0 loads a configuration quietly: a misspelt section or key, a
 * missing `activate`, a module path that does not exist leave only the
 * default provider active, with no message. This mode loads the
 * configuration as a program does (FILE, else OPENSSL_CONF, else OpenSSL's
 * default file), with config diagnostics on (CONF_modules_load_file_ex
 * without CONF_MFLAGS_IGNORE_*: the `config_diagnostics = 1` behaviour),
 * and reports:
 *  - whether mlkem is active FROM THE CONFIGURATION (no provider is loaded
 *    by name here), the module file that was loaded (dladdr of the
 *    provider's dispatch table) and how its path was found, the version
 *    and the kernel backend (the provider's build info), and the provider's
 *    own "config-error";
 *  - every problem it finds by reading the file itself: openssl_conf, the
 *    init, providers and provider sections (missing, with the nearest
 *    existing name), keys of the provider section that neither OpenSSL nor
 *    mlkem knows (nearest known key), `activate` missing or false, the
 *    module file resolved as OpenSSL 3 does (OPENSSL_MODULES or MODULESDIR,
 *    "mlkem.so" when there is no module line, no extension added to a
 *    module line) missing or without OSSL_provider_init, unknown ml-kem.*
 *    keys, and OpenSSL's own diagnostics;
 *  - the TLS groups of the ssl_conf Groups (or Curves) line, each marked
 *    known or unknown to this OpenSSL as loaded (SSL_CTX_set1_groups_list
 *    of that group alone, after the configuration is applied): OpenSSL 3.0
 *    drops a whole Groups line that names one unknown group.
 * Output: "name: value" lines, each problem as "problem: ..." and a last
 * line "result: ...". Exit status 0 when mlkem is active and nothing is
 * wrong, 1 on any problem, 2 when the file cannot be read.
 */
#define _GNU_SOURCE /* dladdr */

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <openssl/conf.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

#include "mlkem_check.h"
#include "provider/conf_keys.h"

static int problems;

static void problem(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void problem(const char *fmt, ...)
{
    va_list ap;

    fputs("problem: ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    problems++;
}

/* Edit distance, for "did you mean"; capped inputs (names are short). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), d[65][65];

    if (la > 64 || lb > 64)
        return 99;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t s = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = s < del ? (s < ins ? s : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

/* The section of conf nearest to name (at most 3 edits), or NULL. */
static const char *nearest_section(const CONF *conf, const char *file,
                                   const char *name)
{
    static char best[128];
    size_t bestd = 4;
    FILE *f = fopen(file, "r");
    char line[512];

    /* NCONF has no list of sections: read the [names] from the file (and
     * the files it includes are not searched; a hint only). */
    best[0] = '\0';
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        char *s = line + strspn(line, " \t"), *e;
        if (*s != '[' || (e = strchr(s, ']')) == NULL)
            continue;
        *e = '\0';
        s++;
        s += strspn(s, " \t");
        for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
            e[-1] = '\0';
        if (strcmp(s, name) != 0 && NCONF_get_section(conf, s) != NULL
            && distance(s, name) < bestd) {
            bestd = distance(s, name);
            snprintf(best, sizeof(best), "%s", s);
        }
    }
    if (f != NULL)
        fclose(f);
    return best[0] != '\0' ? best : NULL;
}

static const char *nearest_key(const char *key)
{
    const char *best = NULL;
    size_t bestd = 3;
    const char *k = mlkem_conf_base(key);

    for (size_t i = 0; i < 4; i++) {
        if (distance(k, mlkem_conf_core_keys[i]) < bestd)
            bestd = distance(k, mlkem_conf_core_keys[i]),
            best = mlkem_conf_core_keys[i];
        if (distance(k, mlkem_conf_own_keys[i]) < bestd)
            bestd = distance(k, mlkem_conf_own_keys[i]),
            best = mlkem_conf_own_keys[i];
    }
    if (distance(k, "decoders") < bestd)
        best = "decoders";
    return best;
}

static int is_true(const char *v)
{
    return strcmp(v, "1") == 0 || strcasecmp(v, "yes") == 0
           || strcasecmp(v, "true") == 0 || strcasecmp(v, "on") == 0;
}

/* One key of the provider's section (provider/conf_keys.h's walk). */
static void check_key(const char *section, const char *name, const char *key,
                      const char *value, void *arg)
{
    const char *near;

    (void)arg;
    if (mlkem_conf_known_key(key))
        return;
    near = nearest_key(key);
    problem("[%s] %s = %s: unknown key%s%s%s (neither OpenSSL nor mlkem "
            "reads it; known: " MLKEM_CONF_ALL_KEYS ")", section, name, value,
            near != NULL ? ", did you mean " : "", near != NULL ? near : "",
            near != NULL ? "?" : "");
}

/* MODULESDIR as this libcrypto was built ("MODULESDIR: \"/dir\""). */
static const char *modules_dir(char *buf, size_t len)
{
    const char *s = OpenSSL_version(OPENSSL_MODULES_DIR), *q = strchr(s, '"');

    snprintf(buf, len, "%s", q != NULL ? q + 1 : s);
    if ((q = strrchr(buf, '"')) != NULL)
        buf[q - buf] = '\0';
    return buf;
}

/*
 * The module file of provider `name` configured in section, resolved as
 * OpenSSL 3's provider_init does: module = PATH taken as written (no
 * extension added), else NAME.so; a relative path under OPENSSL_MODULES or
 * MODULESDIR. Writes the path and how it was found; checks the file.
 */
static void check_module(const CONF *conf, const char *section, const char *name,
                         char *path, size_t pathlen, char *how, size_t howlen)
{
    const char *module = NCONF_get_string(conf, section, "module");
    const char *env = getenv("OPENSSL_MODULES");
    char dirbuf[512], rel[256];
    const char *dir;
    struct stat st;
    void *h;

    ERR_clear_error();
    snprintf(rel, sizeof(rel), "%s%s", module != NULL ? module : name,
             module != NULL ? "" : ".so");
    dir = env != NULL && *env != '\0' ? env : modules_dir(dirbuf, sizeof(dirbuf));
    /* (a path too long for the buffers is cut: it is then reported missing) */
    if (rel[0] == '/') {
        if (snprintf(path, pathlen, "%s", rel) < 0)
            path[0] = '\0';
        snprintf(how, howlen, "module = %s in [%s], an absolute path", rel, section);
    } else {
        if (snprintf(path, pathlen, "%s/%s", dir, rel) < 0)
            path[0] = '\0';
        if (snprintf(how, howlen, "%s%s in [%s], looked up in %s %s", module != NULL
                 ? "module = " : "no module line: the name + .so, ", rel, section,
                 env != NULL && *env != '\0' ? "$OPENSSL_MODULES" :
                 "OpenSSL's modules directory (openssl version -m)", dir) < 0)
            how[0] = '\0';
    }
    if (stat(path, &st) != 0) {
        char alt[600];
        if (snprintf(alt, sizeof(alt), "%s.so", path) < 0)
            alt[0] = '\0';
        problem("[%s] module: %s does not exist (%s)%s", section, path, how,
                stat(alt, &st) == 0 ? "; OpenSSL adds no extension to a module "
                "line: write module = mlkem.so" : "");
        return;
    }
    h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (h == NULL) {
        problem("[%s] module: %s is not a loadable module: %s", section, path,
                dlerror());
        return;
    }
    if (dlsym(h, "OSSL_provider_init") == NULL)
        problem("[%s] module: %s is not an OpenSSL provider module (no "
                "OSSL_provider_init)", section, path);
    dlclose(h);
}

struct active {
    const char *want; /* the configured name of the mlkem provider */
    int mlkem;
    char names[256];
    char module[512];
    char version[64];
    char buildinfo[512];
    char config_error[512];
};

static int provider_cb(OSSL_PROVIDER *p, void *arg)
{
    struct active *a = arg;
    const char *name = OSSL_PROVIDER_get0_name(p);
    size_t n = strlen(a->names);

    snprintf(a->names + n, sizeof(a->names) - n, "%s%s", n > 0 ? " " : "", name);
    if (strcmp(name, a->want) == 0) {
        const char *v = NULL, *b = NULL, *e = NULL;
        const OSSL_DISPATCH *d = OSSL_PROVIDER_get0_dispatch(p);
        Dl_info info;
        OSSL_PARAM params[] = {
            OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&v, 0),
            OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&b, 0),
            OSSL_PARAM_utf8_ptr("config-error", (char **)&e, 0),
            OSSL_PARAM_END,
        };

        a->mlkem = 1;
        if (!OSSL_PROVIDER_get_params(p, params))
            ERR_clear_error();
        snprintf(a->version, sizeof(a->version), "%s", v != NULL ? v : "?");
        snprintf(a->buildinfo, sizeof(a->buildinfo), "%s", b != NULL ? b : "?");
        snprintf(a->config_error, sizeof(a->config_error), "%s", e != NULL ? e : "");
        if (d != NULL && dladdr((const void *)d, &info) != 0 && info.dli_fname != NULL)
            snprintf(a->module, sizeof(a->module), "%s", info.dli_fname);
    }
    return 1;
}

/* The ssl_conf Groups (or Curves) line, each group known or not. */
static void check_groups(const CONF *conf, const char *init)
{
    const char *ssl = NCONF_get_string(conf, init, "ssl_conf");
    const char *sysdef, *line;
    SSL_CTX *ctx;
    char *copy, *tok, *save = NULL;
    int nunknown = 0;

    ERR_clear_error();
    if (ssl == NULL) {
        problem("[%s] has no ssl_conf line: the configuration sets no TLS groups "
                "(programs use OpenSSL's default list, without ML-KEM on 3.0-3.4)",
                init);
        return;
    }
    if (NCONF_get_section(conf, ssl) == NULL) {
        problem("[%s] ssl_conf = %s: there is no section [%s]", init, ssl, ssl);
        return;
    }
    sysdef = NCONF_get_string(conf, ssl, "system_default");
    if (sysdef == NULL || NCONF_get_section(conf, sysdef) == NULL) {
        problem("[%s] system_default%s%s: %s", ssl, sysdef != NULL ? " = " : "",
                sysdef != NULL ? sysdef : "", sysdef != NULL ? "no such section"
                : "missing: programs get no Groups line");
        return;
    }
    line = NCONF_get_string(conf, sysdef, "Groups");
    if (line == NULL)
        line = NCONF_get_string(conf, sysdef, "Curves");
    ERR_clear_error();
    if (line == NULL) {
        problem("[%s] has no Groups line", sysdef);
        return;
    }
    printf("groups:   %s ([%s] Groups)\n", line, sysdef);
    if ((ctx = SSL_CTX_new(TLS_method())) == NULL || (copy = OPENSSL_strdup(line)) == NULL) {
        SSL_CTX_free(ctx);
        problem("cannot create an SSL_CTX to check the groups");
        return;
    }
    for (tok = strtok_r(copy, ":", &save); tok != NULL; tok = strtok_r(NULL, ":", &save)) {
        int known = SSL_CTX_set1_groups_list(ctx, tok) == 1;
        ERR_clear_error();
        printf("group:    %-20s %s\n", tok, known ? "known to this OpenSSL"
               : "UNKNOWN to this OpenSSL");
        nunknown += !known;
    }
    OPENSSL_free(copy);
    if (nunknown > 0)
        problem("%d group(s) of the Groups line unknown to this OpenSSL: OpenSSL "
                "3.0 then ignores the WHOLE line and uses its default groups "
                "(is the mlkem provider active?)", nunknown);
    SSL_CTX_free(ctx);
    ERR_clear_error();
}

int mlkem_check_config(const char *prog, const char *arg)
{
    const char *file = arg, *source = "--config FILE";
    char *deffile = NULL, path[600] = "", how[800] = "";
    const char *init, *provs, *sect = NULL, *pname = "mlkem";
    struct active act;
    CONF *conf;
    long eline = -1;
    unsigned long e;

    if (!OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_CONFIG, NULL)) {
        fprintf(stderr, "%s: OpenSSL initialisation failed\n", prog);
        return 2;
    }
    if (file == NULL && (file = getenv("OPENSSL_CONF")) != NULL)
        source = "OPENSSL_CONF";
    if (file == NULL) {
        file = deffile = CONF_get1_default_config_file();
        source = "OpenSSL's default file";
    }
    if (file == NULL) {
        fprintf(stderr, "%s: no configuration file\n", prog);
        return 2;
    }
    printf("openssl:  %s (%s)\n", OpenSSL_version(OPENSSL_VERSION),
           OpenSSL_version(OPENSSL_DIR));
    printf("config:   %s (%s)\n", file, source);

    /* 1. The file as OpenSSL parses it. */
    conf = NCONF_new(NULL);
    if (conf == NULL || NCONF_load(conf, file, &eline) <= 0) {
        if (eline > 0)
            printf("problem: %s line %ld: syntax error (OpenSSL loads nothing "
                   "from this file)\n", file, eline);
        else
            printf("problem: cannot read %s\n", file);
        ERR_print_errors_fp(stdout);
        printf("result:   the configuration cannot be read\n");
        NCONF_free(conf);
        OPENSSL_free(deffile);
        return 2;
    }
    ERR_clear_error();

    /* 2. Its sections and keys, read here (OpenSSL 3.0 says nothing). */
    init = NCONF_get_string(conf, NULL, "openssl_conf");
    ERR_clear_error();
    if (init == NULL) {
        problem("no openssl_conf line at the top: OpenSSL applies nothing from "
                "this file");
    } else if (NCONF_get_section(conf, init) == NULL) {
        const char *n = nearest_section(conf, file, init);
        problem("openssl_conf = %s: there is no section [%s]%s%s%s", init, init,
                n ? " (did you mean [" : "", n ? n : "", n ? "]?)" : "");
        init = NULL;
    }
    provs = init != NULL ? NCONF_get_string(conf, init, "providers") : NULL;
    ERR_clear_error();
    if (init != NULL && provs == NULL) {
        problem("[%s] has no providers line: no provider is configured", init);
    } else if (provs != NULL && NCONF_get_section(conf, provs) == NULL) {
        const char *n = nearest_section(conf, file, provs);
        problem("[%s] providers = %s: there is no section [%s]%s%s%s", init, provs,
                provs, n ? " (did you mean [" : "", n ? n : "", n ? "]?)" : "");
        provs = NULL;
    }
    if (provs != NULL) {
        /* The entry naming mlkem: key "mlkem", or one whose module is ours. */
        STACK_OF(CONF_VALUE) *sk = NCONF_get_section(conf, provs);
        for (int i = 0; sk != NULL && i < sk_CONF_VALUE_num(sk); i++) {
            const CONF_VALUE *cv = sk_CONF_VALUE_value(sk, i);
            const char *m = NCONF_get_section(conf, cv->value) != NULL
                                ? NCONF_get_string(conf, cv->value, "module") : NULL;
            if (strcmp(cv->name, "mlkem") == 0
                || (m != NULL && strstr(m, "mlkem") != NULL)) {
                pname = cv->name;
                sect = cv->value;
                break;
            }
        }
        ERR_clear_error();
        if (sect == NULL) {
            problem("[%s] names no mlkem provider (add: mlkem = mlkem_sect)", provs);
        } else if (NCONF_get_section(conf, sect) == NULL) {
            const char *n = nearest_section(conf, file, sect);
            problem("[%s] %s = %s: there is no section [%s]%s%s%s", provs, pname,
                    sect, sect, n ? " (did you mean [" : "", n ? n : "",
                    n ? "]?)" : "");
            sect = NULL;
        }
    }
    if (sect != NULL) {
        const char *activate = NCONF_get_string(conf, sect, "activate");
        ERR_clear_error();
        if (activate == NULL)
            problem("[%s] has no activate = 1: the provider is configured but "
                    "never loaded", sect);
        else if (!is_true(activate))
            problem("[%s] activate = %s: not a true value (write activate = 1)",
                    sect, activate);
        mlkem_conf_walk(conf, sect, "", 0, check_key, NULL);
        check_module(conf, sect, pname, path, sizeof(path), how, sizeof(how));
    }

    /* 3. Load it as a program does, with diagnostics (no IGNORE flags). */
    ERR_clear_error();
    if (CONF_modules_load_file_ex(NULL, file, NULL, 0) <= 0 || ERR_peek_error() != 0) {
        const char *data;
        int flags;
        if (ERR_peek_error() == 0)
            problem("OpenSSL: loading the configuration failed");
        while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
            const char *r = ERR_reason_error_string(e);
            int dl = (flags & ERR_TXT_STRING) != 0 ? (int)strlen(data) : 0;

            while (dl > 0 && data[dl - 1] == ' ')
                dl--;
            problem("OpenSSL: %s%s%.*s", r != NULL ? r : "error",
                    dl > 0 ? ": " : "", dl, dl > 0 ? data : "");
        }
    }

    /* 4. What is active, from the configuration alone. */
    memset(&act, 0, sizeof(act));
    act.want = pname;
    OSSL_PROVIDER_do_all(NULL, provider_cb, &act);
    printf("active:   %s\n", act.names[0] != '\0' ? act.names : "(none)");
    if (act.mlkem) {
        const char *bk = strstr(act.buildinfo, "backend ");
        int bklen = bk != NULL ? (int)strcspn(bk + 8, ";)") : 0;

        printf("mlkem:    active from the configuration\n");
        printf("module:   %s", act.module[0] != '\0' ? act.module : path);
        if (how[0] != '\0')
            printf(" (%s)", how);
        putchar('\n');
        printf("version:  %s\n", act.version);
        if (bk != NULL)
            printf("backend:  %.*s\n", bklen, bk + 8);
        printf("build:    %s\n", act.buildinfo);
        if (act.config_error[0] != '\0')
            problem("mlkem: %s (MLKEM_TRACE=1 prints every one)", act.config_error);
    } else {
        problem("mlkem is NOT active from this configuration (programs get "
                "no ML-KEM and no post-quantum TLS groups on OpenSSL 3.0-3.4)");
    }
    if (init != NULL)
        check_groups(conf, init);

    if (problems == 0)
        printf("result:   OK\n");
    else
        printf("result:   %d problem%s\n", problems, problems > 1 ? "s" : "");
    NCONF_free(conf);
    OPENSSL_free(deffile);
    return problems == 0 ? 0 : 1;
}
