/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp_acvp.c: every NIST ACVP ML-KEM case (ACVP-Server v1.1.0.43,
 * $MLKEM_VECTORS_DIR/acvp, internalProjection.json) through EVP:
 *   keyGen (75):       keygen with the "seed" parameter d || z; compare the
 *                      exported pub / priv with ek / dk.
 *   encapsulation:     import ek (EVP_PKEY_fromdata), ikme = m; compare c, K.
 *   decapsulation:     import dk (or, tr1 keyFormat "seed", d || z); compare
 *                      K (valid and "modified ciphertext" cases alike).
 *   key checks:        import must succeed exactly when testPassed, and fail
 *                      with the §7.2 / §7.3 reason otherwise.
 * The case counts are asserted, so a truncated file cannot pass.
 */
#include "test/provider/evp_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/err.h>

#include "test/common/test_json.h"
#include "test/common/test_util.h"

typedef struct {
    int keygen, encaps, decaps, ekcheck, dkcheck;
} counts;

/* Hex member `key` into out (exactly len bytes). */
static int hexfield(const test_json *t, const char *key, uint8_t *out,
                    size_t len)
{
    const char *h = test_json_get_str(t, key);
    return h != NULL && test_hex_decode(out, len, h, strlen(h)) == 0;
}

static void run_case(test_env *e, const char *file, const char *fn,
                     const char *fmt, const evp_variant *v,
                     const test_json *t, counts *c)
{
    static uint8_t ek[1568], dk[3168], ct[1568], seed[64], m[32], k[32],
        got[3168];
    long tcid = -1;
    size_t len, len2;
    EVP_PKEY *key = NULL;

    test_json_get_int(t, "tcId", &tcid);
    if (fn == NULL) { /* keyGen */
        if (!TEST_CHECK(hexfield(t, "d", seed, 32) && hexfield(t, "z", seed + 32, 32)
                       && hexfield(t, "ek", ek, v->ek)
                       && hexfield(t, "dk", dk, v->dk),
                   "%s tc %ld: bad fields", file, tcid))
            return;
        key = evp_keygen(e, v->name, seed, 64);
        TEST_CHECK(key != NULL && evp_get_octets(key, "pub", got, sizeof(got), &len)
                  && evp_bytes_eq("ek", got, len, ek, v->ek),
              "%s tc %ld: keyGen ek", file, tcid);
        TEST_CHECK(key != NULL && evp_get_octets(key, "priv", got, sizeof(got), &len)
                  && evp_bytes_eq("dk", got, len, dk, v->dk),
              "%s tc %ld: keyGen dk", file, tcid);
        TEST_CHECK(key != NULL && evp_get_octets(key, "seed", got, sizeof(got), &len)
                  && evp_bytes_eq("seed", got, len, seed, 64),
              "%s tc %ld: keyGen seed", file, tcid);
        c->keygen++;
    } else if (strcmp(fn, "encapsulation") == 0) {
        if (!TEST_CHECK(hexfield(t, "ek", ek, v->ek) && hexfield(t, "m", m, 32)
                       && hexfield(t, "c", ct, v->ct) && hexfield(t, "k", k, 32),
                   "%s tc %ld: bad fields", file, tcid))
            return;
        key = evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, ek, v->ek, NULL, 0,
                         NULL, 0);
        len = sizeof(got);
        len2 = 32;
        uint8_t ss[32];
        TEST_CHECK(key != NULL && evp_encaps(e, key, m, 32, got, &len, ss, &len2)
                  && evp_bytes_eq("c", got, len, ct, v->ct)
                  && evp_bytes_eq("K", ss, len2, k, 32),
              "%s tc %ld: encapsulation", file, tcid);
        c->encaps++;
    } else if (strcmp(fn, "decapsulation") == 0) {
        if (!TEST_CHECK(hexfield(t, "c", ct, v->ct) && hexfield(t, "k", k, 32),
                   "%s tc %ld: bad fields", file, tcid))
            return;
        if (fmt != NULL && strcmp(fmt, "seed") == 0) {
            if (!TEST_CHECK(hexfield(t, "d", seed, 32)
                           && hexfield(t, "z", seed + 32, 32),
                       "%s tc %ld: bad seed", file, tcid))
                return;
            key = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, NULL, 0,
                             seed, 64);
        } else {
            if (!TEST_CHECK(hexfield(t, "dk", dk, v->dk), "%s tc %ld: bad dk", file,
                       tcid))
                return;
            key = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, dk, v->dk,
                             NULL, 0);
        }
        len = 32;
        TEST_CHECK(key != NULL && evp_decaps(e, key, ct, v->ct, got, &len)
                  && evp_bytes_eq("K", got, len, k, 32),
              "%s tc %ld: decapsulation (%s)", file, tcid,
              test_json_get_str(t, "reason") ? test_json_get_str(t, "reason")
                                             : "?");
        c->decaps++;
    } else if (strcmp(fn, "encapsulationKeyCheck") == 0
               || strcmp(fn, "decapsulationKeyCheck") == 0) {
        int passed = -1, is_ek = fn[0] == 'e';
        char what[160];
        if (!TEST_CHECK(test_json_get_bool(t, "testPassed", &passed) == 0
                       && (is_ek ? hexfield(t, "ek", ek, v->ek)
                                 : hexfield(t, "dk", dk, v->dk)),
                   "%s tc %ld: bad fields", file, tcid))
            return;
        key = is_ek ? evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, ek, v->ek,
                                 NULL, 0, NULL, 0)
                    : evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, dk,
                                 v->dk, NULL, 0);
        snprintf(what, sizeof(what), "%s tc %ld: %s (%s)", file, tcid, fn,
                 test_json_get_str(t, "reason") ? test_json_get_str(t, "reason")
                                                : "?");
        if (passed)
            TEST_CHECK(key != NULL, "%s: valid key rejected", what);
        else
            EXPECT_REASON(key != NULL, is_ek ? R_EK_NOT_REDUCED : R_DK_HASH,
                          what);
        if (is_ek)
            c->ekcheck++;
        else
            c->dkcheck++;
    } else {
        TEST_CHECK(0, "%s tc %ld: unknown function %s", file, tcid, fn);
    }
    EVP_PKEY_free(key);
    ERR_clear_error();
}

static int run_file(test_env *e, const char *dir, const char *folder,
                    counts *c)
{
    char path[4096], err[256];
    size_t len;

    snprintf(path, sizeof(path), "%s/acvp/%s/internalProjection.json", dir,
             folder);
    char *text = test_read_file(path, &len);
    if (!TEST_CHECK(text != NULL, "cannot read %s", path))
        return 0;
    test_json *root = test_json_parse(text, len, err, sizeof(err));
    free(text);
    if (!TEST_CHECK(root != NULL, "%s: %s", path, err))
        return 0;
    const test_json *groups = test_json_get_array(root, "testGroups");
    TEST_CHECK(groups != NULL, "%s: no testGroups", path);
    for (size_t g = 0; groups != NULL && g < groups->n; g++) {
        const test_json *grp = &groups->items[g];
        const char *set = test_json_get_str(grp, "parameterSet");
        const char *fn = test_json_get_str(grp, "function");
        const char *fmt = test_json_get_str(grp, "keyFormat");
        const evp_variant *v = set != NULL ? evp_variant_by_name(set) : NULL;
        const test_json *tests = test_json_get_array(grp, "tests");
        if (!TEST_CHECK(v != NULL && tests != NULL, "%s: group %zu", path, g))
            continue;
        for (size_t i = 0; i < tests->n; i++)
            run_case(e, folder, fn, fmt, v, &tests->items[i], c);
    }
    test_json_free(root);
    return 1;
}

void evp_suite_acvp(test_env *e)
{
    const char *dir = getenv("MLKEM_VECTORS_DIR");
    char acvp[4096];
    struct stat st;
    counts kg = { 0 }, ed = { 0 }, tr1 = { 0 };

    snprintf(acvp, sizeof(acvp), "%s/acvp", dir != NULL ? dir : "");
    if (dir == NULL || *dir == '\0' || stat(acvp, &st) != 0
        || !S_ISDIR(st.st_mode)) {
        evp_skip_reason = "ACVP vectors not found (MLKEM_VECTORS_DIR must "
                          "name a directory with acvp/; the build unpacks "
                          "test/vectors/data there)";
        return;
    }
    run_file(e, dir, "ML-KEM-keyGen-FIPS203", &kg);
    run_file(e, dir, "ML-KEM-encapDecap-FIPS203", &ed);
    run_file(e, dir, "ML-KEM-encapDecap-FIPS203-tr1", &tr1);
    printf("   keyGen %d; encapDecap: encaps %d decaps %d ek-check %d "
           "dk-check %d; tr1: encaps %d decaps %d ek-check %d dk-check %d\n",
           kg.keygen, ed.encaps, ed.decaps, ed.ekcheck, ed.dkcheck,
           tr1.encaps, tr1.decaps, tr1.ekcheck, tr1.dkcheck);
    /* ACVP v1.1.0.43 counts (acvp/README.md). */
    TEST_CHECK(kg.keygen == 75, "keyGen cases %d, expected 75", kg.keygen);
    TEST_CHECK(ed.encaps == 75 && ed.decaps == 30 && ed.ekcheck == 30
              && ed.dkcheck == 30, "encapDecap case counts");
    TEST_CHECK(tr1.encaps == 75 && tr1.decaps == 60 && tr1.ekcheck == 30
              && tr1.dkcheck == 30, "encapDecap-tr1 case counts");
}
