/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem_pkeyutl.c: mlkem-pkeyutl, OpenSSL 3.5's `openssl pkeyutl -encap /
 * -decap` on any OpenSSL 3.
 *
 *   mlkem-pkeyutl -encap -inkey PUB [-pubin] -out CT -secret SS
 *   mlkem-pkeyutl -decap -inkey PRIV [-passin SRC] -in CT -secret SS
 *
 * `openssl pkeyutl` has -encap and -decap from 3.5 on; OpenSSL 3.0-3.4 say
 * "pkeyutl: Unknown option: -decap". This program takes 3.5's KEM options
 * with 3.5's meaning, reads and writes the same files (keys as PEM or DER
 * through OSSL_STORE, ciphertext and secret as raw bytes) and prints 3.5's
 * messages, with its own name in place of "pkeyutl", so that any 3.5
 * command line for a KEM runs on 3.0 with `openssl pkeyutl` replaced by
 * `mlkem-pkeyutl`. The order of the checks is 3.5's (apps/pkeyutl.c,
 * read as a specification, not copied): the key, the context, -pkeyopt,
 * the input, -out, -secret, then the operation.
 *
 * Options (3.5's names and value kinds):
 *   -encap / -decap        the operation (-encap implies -pubin)
 *   -inkey FILE|URI        the key (a public key with -encap or -pubin)
 *   -pubin                 the key is a public key
 *   -keyform PEM|DER|ENGINE   input type hint for the key (ENGINE refused)
 *   -passin SRC            pass:, env:, file:, fd:, stdin (openssl's forms)
 *   -in FILE               the ciphertext to decapsulate (default stdin)
 *   -out FILE              the ciphertext written by -encap (default
 *                          stdout); with -decap and no -secret, the secret
 *   -secret FILE           the shared secret (mode 0600; needed by -encap)
 *   -kemop OP              EVP_PKEY_CTX_set_kem_op (e.g. DHKEM, RSASVE)
 *   -pkeyopt NAME:VALUE    a KEM context parameter (e.g. ikme:HEX)
 *   -hexdump               the ciphertext as a hex dump
 *   -config FILE           load FILE's modules (providers) as 3.5 does
 *   -provider NAME, -provider-path DIR, -propquery Q   as openssl's
 *
 * Not in OpenSSL 3.5: when no -provider is given and no loaded provider
 * has ML-KEM (OpenSSL 3.0-3.4 without a configured mlkem), the mlkem
 * provider is loaded beside the default one (from -provider-path,
 * OPENSSL_MODULES or OpenSSL's modules directory), so that 3.5's plain
 * command lines work unchanged. 3.5's options for other operations (-sign,
 * -encrypt, -derive, ...), -engine, -rand and -provparam are not taken.
 *
 * Exit status 0, or 1 on any error (openssl's). Secrets are wiped.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/conf.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/store.h>
#include <openssl/ui.h>

#define MAX_PKEYOPTS 16
#define MAX_PROVIDERS 8
#define PASS_MAX 1024
#define INPUT_MAX (1024 * 1024)

static const char *prog = "mlkem-pkeyutl";

enum opt_id {
    OPT_HELP, OPT_ENCAP, OPT_DECAP, OPT_CONFIG, OPT_IN, OPT_INKEY, OPT_PUBIN,
    OPT_PASSIN, OPT_KEYFORM, OPT_OUT, OPT_SECRET, OPT_HEXDUMP, OPT_PKEYOPT,
    OPT_KEMOP, OPT_PROVIDER_PATH, OPT_PROVIDER, OPT_PROPQUERY,
};

/*
 * The option table: -help prints it, and test/ops/test_man.sh reads that
 * output to check every option is in mlkem-pkeyutl(1). kind: '-' no value,
 * 's' a string, '<' an input file, '>' an output file, 'E' a key format.
 */
static const struct option {
    const char *name;
    enum opt_id id;
    char kind;
    const char *help;
    const char *section; /* printed before this option when not NULL */
} options[] = {
    { "help", OPT_HELP, '-', "Display this summary", "General" },
    { "decap", OPT_DECAP, '-', "Decapsulate shared secret", NULL },
    { "encap", OPT_ENCAP, '-', "Encapsulate shared secret", NULL },
    { "config", OPT_CONFIG, 's', "Load a configuration file (this may load modules)", NULL },
    { "in", OPT_IN, '<', "Input file - default stdin", "Input" },
    { "inkey", OPT_INKEY, 's', "Input key, by default private key", NULL },
    { "pubin", OPT_PUBIN, '-', "Input key is a public key", NULL },
    { "passin", OPT_PASSIN, 's', "Input file pass phrase source", NULL },
    { "keyform", OPT_KEYFORM, 'E', "Private key format (ENGINE, other values ignored)", NULL },
    { "out", OPT_OUT, '>', "Output file - default stdout", "Output" },
    { "secret", OPT_SECRET, '>', "File to store secret on encapsulation", NULL },
    { "hexdump", OPT_HEXDUMP, '-', "Hex dump output", NULL },
    { "pkeyopt", OPT_PKEYOPT, 's', "Public key options as opt:value", "Encapsulation" },
    { "kemop", OPT_KEMOP, 's', "KEM operation specific to the key algorithm", NULL },
    { "provider-path", OPT_PROVIDER_PATH, 's',
      "Provider load path (must be before 'provider' argument if required)", "Provider" },
    { "provider", OPT_PROVIDER, 's', "Provider to load (can be specified multiple times)", NULL },
    { "propquery", OPT_PROPQUERY, 's', "Property query used when fetching algorithms", NULL },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static const char *kind_param(char kind)
{
    switch (kind) {
    case 's': return "val";
    case '<': return "infile";
    case '>': return "outfile";
    case 'E': return "PEM|DER|ENGINE";
    default: return "";
    }
}

/* openssl's -help layout: sections, " -name param", help at a column. */
static void help(void)
{
    int width = 5;

    for (size_t i = 0; i < NOPTIONS; i++) {
        int w = 2 + (int)strlen(options[i].name);
        if (options[i].kind != '-')
            w += 1 + (int)strlen(kind_param(options[i].kind));
        if (w > width)
            width = w;
    }
    if (width > 30)
        width = 30;
    fprintf(stderr, "Usage: %s [options]\n", prog);
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct option *o = &options[i];
        char left[96];

        if (o->section != NULL)
            fprintf(stderr, "\n%s options:\n", o->section);
        snprintf(left, sizeof(left), " -%s%s%s", o->name, o->kind != '-' ? " " : "",
                 kind_param(o->kind));
        if ((int)strlen(left) > width)
            fprintf(stderr, "%s\n%*s  %s\n", left, width, "", o->help);
        else
            fprintf(stderr, "%-*s  %s\n", width, left, o->help);
    }
}

/* -keyform: openssl's PEM|DER|ENGINE parse (first letter, then words). */
enum { FMT_UNDEF, FMT_PEM, FMT_DER, FMT_ENGINE };
static int parse_format(const char *s, int *fmt)
{
    switch (s[0]) {
    case 'P': case 'p':
        if (s[1] == '\0' || strcmp(s, "PEM") == 0 || strcmp(s, "pem") == 0) {
            *fmt = FMT_PEM;
            return 1;
        }
        break;
    case 'D': case 'd':
        *fmt = FMT_DER;
        return 1;
    case 'E': case 'e':
        *fmt = FMT_ENGINE;
        return 1;
    }
    fprintf(stderr, "%s: Bad format \"%s\"\n", prog, s);
    return 0;
}

/* The providers this program loaded, unloaded before main returns. */
static OSSL_PROVIDER *loaded[MAX_PROVIDERS + 2];
static int nloaded;

static int load_provider(const char *name)
{
    OSSL_PROVIDER *p;

    if (nloaded >= MAX_PROVIDERS) {
        fprintf(stderr, "%s: at most %d -provider options\n", prog, MAX_PROVIDERS);
        return 0;
    }
    p = OSSL_PROVIDER_load(NULL, name);
    if (p == NULL) {
        fprintf(stderr, "%s: unable to load provider %s\n"
                "Hint: use -provider-path option or OPENSSL_MODULES environment "
                "variable.\n", prog, name);
        ERR_print_errors_fp(stderr);
        return 0;
    }
    loaded[nloaded++] = p;
    return 1;
}

/* -config FILE: "Using configuration from FILE", then its modules. */
static CONF *load_config(const char *file)
{
    CONF *conf;
    BIO *in;
    long line = -1;

    fprintf(stderr, "Using configuration from %s\n", file);
    if ((in = BIO_new_file(file, "r")) == NULL) {
        fprintf(stderr, "Can't open \"%s\" for reading, %s\n", file, strerror(errno));
        ERR_print_errors_fp(stderr);
        return NULL;
    }
    conf = NCONF_new(NULL);
    if (conf == NULL || NCONF_load_bio(conf, in, &line) <= 0) {
        if (line <= 0)
            fprintf(stderr, "%s: Can't load config file \"%s\"\n", prog, file);
        else
            fprintf(stderr, "%s: Error on line %ld of config file \"%s\"\n", prog,
                    line, file);
        NCONF_free(conf);
        BIO_free(in);
        return NULL;
    }
    BIO_free(in);
    if (CONF_modules_load(conf, NULL, 0) <= 0) {
        fprintf(stderr, "Error configuring OpenSSL modules\n");
        ERR_print_errors_fp(stderr);
        NCONF_free(conf);
        return NULL;
    }
    return conf;
}

/* -passin SRC, as openssl's app_passwd: a copy to wipe, or NULL. */
static char *get_pass(const char *arg)
{
    char buf[PASS_MAX], *nl;
    BIO *b = NULL;
    int n;

    if (strncmp(arg, "pass:", 5) == 0)
        return OPENSSL_strdup(arg + 5);
    if (strncmp(arg, "env:", 4) == 0) {
        const char *v = getenv(arg + 4);
        if (v == NULL) {
            fprintf(stderr, "No environment variable %s\n", arg + 4);
            return NULL;
        }
        return OPENSSL_strdup(v);
    }
    if (strncmp(arg, "file:", 5) == 0) {
        if ((b = BIO_new_file(arg + 5, "r")) == NULL) {
            fprintf(stderr, "Can't open file %s\n", arg + 5);
            return NULL;
        }
    } else if (strncmp(arg, "fd:", 3) == 0) {
        int fd = atoi(arg + 3);
        BIO *f = fd >= 0 ? BIO_new_fd(fd, BIO_NOCLOSE) : NULL;
        if (f == NULL || (b = BIO_new(BIO_f_buffer())) == NULL) {
            BIO_free(f);
            fprintf(stderr, "Can't access file descriptor %s\n", arg + 3);
            return NULL;
        }
        b = BIO_push(b, f);
    } else if (strcmp(arg, "stdin") == 0) {
        if ((b = BIO_new_fp(stdin, BIO_NOCLOSE)) == NULL) {
            fprintf(stderr, "Can't open BIO for stdin\n");
            return NULL;
        }
    } else {
        const char *colon = strchr(arg, ':');
        if (colon == NULL || colon - arg > 4) /* 4: openssl's longest, "file" */
            fprintf(stderr, "Invalid password argument, missing ':' within the "
                    "first %d chars\n", 5);
        else
            fprintf(stderr, "Invalid password argument, starting with \"%.*s\"\n",
                    (int)(colon - arg + 1), arg);
        return NULL;
    }
    n = BIO_gets(b, buf, sizeof(buf));
    BIO_free_all(b);
    if (n <= 0) {
        fprintf(stderr, "Error reading password from BIO\n");
        return NULL;
    }
    if ((nl = strchr(buf, '\n')) != NULL)
        *nl = '\0';
    nl = OPENSSL_strdup(buf);
    OPENSSL_cleanse(buf, sizeof(buf));
    return nl;
}

/*
 * The pass phrase UI, as openssl's apps: the -passin phrase when there is
 * one, else OpenSSL's own console prompt, "Enter pass phrase for URI:" (no
 * terminal: the prompt goes to stderr and the read fails, as with openssl).
 */
struct ui_data {
    const char *pass;
    const char *uri;
    /* OpenSSL 3.0's store asks once per decoder it tries (3.5 once): the
     * first answer is reused, a failed read is not asked again. */
    char answer[PASS_MAX];
    int answered, failed;
};

static int ui_open(UI *ui)
{
    const struct ui_data *d = UI_get0_user_data(ui);

    if (d != NULL && (d->failed || d->answered || d->pass != NULL))
        return 1; /* no console needed */
    return UI_method_get_opener(UI_OpenSSL())(ui);
}

static int ui_write(UI *ui, UI_STRING *uis)
{
    const struct ui_data *d = UI_get0_user_data(ui);

    if (d != NULL && (d->failed || d->answered || d->pass != NULL))
        return 1; /* no prompt */
    return UI_method_get_writer(UI_OpenSSL())(ui, uis);
}

static int ui_close(UI *ui)
{
    const struct ui_data *d = UI_get0_user_data(ui);

    if (d != NULL && (d->failed || d->answered || d->pass != NULL))
        return 1;
    return UI_method_get_closer(UI_OpenSSL())(ui);
}

static int ui_read(UI *ui, UI_STRING *uis)
{
    struct ui_data *d = UI_get0_user_data(ui);
    int type = UI_get_string_type(uis), rv;
    const char *r;

    if (d == NULL)
        return UI_method_get_reader(UI_OpenSSL())(ui, uis);
    if (type != UIT_PROMPT && type != UIT_VERIFY) /* no console if not opened */
        return d->failed || d->answered || d->pass != NULL
                   ? 1 : UI_method_get_reader(UI_OpenSSL())(ui, uis);
    if (d->pass != NULL)
        return UI_set_result(ui, uis, d->pass) >= 0;
    if (d->answered)
        return UI_set_result(ui, uis, d->answer) >= 0;
    if (d->failed)
        return 0;
    rv = UI_method_get_reader(UI_OpenSSL())(ui, uis);
    if (rv > 0 && (r = UI_get0_result_string(uis)) != NULL && strlen(r) < sizeof(d->answer)) {
        strcpy(d->answer, r);
        d->answered = 1;
    } else if (rv <= 0) {
        d->failed = 1;
    }
    return rv;
}

static char *ui_prompt(UI *ui, const char *desc, const char *object)
{
    const struct ui_data *d = UI_get0_user_data(ui);

    if (object == NULL && d != NULL)
        object = d->uri;
    return UI_construct_prompt(NULL, desc != NULL ? desc : "pass phrase", object);
}

static UI_METHOD *make_ui(void)
{
    const UI_METHOD *base = UI_OpenSSL();
    UI_METHOD *m = UI_create_method("mlkem-pkeyutl pass phrase");

    if (m == NULL || UI_method_set_opener(m, ui_open) != 0
        || UI_method_set_writer(m, ui_write) != 0
        || UI_method_set_flusher(m, UI_method_get_flusher(base)) != 0
        || UI_method_set_closer(m, ui_close) != 0
        || UI_method_set_reader(m, ui_read) != 0
        || UI_method_set_prompt_constructor(m, ui_prompt) != 0) {
        UI_destroy_method(m);
        return NULL;
    }
    return m;
}

/*
 * One key from a file or URI through OSSL_STORE, as openssl's
 * load_key_certs_crls: want_pub takes a public key or the public half of a
 * private one. quiet: no message. Messages: "Could not open file or uri for
 * loading DESC from URI[: strerror]", "Could not find DESC from URI".
 */
static EVP_PKEY *store_load(const char *uri, int fmt, const char *pass,
                            const char *desc, int want_pub, const char *propq,
                            int quiet)
{
    OSSL_STORE_CTX *ctx = NULL;
    UI_METHOD *ui = make_ui();
    struct ui_data uidata;
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM params[2], *p = NULL;
    const char *failed = NULL, *what = want_pub ? "public key" : "private key";

    memset(&uidata, 0, sizeof(uidata));
    uidata.pass = pass;
    uidata.uri = uri;
    ERR_set_mark();
    if (fmt == FMT_PEM || fmt == FMT_DER) {
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_STORE_PARAM_INPUT_TYPE,
                                                     fmt == FMT_PEM ? "PEM" : "DER", 0);
        params[1] = OSSL_PARAM_construct_end();
        p = params;
    }
    if (ui != NULL)
        ctx = OSSL_STORE_open_ex(uri, NULL, propq, ui, &uidata, p, NULL, NULL);
    if (ctx == NULL) {
        failed = "Could not open file or uri for loading";
    } else if (!OSSL_STORE_expect(ctx, want_pub ? OSSL_STORE_INFO_PUBKEY
                                                : OSSL_STORE_INFO_PKEY)) {
        failed = "Internal error trying to load";
    } else {
        while (pkey == NULL && !OSSL_STORE_eof(ctx)) {
            OSSL_STORE_INFO *info = OSSL_STORE_load(ctx);
            int type = info != NULL ? OSSL_STORE_INFO_get_type(info) : 0;

            if (type == OSSL_STORE_INFO_PKEY && !want_pub)
                pkey = OSSL_STORE_INFO_get1_PKEY(info);
            else if (type == OSSL_STORE_INFO_PKEY || type == OSSL_STORE_INFO_PUBKEY)
                pkey = want_pub ? OSSL_STORE_INFO_get1_PUBKEY(info) : NULL;
            OSSL_STORE_INFO_free(info);
        }
        if (pkey == NULL)
            failed = "Could not find";
    }
    OSSL_STORE_close(ctx);
    UI_destroy_method(ui);
    OPENSSL_cleanse(uidata.answer, sizeof(uidata.answer));
    if (failed != NULL && !quiet) {
        unsigned long err = ERR_peek_last_error();

        if (strstr(desc, what) != NULL)
            fprintf(stderr, "%s %s from %s", failed, desc, uri);
        else
            fprintf(stderr, "%s %s of %s from %s", failed, what, desc, uri);
        if (ERR_SYSTEM_ERROR(err)) {
            fprintf(stderr, ": %s", strerror(ERR_GET_REASON(err)));
            ERR_pop_to_mark();
            ERR_set_mark();
        }
        fputc('\n', stderr);
        ERR_print_errors_fp(stderr);
    }
    if (quiet || failed == NULL)
        ERR_pop_to_mark();
    else
        ERR_clear_last_mark();
    return pkey;
}

/* openssl's bio_open_owner: a new file, mode 0600 ("-": stdout). */
static BIO *open_owner(const char *file)
{
    int fd;
    FILE *fp;

    if (file == NULL || strcmp(file, "-") == 0)
        return BIO_new_fp(stdout, BIO_NOCLOSE);
    fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0 && (fp = fdopen(fd, "wb")) != NULL)
        return BIO_new_fp(fp, BIO_CLOSE);
    fprintf(stderr, "%s: Can't open \"%s\" for writing, %s\n", prog, file,
            strerror(errno));
    ERR_print_errors_fp(stderr);
    if (fd >= 0)
        close(fd);
    return NULL;
}

/* openssl's bio_open_default: FILE, or stdin / stdout for NULL and "-". */
static BIO *open_default(const char *file, char mode)
{
    BIO *b;

    if (file == NULL || strcmp(file, "-") == 0) {
        b = BIO_new_fp(mode == 'r' ? stdin : stdout, BIO_NOCLOSE);
        if (b == NULL)
            fprintf(stderr, "Can't open %s, %s\n", mode == 'r' ? "stdin" : "stdout",
                    strerror(errno));
    } else {
        b = BIO_new_file(file, mode == 'r' ? "rb" : "wb");
        if (b == NULL)
            fprintf(stderr, "Can't open \"%s\" for %s, %s\n", file,
                    mode == 'r' ? "reading" : "writing", strerror(errno));
    }
    if (b == NULL)
        ERR_print_errors_fp(stderr);
    return b;
}

/* All of a BIO (at most INPUT_MAX bytes). */
static int read_all(BIO *in, unsigned char **buf, size_t *len)
{
    size_t cap = 4096;
    unsigned char *b = OPENSSL_malloc(cap);

    *len = 0;
    while (b != NULL) {
        int n;
        if (*len == cap) {
            unsigned char *nb;
            if (cap >= INPUT_MAX || (nb = OPENSSL_realloc(b, cap * 2)) == NULL)
                break;
            b = nb;
            cap *= 2;
        }
        n = BIO_read(in, b + *len, (int)(cap - *len));
        if (n <= 0) {
            *buf = b;
            return 1;
        }
        *len += (size_t)n;
    }
    OPENSSL_free(b);
    return 0;
}

/* -pkeyopt NAME:VALUE, as openssl's pkey_ctrl_string. */
static int pkeyopt(EVP_PKEY_CTX *ctx, const char *opt)
{
    char *copy = OPENSSL_strdup(opt), *v;
    int rv = 0;

    if (copy != NULL && (v = strchr(copy, ':')) != NULL) {
        *v++ = '\0';
        rv = EVP_PKEY_CTX_ctrl_str(ctx, copy, v);
    }
    OPENSSL_free(copy);
    return rv;
}

/* Does a loaded provider have ML-KEM (with this property query)? */
static int have_mlkem(const char *propq)
{
    EVP_KEM *kem;
    int ok;

    ERR_set_mark();
    kem = EVP_KEM_fetch(NULL, "ML-KEM-768", propq);
    ok = kem != NULL;
    EVP_KEM_free(kem);
    ERR_pop_to_mark();
    return ok;
}

int main(int argc, char **argv)
{
    const char *infile = NULL, *outfile = NULL, *secretfile = NULL;
    const char *inkey = NULL, *passin = NULL, *kemop = NULL, *propq = NULL;
    const char *pkeyopts[MAX_PKEYOPTS];
    int npkeyopts = 0, keyform = FMT_UNDEF, pubin = 0, op = 0, hexdump = 0;
    int provider_given = 0, ret = 1;
    CONF *conf = NULL;
    char *pass = NULL;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    BIO *in = NULL, *out = NULL, *secout = NULL;
    unsigned char *buf_in = NULL, *buf_out = NULL, *secret = NULL;
    size_t buf_inlen = 0, buf_outlen = 0, secretlen = 0, secret_alloc = 0;

    if (!OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL)) {
        fprintf(stderr, "%s: OpenSSL initialisation failed\n", prog);
        ERR_print_errors_fp(stderr);
        return 1;
    }

    /* Options, parsed as openssl's opt_next: -x, --x, -x=value, "--". */
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *a = argv[i], *value = NULL, *eq;
        const struct option *o = NULL;

        if (a[0] != '-' || strcmp(a, "--") == 0) {
            if (strcmp(a, "--") == 0)
                i++;
            if (i < argc) {
                fprintf(stderr, "%s: Extra option: \"%s\"\n", prog, argv[i]);
                goto opthelp;
            }
            break;
        }
        a += a[1] == '-' ? 2 : 1;
        eq = strchr(a, '=');
        snprintf(name, sizeof(name), "%.*s", (int)(eq != NULL ? eq - a : (long)strlen(a)), a);
        for (size_t k = 0; k < NOPTIONS; k++)
            if (strcmp(name, options[k].name) == 0
                || (strcmp(name, "h") == 0 && options[k].id == OPT_HELP))
                o = &options[k];
        if (o == NULL) {
            fprintf(stderr, "%s: Unknown option: -%s\n", prog, name);
            goto opthelp;
        }
        if (o->kind == '-' && eq != NULL) {
            fprintf(stderr, "%s: Option -%s does not take a value\n", prog, name);
            goto opthelp;
        }
        if (o->kind != '-') {
            if (eq != NULL) {
                value = eq + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                fprintf(stderr, "%s: Option -%s needs a value\n", prog, o->name);
                goto opthelp;
            }
        }
        switch (o->id) {
        case OPT_HELP:
            help();
            ret = 0;
            goto end;
        case OPT_ENCAP:
            pubin = 1;
            op = EVP_PKEY_OP_ENCAPSULATE;
            break;
        case OPT_DECAP:
            op = EVP_PKEY_OP_DECAPSULATE;
            break;
        case OPT_CONFIG:
            NCONF_free(conf);
            if ((conf = load_config(value)) == NULL)
                goto end;
            break;
        case OPT_IN: infile = value; break;
        case OPT_INKEY: inkey = value; break;
        case OPT_PUBIN: pubin = 1; break;
        case OPT_PASSIN: passin = value; break;
        case OPT_KEYFORM:
            if (!parse_format(value, &keyform)) {
                fprintf(stderr, "%s: Invalid format \"%s\" for option -keyform\n",
                        prog, value);
                goto opthelp;
            }
            break;
        case OPT_OUT: outfile = value; break;
        case OPT_SECRET: secretfile = value; break;
        case OPT_HEXDUMP: hexdump = 1; break;
        case OPT_KEMOP: kemop = value; break;
        case OPT_PKEYOPT:
            if (npkeyopts == MAX_PKEYOPTS) {
                fprintf(stderr, "%s: at most %d -pkeyopt options\n", prog, MAX_PKEYOPTS);
                goto end;
            }
            pkeyopts[npkeyopts++] = value;
            break;
        case OPT_PROVIDER_PATH: /* where the provider below is looked up too */
            if (!OSSL_PROVIDER_set_default_search_path(NULL, *value != '\0' ? value : NULL))
                goto end;
            break;
        case OPT_PROVIDER:
            provider_given = 1;
            if (!load_provider(value))
                goto end;
            break;
        case OPT_PROPQUERY:
            propq = value;
            break;
        }
    }

    if (op == 0) {
        fprintf(stderr, "%s: give -encap or -decap (this program does the KEM "
                "operations of openssl pkeyutl only)\n", prog);
        goto opthelp;
    }
    if (inkey == NULL) {
        fprintf(stderr, "%s: no private key given (-inkey parameter).\n", prog);
        goto opthelp;
    }
    if (keyform == FMT_ENGINE) {
        fprintf(stderr, "%s: -keyform ENGINE: engines are not supported\n", prog);
        goto end;
    }

    /* 3.5's command lines name no provider: bring ML-KEM to 3.0-3.4. */
    if (!provider_given && !have_mlkem(propq)) {
        OSSL_PROVIDER *p = OSSL_PROVIDER_try_load(NULL, "mlkem", 1);
        if (p != NULL)
            loaded[nloaded++] = p;
        else
            ERR_clear_error(); /* the key's loader says what is missing */
    }

    /* The key: 3.5 reads the pass phrase first, for either kind. */
    if (passin != NULL && (pass = get_pass(passin)) == NULL) {
        fprintf(stderr, "Error getting password\n");
    } else if (pubin) {
        pkey = store_load(inkey, keyform, NULL, "public key", 1, propq, 1);
        if (pkey == NULL)
            pkey = store_load(inkey, keyform, NULL, "public key", 0, propq, 0);
    } else {
        pkey = store_load(inkey, keyform, pass, "private key", 0, propq, 0);
    }
    if (pkey == NULL) {
        fprintf(stderr, "%s: Error loading key\n", prog);
        goto end;
    }

    ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, propq);
    if (ctx == NULL
        || (op == EVP_PKEY_OP_ENCAPSULATE ? EVP_PKEY_encapsulate_init(ctx, NULL)
                                          : EVP_PKEY_decapsulate_init(ctx, NULL)) <= 0
        || (kemop != NULL && EVP_PKEY_CTX_set_kem_op(ctx, kemop) <= 0)) {
        fprintf(stderr, "%s: Error initializing context\n", prog);
        goto end;
    }
    for (int i = 0; i < npkeyopts; i++) {
        if (pkeyopt(ctx, pkeyopts[i]) <= 0) {
            fprintf(stderr, "%s: Can't set parameter \"%s\":\n", prog, pkeyopts[i]);
            goto end;
        }
    }

    if (op == EVP_PKEY_OP_DECAPSULATE && (in = open_default(infile, 'r')) == NULL)
        goto end;
    if (op == EVP_PKEY_OP_DECAPSULATE && outfile != NULL) {
        if (secretfile != NULL) {
            fprintf(stderr, "%s: Decapsulation produces only a shared secret and "
                    "no output. The '-out' option is not applicable.\n", prog);
            goto end;
        }
        if ((out = open_owner(outfile)) == NULL)
            goto end;
    } else if ((out = open_default(outfile, 'w')) == NULL) {
        goto end;
    }
    if (op == EVP_PKEY_OP_ENCAPSULATE && secretfile == NULL) {
        fprintf(stderr, "KEM-based shared-secret derivation requires the "
                "'-secret <file>' option\n");
        goto end;
    }
    if (secretfile != NULL && (secout = open_owner(secretfile)) == NULL)
        goto end;
    if (in != NULL && !read_all(in, &buf_in, &buf_inlen)) {
        fprintf(stderr, "Error reading input Data\n");
        goto end;
    }

    /* Sizes, then the operation, as 3.5 does it. */
    {
        int rv;

        if (op == EVP_PKEY_OP_ENCAPSULATE)
            rv = EVP_PKEY_encapsulate(ctx, NULL, &buf_outlen, NULL, &secretlen);
        else
            rv = EVP_PKEY_decapsulate(ctx, NULL, &secretlen, buf_in, buf_inlen);
        if (rv > 0 && secretlen > 0
            && (buf_outlen > 0 || op == EVP_PKEY_OP_DECAPSULATE)) {
            if ((buf_outlen > 0 && (buf_out = OPENSSL_malloc(buf_outlen)) == NULL)
                || (secret = OPENSSL_secure_zalloc(secretlen)) == NULL) {
                fprintf(stderr, "%s: Could not allocate %zu bytes for secret output\n",
                        prog, secretlen);
                goto end;
            }
            secret_alloc = secretlen;
            if (op == EVP_PKEY_OP_ENCAPSULATE)
                rv = EVP_PKEY_encapsulate(ctx, buf_out, &buf_outlen, secret, &secretlen);
            else
                rv = EVP_PKEY_decapsulate(ctx, secret, &secretlen, buf_in, buf_inlen);
        }
        if (rv <= 0) {
            fputs("Public Key operation error\n", stderr);
            secretlen = 0;
            goto end;
        }
    }
    ret = 0;
    if (hexdump)
        BIO_dump(out, (const char *)buf_out, (int)buf_outlen);
    else if (buf_outlen > 0 && BIO_write(out, buf_out, (int)buf_outlen) != (int)buf_outlen)
        ret = 1;
    if (secretlen > 0
        && BIO_write(secout != NULL ? secout : out, secret, (int)secretlen) != (int)secretlen)
        ret = 1;
    if ((secout != NULL && BIO_flush(secout) <= 0) || BIO_flush(out) <= 0)
        ret = 1;
    if (ret != 0)
        fprintf(stderr, "%s: cannot write the output\n", prog);

end:
    if (ret != 0)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    BIO_free(in);
    BIO_free_all(out);
    BIO_free_all(secout);
    OPENSSL_free(buf_in);
    OPENSSL_free(buf_out);
    OPENSSL_secure_clear_free(secret, secret_alloc);
    if (pass != NULL)
        OPENSSL_clear_free(pass, strlen(pass));
    NCONF_free(conf);
    while (nloaded > 0)
        OSSL_PROVIDER_unload(loaded[--nloaded]);
    return ret;

opthelp:
    fprintf(stderr, "%s: Use -help for summary.\n", prog);
    ret = 1;
    goto end;
}
