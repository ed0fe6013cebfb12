/* SPDX-License-Identifier: Apache-2.0 */
/*
 * acvp.c: NIST ACVP ML-KEM vectors through the kernel's byte API.
 *
 * References
 *   [FIPS203] NIST FIPS 203 (final), Algorithms 16 (KeyGen_internal),
 *             17 (Encaps_internal), 18 (Decaps_internal), §7.2 (encapsulation
 *             key check), §7.3 (decapsulation key check).
 *   [ACVP]    usnistgov/ACVP-Server v1.1.0.43, gen-val/json-files/ML-KEM-*;
 *             the formats are described in vectors/acvp/README.md.
 *
 * Usage: vectors_acvp <folder>   e.g. ML-KEM-keyGen-FIPS203
 * Reads <MLKEM_VECTORS_DIR>/acvp/<folder>/internalProjection.json (inputs and
 * expected outputs side by side), decodes every case first, then runs them
 * all under each backend. The number of cases of each kind is asserted, so a
 * parser that silently drops cases fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/common/test_json.h"
#include "test/common/test_util.h"
#include "test/vectors/vectors.h"

typedef enum {
    KIND_KEYGEN,      /* d, z -> ek, dk */
    KIND_ENCAPS,      /* ek, m -> c, k */
    KIND_DECAPS,      /* dk, c -> k (valid, or implicit rejection) */
    KIND_DECAPS_SEED, /* d, z, c -> k: dk = KeyGen_internal(d, z) (tr1) */
    KIND_EK_CHECK,    /* ek -> testPassed (§7.2) */
    KIND_DK_CHECK,    /* dk -> testPassed (§7.3) */
    KIND_COUNT
} kind;

static const char *const kind_name[KIND_COUNT] = {
    "keyGen", "encapsulation", "decapsulation (expanded dk)",
    "decapsulation (seed)", "encapsulationKeyCheck", "decapsulationKeyCheck"};

/* What each folder must hold: mode, revision, cases per kind. */
typedef struct {
    const char *folder, *mode, *revision;
    unsigned total;
    unsigned count[KIND_COUNT];
} suite;

static const suite suites[] = {
    {"ML-KEM-keyGen-FIPS203", "keyGen", "FIPS203", 75, {75, 0, 0, 0, 0, 0}},
    {"ML-KEM-encapDecap-FIPS203", "encapDecap", "FIPS203", 165,
     {0, 75, 30, 0, 30, 30}},
    {"ML-KEM-encapDecap-FIPS203-tr1", "encapDecap", "FIPS203-tr1", 195,
     {0, 75, 30, 30, 30, 30}},
};

typedef struct {
    kind kind;
    const mlkem_params *p;
    long tg, tc;
    int has_dk;     /* dk given (expected output, or key for a round trip) */
    int passed;     /* key checks: the expected verdict */
    int reject;     /* decapsulation: "modified ciphertext" */
    uint8_t d[32], z[32], m[32], k[32];
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES];
} acvp_case;

typedef struct {
    acvp_case *cases;
    size_t n;
} case_list;

/* ---- loading -------------------------------------------------------------- */

/* Hex field `name` of test t into exactly len bytes. */
static int get_hex(const test_json *t, const char *name, uint8_t *out,
                   size_t len, long tg, long tc)
{
    const test_json *v = test_json_get(t, name);
    if (v == NULL || v->type != TEST_JSON_STRING) {
        TEST_FAIL("tgId %ld tcId %ld: field '%s' %s", tg, tc, name,
                  v == NULL ? "missing" : "is not a string");
        return -1;
    }
    if (test_hex_decode(out, len, v->str, v->str_len) != 0) {
        TEST_FAIL("tgId %ld tcId %ld: field '%s' is not %zu bytes of hex "
                  "(%zu characters)", tg, tc, name, len, v->str_len);
        return -1;
    }
    return 0;
}

/* Fill c (kind, p, tg, tc already set) from test t. */
static int load_case(acvp_case *c, const test_json *t)
{
    const mlkem_params *p = c->p;
    long tg = c->tg, tc = c->tc;
    const char *reason;

    switch (c->kind) {
    case KIND_KEYGEN:
        c->has_dk = 1;
        return get_hex(t, "d", c->d, 32, tg, tc) |
               get_hex(t, "z", c->z, 32, tg, tc) |
               get_hex(t, "ek", c->ek, p->ek_bytes, tg, tc) |
               get_hex(t, "dk", c->dk, p->dk_bytes, tg, tc);
    case KIND_ENCAPS:
        /* The projection also carries the key pair: dk allows a round trip. */
        c->has_dk = test_json_get(t, "dk") != NULL;
        return get_hex(t, "ek", c->ek, p->ek_bytes, tg, tc) |
               get_hex(t, "m", c->m, 32, tg, tc) |
               get_hex(t, "c", c->c, p->ct_bytes, tg, tc) |
               get_hex(t, "k", c->k, 32, tg, tc) |
               (c->has_dk ? get_hex(t, "dk", c->dk, p->dk_bytes, tg, tc) : 0);
    case KIND_DECAPS:
    case KIND_DECAPS_SEED:
        reason = test_json_get_str(t, "reason");
        c->reject = reason != NULL && strstr(reason, "modified") != NULL;
        if (c->kind == KIND_DECAPS) {
            c->has_dk = 1;
            return get_hex(t, "dk", c->dk, p->dk_bytes, tg, tc) |
                   get_hex(t, "c", c->c, p->ct_bytes, tg, tc) |
                   get_hex(t, "k", c->k, 32, tg, tc);
        }
        c->has_dk = test_json_get(t, "dk") != NULL;
        return get_hex(t, "d", c->d, 32, tg, tc) |
               get_hex(t, "z", c->z, 32, tg, tc) |
               get_hex(t, "c", c->c, p->ct_bytes, tg, tc) |
               get_hex(t, "k", c->k, 32, tg, tc) |
               (c->has_dk ? get_hex(t, "dk", c->dk, p->dk_bytes, tg, tc) : 0);
    case KIND_EK_CHECK:
    case KIND_DK_CHECK:
        if (test_json_get_bool(t, "testPassed", &c->passed) != 0) {
            TEST_FAIL("tgId %ld tcId %ld: 'testPassed' missing or not a "
                      "boolean", tg, tc);
            return -1;
        }
        if (c->kind == KIND_EK_CHECK)
            return get_hex(t, "ek", c->ek, p->ek_bytes, tg, tc);
        c->has_dk = 1;
        return get_hex(t, "dk", c->dk, p->dk_bytes, tg, tc);
    case KIND_COUNT:
        break;
    }
    return -1;
}

/* The kind of a group from its function and keyFormat (-1: unknown). */
static int group_kind(const suite *s, const char *function,
                      const char *key_format)
{
    int seed = key_format != NULL && strcmp(key_format, "seed") == 0;

    if (key_format != NULL && strcmp(key_format, "seed") != 0 &&
        strcmp(key_format, "expanded") != 0 && strcmp(key_format, "none") != 0)
        return -1;
    if (strcmp(s->mode, "keyGen") == 0)
        return function == NULL && key_format == NULL ? KIND_KEYGEN : -1;
    if (function == NULL)
        return -1;
    if (strcmp(function, "encapsulation") == 0 && !seed)
        return KIND_ENCAPS;
    if (strcmp(function, "decapsulation") == 0)
        return seed ? KIND_DECAPS_SEED : KIND_DECAPS;
    if (strcmp(function, "encapsulationKeyCheck") == 0 && !seed)
        return KIND_EK_CHECK;
    if (strcmp(function, "decapsulationKeyCheck") == 0 && !seed)
        return KIND_DK_CHECK;
    return -1;
}

static int load(const suite *s, case_list *out)
{
    char rel[256], err[256];
    const char *path;
    char *text;
    size_t len, cap = 0;
    test_json *root;
    const test_json *groups;
    const char *str;
    unsigned count[KIND_COUNT] = {0};
    int rc = -1;

    memset(out, 0, sizeof(*out));
    snprintf(rel, sizeof(rel), "acvp/%s/internalProjection.json", s->folder);
    path = test_vectors_path(rel);
    text = test_read_file(path, &len);
    if (text == NULL)
        return -1;
    root = test_json_parse(text, len, err, sizeof(err));
    free(text);
    if (root == NULL) {
        TEST_FAIL("%s: malformed JSON: %s", path, err);
        return -1;
    }
    if ((str = test_json_get_str(root, "algorithm")) == NULL ||
        strcmp(str, "ML-KEM") != 0 ||
        (str = test_json_get_str(root, "mode")) == NULL ||
        strcmp(str, s->mode) != 0 ||
        (str = test_json_get_str(root, "revision")) == NULL ||
        strcmp(str, s->revision) != 0) {
        TEST_FAIL("%s: expected algorithm ML-KEM, mode %s, revision %s", path,
                  s->mode, s->revision);
        goto end;
    }
    groups = test_json_get_array(root, "testGroups");
    if (groups == NULL) {
        TEST_FAIL("%s: no 'testGroups' array", path);
        goto end;
    }
    for (size_t g = 0; g < groups->n; g++) {
        const test_json *grp = &groups->items[g];
        const test_json *tests = test_json_get_array(grp, "tests");
        const char *set = test_json_get_str(grp, "parameterSet");
        const char *function = test_json_get_str(grp, "function");
        const char *key_format = test_json_get_str(grp, "keyFormat");
        const mlkem_params *p = vec_params_by_name(set);
        long tg;
        int k;

        if (test_json_get_int(grp, "tgId", &tg) != 0 || tests == NULL ||
            p == NULL) {
            TEST_FAIL("%s: group %zu: needs an integer tgId, a 'tests' array "
                      "and a known parameterSet (got '%s')", path, g,
                      set ? set : "(none)");
            goto end;
        }
        k = group_kind(s, function, key_format);
        if (k < 0) {
            TEST_FAIL("%s: tgId %ld: unknown function '%s' / keyFormat '%s'",
                      path, tg, function ? function : "(none)",
                      key_format ? key_format : "(none)");
            goto end;
        }
        for (size_t i = 0; i < tests->n; i++) {
            acvp_case *c;
            long tc;
            int deferred = 0;

            if (out->n == cap) {
                size_t nc = cap ? 2 * cap : 64;
                acvp_case *nv = realloc(out->cases, nc * sizeof(*nv));
                if (nv == NULL) {
                    TEST_FAIL("out of memory");
                    goto end;
                }
                out->cases = nv;
                cap = nc;
            }
            if (test_json_get_int(&tests->items[i], "tcId", &tc) != 0) {
                TEST_FAIL("%s: tgId %ld: test %zu has no integer tcId", path,
                          tg, i);
                goto end;
            }
            /* A deferred case has no expected output to compare with. */
            if (test_json_get_bool(&tests->items[i], "deferred", &deferred) ==
                    0 && deferred) {
                TEST_FAIL("%s: tgId %ld tcId %ld is deferred (unexpected in "
                          "this vector set)", path, tg, tc);
                goto end;
            }
            c = &out->cases[out->n];
            memset(c, 0, sizeof(*c));
            c->kind = (kind)k;
            c->p = p;
            c->tg = tg;
            c->tc = tc;
            if (load_case(c, &tests->items[i]) != 0)
                goto end;
            out->n++;
            count[k]++;
        }
    }
    /* Totals: a parser bug that skips a group or a case fails here. */
    rc = 0;
    for (int k = 0; k < KIND_COUNT; k++) {
        if (count[k] != s->count[k]) {
            TEST_FAIL("%s: %u %s cases, expected %u", path, count[k],
                      kind_name[k], s->count[k]);
            rc = -1;
        }
    }
    if (out->n != s->total) {
        TEST_FAIL("%s: %zu cases in total, expected %u", path, out->n,
                  s->total);
        rc = -1;
    }
end:
    test_json_free(root);
    if (rc != 0) {
        free(out->cases);
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

/* ---- running ----------------------------------------------------------------- */

/* Run one case; 1 = pass. `what` prefixes every message. */
static int run_case(const acvp_case *c, const char *what)
{
    const mlkem_params *p = c->p;
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t ct[MLKEM_MAX_CT_BYTES], k[32], m0[32] = {0};
    char msg[160];
    int r, want, ok = 1;

#define CALL_OK(expr, name)                                                   \
    do {                                                                      \
        r = (expr);                                                           \
        if (!TEST_CHECK(r == MLKEM_OK, "%s: %s returned %d (%s)", what,      \
                        name, r, mlkem_strerror(r)))                          \
            return 0;                                                         \
    } while (0)
#define SAME(got, exp, len, field)                                            \
    do {                                                                      \
        snprintf(msg, sizeof(msg), "%s: %s", what, field);                    \
        ok &= TEST_CHECK(test_bytes_eq(msg, got, exp, len), "%s", msg);       \
    } while (0)

    switch (c->kind) {
    case KIND_KEYGEN:
        CALL_OK(mlkem_keygen_internal(p, ek, dk, c->d, c->z),
                "mlkem_keygen_internal");
        SAME(ek, c->ek, p->ek_bytes, "ek");
        SAME(dk, c->dk, p->dk_bytes, "dk");
        /* A generated key pair passes both input checks. */
        CALL_OK(mlkem_check_ek(p, ek, p->ek_bytes), "mlkem_check_ek(ek)");
        CALL_OK(mlkem_check_dk(p, dk, p->dk_bytes), "mlkem_check_dk(dk)");
        return ok;
    case KIND_ENCAPS:
        CALL_OK(mlkem_encaps_internal(p, ct, k, c->ek, p->ek_bytes, c->m),
                "mlkem_encaps_internal");
        SAME(ct, c->c, p->ct_bytes, "c");
        SAME(k, c->k, 32, "k");
        if (c->has_dk) {
            CALL_OK(mlkem_decaps_internal(p, k, c->c, p->ct_bytes, c->dk,
                                          p->dk_bytes),
                    "mlkem_decaps_internal (round trip)");
            SAME(k, c->k, 32, "k from Decaps(dk, c)");
        }
        return ok;
    case KIND_DECAPS_SEED:
        CALL_OK(mlkem_keygen_internal(p, ek, dk, c->d, c->z),
                "mlkem_keygen_internal (seed key format)");
        if (c->has_dk)
            SAME(dk, c->dk, p->dk_bytes, "dk from KeyGen_internal(d, z)");
        CALL_OK(mlkem_decaps_internal(p, k, c->c, p->ct_bytes, dk,
                                      p->dk_bytes),
                "mlkem_decaps_internal");
        SAME(k, c->k, 32, c->reject ? "k (implicit rejection)" : "k");
        return ok;
    case KIND_DECAPS:
        CALL_OK(mlkem_decaps_internal(p, k, c->c, p->ct_bytes, c->dk,
                                      p->dk_bytes),
                "mlkem_decaps_internal");
        SAME(k, c->k, 32, c->reject ? "k (implicit rejection)" : "k");
        return ok;
    case KIND_EK_CHECK:
        /* §7.2: the only way an ek of the right length fails is a
         * coefficient >= q ("noisy linear system values too large"). */
        want = c->passed ? MLKEM_OK : MLKEM_ERR_EK_MODULUS;
        r = mlkem_check_ek(p, c->ek, p->ek_bytes);
        if (!TEST_CHECK(r == want, "%s: mlkem_check_ek returned %d, expected %d "
                                  "(testPassed %s)", what, r, want,
                                  c->passed ? "true" : "false"))
            return 0;
        /* Encaps_internal runs the same check first. */
        r = mlkem_encaps_internal(p, ct, k, c->ek, p->ek_bytes, m0);
        if (!TEST_CHECK(r == want, "%s: mlkem_encaps_internal returned %d, expected %d",
                                  what, r, want))
            return 0;
        return 1;
    case KIND_DK_CHECK:
        /* §7.3: a "modified H" dk fails the hash check. */
        want = c->passed ? MLKEM_OK : MLKEM_ERR_DK_HASH;
        r = mlkem_check_dk(p, c->dk, p->dk_bytes);
        if (!TEST_CHECK(r == want, "%s: mlkem_check_dk returned %d, expected %d "
                                  "(testPassed %s)", what, r, want,
                                  c->passed ? "true" : "false"))
            return 0;
        /* Decaps_internal runs the same check first (any ciphertext). */
        memset(ct, 0, sizeof(ct));
        r = mlkem_decaps_internal(p, k, ct, p->ct_bytes, c->dk, p->dk_bytes);
        if (!TEST_CHECK(r == want, "%s: mlkem_decaps_internal returned %d, expected %d",
                                  what, r, want))
            return 0;
        return 1;
    case KIND_COUNT:
        break;
    }
#undef CALL_OK
#undef SAME
    return 0;
}

typedef struct {
    const suite *s;
    const case_list *list;
} run_arg;

static int run_all(const char *backend, void *arg)
{
    const run_arg *a = arg;
    unsigned ran[KIND_COUNT] = {0}, passed[KIND_COUNT] = {0};
    const int before = test_failure_count();
    size_t failed = 0;

    for (size_t i = 0; i < a->list->n; i++) {
        const acvp_case *c = &a->list->cases[i];
        char what[160];

        snprintf(what, sizeof(what), "%s [%s] %s tgId %ld tcId %ld (%s)",
                 a->s->folder, backend, c->p->name, c->tg, c->tc,
                 kind_name[c->kind]);
        ran[c->kind]++;
        if (run_case(c, what))
            passed[c->kind]++;
        else
            failed++;
    }
    for (int k = 0; k < KIND_COUNT; k++)
        if (ran[k] != 0)
            printf("  %-28s %3u cases, %3u pass\n", kind_name[k], ran[k],
                   passed[k]);
    printf("  %-28s %3zu cases, %3zu pass\n", "total", a->list->n,
           a->list->n - failed);
    return test_failure_count() - before;
}

int main(int argc, char **argv)
{
    const suite *s = NULL;
    case_list list;
    run_arg arg;

    if (argc != 2) {
        fprintf(stderr, "usage: %s <ACVP folder, e.g. ML-KEM-keyGen-FIPS203>\n",
                argv[0]);
        return 2;
    }
    for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
        if (strcmp(argv[1], suites[i].folder) == 0)
            s = &suites[i];
    if (s == NULL) {
        fprintf(stderr, "unknown ACVP folder '%s'\n", argv[1]);
        return 2;
    }
    test_vectors_dir("ACVP test");
    if (load(s, &list) != 0) /* load counted why */
        return test_finish(s->folder);
    printf("%s: %zu cases loaded\n", s->folder, list.n);
    arg.s = s;
    arg.list = &list;
    test_for_each_backend(run_all, &arg);
    free(list.cases);
    return test_finish(s->folder);
}
