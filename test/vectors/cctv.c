/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cctv.c: C2SP CCTV ML-KEM vectors through the kernel's byte API.
 *
 * References
 *   [FIPS203] NIST FIPS 203 (final): Algorithms 16-18, §7.2 modulus check.
 *   [CCTV]    github.com/C2SP/CCTV, ML-KEM/ (main 1e3d286) and the unmerged
 *             PR #13 (FIPS 203 final unlucky vectors); see
 *             vectors/cctv/README.md for which files are valid for final.
 *
 * Usage: vectors_cctv <strcmp|modulus|unlucky|intermediate>
 *   strcmp        Decaps(dk, c) == K; c matches the re-encryption up to a
 *                 zero byte, so a strcmp()-style comparison would accept it.
 *   modulus       every ek (one hex line each, gzip) fails §7.2 in both
 *                 mlkem_check_ek and mlkem_encaps_internal.
 *   unlucky       FIPS 203 final vectors from PR #13 (SampleNTT needs more
 *                 than 575 bytes of SHAKE-128): KeyGen, Encaps and Decaps;
 *                 plus Encaps and Decaps of the draft-era files on main.
 *   intermediate  encaps (ek, m -> c, K) and decaps (dk, c -> K) values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/common/test_util.h"
#include "test/vectors/vectors.h"

/* A counted check that a call returned MLKEM_OK. */
static int call_ok(int r, const char *what, const char *fn)
{
    return TEST_CHECK(r == MLKEM_OK, "%s: %s returned %d (%s)", what, fn, r,
                      mlkem_strerror(r));
}

/* ---- one-test files: "name = hex" lines ----------------------------------- */

/* The values a one-test file may provide, decoded for one parameter set. */
typedef struct {
    const mlkem_params *p;
    char path[512];
    uint8_t d[32], z[32], m[32], K[32];
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES];
} kv_test;

enum { F_D = 1, F_Z = 2, F_M = 4, F_K = 8, F_EK = 16, F_DK = 32, F_C = 64 };

/* Load <dir>/ML-KEM-<bits>.txt and decode the fields in `want`. */
static int load_kv(kv_test *t, const char *dir, unsigned bits, unsigned want)
{
    char rel[128];
    test_kv kv;
    char *text;
    size_t len;
    int bad = 0;

    memset(t, 0, sizeof(*t));
    t->p = vec_params(bits);
    if (t->p == NULL)
        return -1;
    snprintf(rel, sizeof(rel), "%s/ML-KEM-%u.txt", dir, bits);
    snprintf(t->path, sizeof(t->path), "%s", test_vectors_path(rel));
    text = test_read_file(t->path, &len);
    if (text == NULL)
        return -1;
    if (test_kv_parse(&kv, text, len) != 0) {
        free(text);
        TEST_FAIL("%s: out of memory", t->path);
        return -1;
    }
    free(text);
    /* In the intermediate files a name may repeat (r, dkPKE): the first
     * occurrence is the top-level value. */
    if (want & F_D)
        bad |= test_kv_hex(&kv, "d", t->d, 32, t->path);
    if (want & F_Z)
        bad |= test_kv_hex(&kv, "z", t->z, 32, t->path);
    if (want & F_M)
        bad |= test_kv_hex(&kv, "m", t->m, 32, t->path);
    if (want & F_K)
        bad |= test_kv_hex(&kv, "K", t->K, 32, t->path);
    if (want & F_EK)
        bad |= test_kv_hex(&kv, "ek", t->ek, t->p->ek_bytes, t->path);
    if (want & F_DK)
        bad |= test_kv_hex(&kv, "dk", t->dk, t->p->dk_bytes, t->path);
    if (want & F_C)
        bad |= test_kv_hex(&kv, "c", t->c, t->p->ct_bytes, t->path);
    test_kv_free(&kv);
    return bad ? -1 : 0;
}

/* Encaps(ek, m) == (c, K) and Decaps(dk, c) == K; returns the number of
 * failed checks. */
static int check_encaps_decaps(const kv_test *t, const char *what)
{
    const mlkem_params *p = t->p;
    const int before = test_failure_count();
    uint8_t c[MLKEM_MAX_CT_BYTES], K[32];
    char msg[700];

    if (call_ok(mlkem_encaps_internal(p, c, K, t->ek, p->ek_bytes, t->m),
                what, "mlkem_encaps_internal")) {
        snprintf(msg, sizeof(msg), "%s: Encaps c", what);
        TEST_CHECK(test_bytes_eq(msg, c, t->c, p->ct_bytes), "%s", msg);
        snprintf(msg, sizeof(msg), "%s: Encaps K", what);
        TEST_CHECK(test_bytes_eq(msg, K, t->K, 32), "%s", msg);
    }
    if (call_ok(mlkem_decaps_internal(p, K, t->c, p->ct_bytes, t->dk,
                                      p->dk_bytes),
                what, "mlkem_decaps_internal")) {
        snprintf(msg, sizeof(msg), "%s: Decaps K", what);
        TEST_CHECK(test_bytes_eq(msg, K, t->K, 32), "%s", msg);
    }
    return test_failure_count() - before;
}

/* ---- strcmp ------------------------------------------------------------- */

typedef struct {
    kv_test t[3];
    kv_test draft[3]; /* unlucky only: cctv/unluckysample (CCTV main) */
} three;

static int run_strcmp(const char *backend, void *arg)
{
    const three *v = arg;
    const int before = test_failure_count();
    (void)backend;

    for (int i = 0; i < 3; i++) {
        const kv_test *t = &v->t[i];
        const int f0 = test_failure_count();
        uint8_t K[32];

        if (call_ok(mlkem_decaps_internal(t->p, K, t->c, t->p->ct_bytes,
                                          t->dk, t->p->dk_bytes),
                    t->path, "mlkem_decaps_internal"))
            TEST_CHECK(test_bytes_eq(t->path, K, t->K, 32), "%s", t->path);
        printf("  strcmp %-12s Decaps(dk, c) == K: %s\n", t->p->name,
               test_failure_count() != f0 ? "FAIL" : "pass");
    }
    return test_failure_count() - before;
}

/* ---- unlucky (FIPS 203 final, PR #13) ------------------------------------- */

static int run_unlucky(const char *backend, void *arg)
{
    const three *v = arg;
    const int before = test_failure_count();
    (void)backend;

    for (int i = 0; i < 3; i++) {
        const kv_test *t = &v->t[i];
        const mlkem_params *p = t->p;
        const int f0 = test_failure_count();
        uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
        char msg[600];
        int f;

        if (call_ok(mlkem_keygen_internal(p, ek, dk, t->d, t->z), t->path,
                    "mlkem_keygen_internal")) {
            snprintf(msg, sizeof(msg), "%s: KeyGen ek", t->path);
            TEST_CHECK(test_bytes_eq(msg, ek, t->ek, p->ek_bytes), "%s", msg);
            snprintf(msg, sizeof(msg), "%s: KeyGen dk", t->path);
            TEST_CHECK(test_bytes_eq(msg, dk, t->dk, p->dk_bytes), "%s", msg);
        }
        check_encaps_decaps(t, t->path);
        printf("  unlucky %-12s KeyGen, Encaps, Decaps: %s\n", p->name,
               test_failure_count() != f0 ? "FAIL" : "pass");

        /* The draft-era files on CCTV main have other (draft) keygen
         * values, not checked; their ek also has an unlucky rho, and
         * Encaps/Decaps on the given ek/dk are unchanged in final. */
        f = check_encaps_decaps(&v->draft[i], v->draft[i].path);
        printf("  unlucky %-12s (CCTV main) Encaps, Decaps: %s\n", p->name,
               f ? "FAIL" : "pass");
    }
    return test_failure_count() - before;
}

/* ---- intermediate ---------------------------------------------------------- */

/* The intermediate files come from CCTV main, which follows the FIPS 203
 * draft: its K-PKE.KeyGen hashed G(d) where final hashes G(d || k), so the
 * keygen values there (rho, sigma, A, s, e, t, ek, dk from d) are not final
 * ones and are deliberately not checked. Encaps and Decaps on the given ek
 * and dk are unchanged in final and are checked. */
static int run_intermediate(const char *backend, void *arg)
{
    const three *v = arg;
    const int before = test_failure_count();
    (void)backend;

    for (int i = 0; i < 3; i++) {
        const kv_test *t = &v->t[i];
        int f = check_encaps_decaps(t, t->path);
        printf("  intermediate %-12s Encaps(ek, m), Decaps(dk, c): %s "
               "(keygen values are the draft's: not checked)\n",
               t->p->name, f ? "FAIL" : "pass");
    }
    return test_failure_count() - before;
}

/* ---- modulus ------------------------------------------------------------- */

typedef struct {
    const mlkem_params *p;
    char path[512];
    size_t n;          /* number of keys */
    uint8_t *keys;     /* n * ek_bytes */
} ek_list;

typedef struct {
    ek_list l[3];
} modulus_sets;

/* Expected line counts (vectors/cctv/README.md): every value q..4095 at
 * positions spread over the key, one invalid key per line. */
static const size_t modulus_lines[3] = {775, 780, 1040};

static int load_modulus(ek_list *l, unsigned bits, size_t expect)
{
    char rel[128];
    char *text, *line;
    size_t len, lineno = 0, cap;

    memset(l, 0, sizeof(*l));
    l->p = vec_params(bits);
    if (l->p == NULL)
        return -1;
    snprintf(rel, sizeof(rel), "cctv/modulus/ML-KEM-%u.txt.gz", bits);
    snprintf(l->path, sizeof(l->path), "%s", test_vectors_path(rel));
    text = test_read_gzip(l->path, &len);
    if (text == NULL)
        return -1;
    cap = len / (2 * l->p->ek_bytes) + 1;
    l->keys = malloc(cap * l->p->ek_bytes);
    if (l->keys == NULL) {
        free(text);
        TEST_FAIL("out of memory");
        return -1;
    }
    line = text;
    while (line < text + len) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        char *next = nl != NULL ? nl + 1 : text + len;
        size_t ll = (size_t)((nl != NULL ? nl : text + len) - line);

        lineno++;
        if (ll > 0 && line[ll - 1] == '\r')
            ll--;
        if (ll != 0) {
            if (l->n >= cap || test_hex_decode(l->keys + l->n * l->p->ek_bytes,
                                               l->p->ek_bytes, line, ll) != 0) {
                TEST_FAIL("%s: line %zu is not an ek of %zu bytes in hex "
                          "(%zu characters)", l->path, lineno,
                          l->p->ek_bytes, ll);
                free(text);
                return -1;
            }
            l->n++;
        }
        line = next;
    }
    free(text);
    if (l->n != expect) {
        TEST_FAIL("%s: %zu keys, expected %zu", l->path, l->n, expect);
        return -1;
    }
    return 0;
}

static int run_modulus(const char *backend, void *arg)
{
    const modulus_sets *v = arg;
    static const uint8_t zero[32] = {0};
    const int before = test_failure_count();
    (void)backend;

    for (int i = 0; i < 3; i++) {
        const ek_list *l = &v->l[i];
        const mlkem_params *p = l->p;
        size_t rejected = 0;

        for (size_t j = 0; j < l->n; j++) {
            const uint8_t *ek = l->keys + j * p->ek_bytes;
            uint8_t c[MLKEM_MAX_CT_BYTES], K[32];
            int r1 = mlkem_check_ek(p, ek, p->ek_bytes);
            int r2;

            memset(K, 0xa5, sizeof(K));
            r2 = mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, zero);
            if (!TEST_CHECK(r1 == MLKEM_ERR_EK_MODULUS &&
                                r2 == MLKEM_ERR_EK_MODULUS,
                            "%s: key %zu: mlkem_check_ek %d, "
                            "mlkem_encaps_internal %d, expected %d "
                            "(MLKEM_ERR_EK_MODULUS) from both", l->path,
                            j + 1, r1, r2, MLKEM_ERR_EK_MODULUS))
                continue;
            /* mlkem.h: on error, secret outputs are zeroed. */
            if (!TEST_CHECK(memcmp(K, zero, 32) == 0,
                            "%s: key %zu: K not zeroed after a rejected "
                            "Encaps", l->path, j + 1))
                continue;
            rejected++;
        }
        printf("  modulus %-12s %zu keys, %zu rejected by check_ek and "
               "encaps\n", p->name, l->n, rejected);
    }
    return test_failure_count() - before;
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    char name[64];

    if (strcmp(what, "strcmp") != 0 && strcmp(what, "modulus") != 0 &&
        strcmp(what, "unlucky") != 0 && strcmp(what, "intermediate") != 0) {
        fprintf(stderr, "usage: %s <strcmp|modulus|unlucky|intermediate>\n",
                argv[0]);
        return 2;
    }
    test_vectors_dir("CCTV test");

    if (strcmp(what, "modulus") == 0) {
        modulus_sets *v = calloc(1, sizeof(*v));
        int bad = !TEST_CHECK(v != NULL, "out of memory");
        for (int i = 0; i < 3 && !bad; i++)
            bad = load_modulus(&v->l[i], vec_bits[i], modulus_lines[i]) != 0;
        if (!bad)
            test_for_each_backend(run_modulus, v);
        for (int i = 0; v != NULL && i < 3; i++)
            free(v->l[i].keys);
        free(v);
    } else {
        three *v = calloc(1, sizeof(*v));
        test_backend_fn fn;
        const char *dir;
        unsigned want;
        int bad = !TEST_CHECK(v != NULL, "out of memory");

        if (strcmp(what, "strcmp") == 0) {
            dir = "cctv/strcmp";
            want = F_DK | F_C | F_K;
            fn = run_strcmp;
        } else if (strcmp(what, "unlucky") == 0) {
            /* PR #13 regenerated these for FIPS 203 final; the copies in
             * cctv/unluckysample/ (main) have draft keygen values. */
            dir = "cctv/unluckysample-fips203-final-pr13";
            want = F_D | F_Z | F_EK | F_DK | F_M | F_K | F_C;
            fn = run_unlucky;
        } else {
            dir = "cctv/intermediate";
            want = F_EK | F_DK | F_M | F_K | F_C;
            fn = run_intermediate;
        }
        for (int i = 0; i < 3 && !bad; i++)
            bad = load_kv(&v->t[i], dir, vec_bits[i], want) != 0;
        for (int i = 0; i < 3 && !bad && fn == run_unlucky; i++)
            bad = load_kv(&v->draft[i], "cctv/unluckysample", vec_bits[i],
                          F_EK | F_DK | F_M | F_K | F_C) != 0;
        if (!bad)
            test_for_each_backend(fn, v);
        free(v);
    }
    snprintf(name, sizeof(name), "cctv %s", what);
    return test_finish(name);
}
