/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_evp.c: mlkem.so through the public EVP API.
 *
 * Usage: test_evp <3.0|3.5> <module dir> <suite>...
 *   suites: provider roundtrip bad threads rand acvp config instances cycles
 *           secure
 *
 * Built against the system OpenSSL 3.0 headers and run twice by CTest: on
 * the system libcrypto 3.0, and on OpenSSL 3.5 through LD_LIBRARY_PATH (the
 * same libcrypto.so.3 soname). The first argument is the major.minor the run
 * must find; a 3.5 run without the 3.5 build (scripts/openssl35.sh) skips.
 *
 * References: FIPS 203 (sizes, Algorithms 16-21), OpenSSL 3.5's
 * EVP_PKEY-ML-KEM(7) / EVP_KEM-ML-KEM(7) for the parameter names.
 */
#include "test/provider/evp_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/params.h>

#ifndef MLKEM_VERSION_STR
#define MLKEM_VERSION_STR "0.0.0"
#endif

/* ---- provider: parameters, names, OIDs, reason strings ----------------------- */

void evp_suite_provider(test_env *e)
{
    const char *name = NULL, *version = NULL, *buildinfo = NULL;
    int status = -1;
    OSSL_PARAM params[5];

    params[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME,
                                              (char **)&name, 0);
    params[1] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION,
                                              (char **)&version, 0);
    params[2] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO,
                                              (char **)&buildinfo, 0);
    params[3] = OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status);
    params[4] = OSSL_PARAM_construct_end();
    TEST_CHECK(OSSL_PROVIDER_get_params(e->mlkem, params) == 1, "get_params");
    TEST_CHECK(strcmp(OSSL_PROVIDER_get0_name(e->mlkem), "mlkem") == 0,
          "provider name %s", OSSL_PROVIDER_get0_name(e->mlkem));
    TEST_CHECK(name != NULL && strcmp(name, "mlkem") == 0, "name param %s",
          name ? name : "(null)");
    TEST_CHECK(version != NULL && strcmp(version, MLKEM_VERSION_STR) == 0,
          "version %s, expected %s", version ? version : "(null)",
          MLKEM_VERSION_STR);
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "mlkem %s (FIPS 203 final; backend ",
             MLKEM_VERSION_STR);
    TEST_CHECK(buildinfo != NULL && strncmp(buildinfo, prefix, strlen(prefix)) == 0,
          "buildinfo \"%s\"", buildinfo ? buildinfo : "(null)");
    TEST_CHECK(status == 1, "status %d", status);
    /* The provider parsed the core's "openssl-version" numerically. */
    unsigned long rv = OpenSSL_version_num();
    char running[64];
    snprintf(running, sizeof(running), "; running on OpenSSL %lu.%lu.%lu)",
             (rv >> 28) & 0xF, (rv >> 20) & 0xFF, (rv >> 4) & 0xFF);
    TEST_CHECK(buildinfo != NULL && strstr(buildinfo, running) != NULL,
          "buildinfo \"%s\" lacks \"%s\"", buildinfo ? buildinfo : "(null)",
          running);
    /* MLKEM_BACKEND (arch/dispatch.c) reaches mlkem.so: the backend the
     * provider reports is the one asked for (the CTest run with
     * MLKEM_BACKEND=portable; a name this CPU cannot run would be ignored,
     * and test/arch covers that). */
    const char *want_be = getenv("MLKEM_BACKEND");
    if (want_be != NULL && *want_be != '\0') {
        char be[64];
        snprintf(be, sizeof(be), "; backend %s;", want_be);
        TEST_CHECK(buildinfo != NULL && strstr(buildinfo, be) != NULL,
              "MLKEM_BACKEND=%s but buildinfo \"%s\"", want_be,
              buildinfo ? buildinfo : "(null)");
    }
    TEST_CHECK(OSSL_PROVIDER_available(e->libctx, "mlkem") == 1, "available");
    printf("provider: %s %s status %d; %s\n", name ? name : "?",
           version ? version : "?", status, buildinfo ? buildinfo : "?");

    /* Gettable list names the four parameters. */
    const OSSL_PARAM *g = OSSL_PROVIDER_gettable_params(e->mlkem);
    int seen = 0;
    for (; g != NULL && g->key != NULL; g++)
        seen += !strcmp(g->key, "name") + !strcmp(g->key, "version")
                + !strcmp(g->key, "buildinfo") + !strcmp(g->key, "status");
    TEST_CHECK(seen == 4, "gettable params: %d of 4", seen);

    /* Every reason code of prov.h has its text (get_reason_strings). The
     * library code comes from a real error. */
    static const struct { int r; const char *s; } reasons[] = {
        { 101, "encapsulation key not reduced mod q" },
        { 102, "decapsulation key hash check failed" },
        { 103, "decapsulation key not reduced mod q" },
        { 104, "invalid key length" },
        { 105, "invalid ciphertext length" },
        { 106, "invalid seed length" },
        { 107, "seed does not match private key" },
        { 108, "pairwise consistency test failed" },
        { 109, "missing key" },
        { 110, "key already set" },
        { 111, "invalid ikme length" },
        { 112, "output buffer too small" },
        { 113, "random generation failed" },
        { 114, "invalid key encoding" },
        { 115, "wrong algorithm identifier" },
        { 116, "unknown key format name" },
        { 117, "invalid parameter" },
        { 118, "invalid elliptic curve point" },
        { 119, "all-zero X25519 or X448 shared secret" },
        { 120, "classical key exchange failed" },
        { 121, "key of the wrong type" },
        { 122, "cannot create object identifier" },
        { 123, "public key does not match private key" },
    };
    uint8_t junk[10] = { 0 };
    ERR_clear_error();
    EVP_PKEY *bad = evp_import(e, "ML-KEM-768", EVP_PKEY_PUBLIC_KEY, junk,
                               sizeof(junk), NULL, 0, NULL, 0);
    unsigned long err = ERR_peek_error();
    int lib = ERR_GET_LIB(err);
    TEST_CHECK(bad == NULL && err != 0, "a 10-byte ek was accepted");
    EVP_PKEY_free(bad);
    ERR_clear_error();
    for (size_t i = 0; lib != 0 && i < sizeof(reasons) / sizeof(reasons[0]);
         i++) {
        const char *got = ERR_reason_error_string(ERR_PACK(lib, 0,
                                                           reasons[i].r));
        TEST_CHECK(got != NULL && strcmp(got, reasons[i].s) == 0,
              "reason %d: \"%s\", expected \"%s\"", reasons[i].r,
              got ? got : "(null)", reasons[i].s);
    }
    TEST_CHECK(lib != 0 && strcmp(ERR_lib_error_string(ERR_PACK(lib, 0, 0)),
                             "mlkem") == 0, "library name");

    for (size_t i = 0; i < 3; i++) {
        const evp_variant *v = &evp_variants[i];
        /* OIDs: created on 3.0, built in on 3.5; the same names either way. */
        int nid = OBJ_txt2nid(v->oid);
        TEST_CHECK(nid != NID_undef, "OID %s unknown", v->oid);
        if (nid != NID_undef) {
            TEST_CHECK(strcmp(OBJ_nid2sn(nid), v->sn) == 0, "sn %s", OBJ_nid2sn(nid));
            TEST_CHECK(strcmp(OBJ_nid2ln(nid), v->name) == 0, "ln %s",
                  OBJ_nid2ln(nid));
        }
        /* Every alias fetches our KEM and key management. */
        const char *names[4] = { v->name, v->alias, v->sn, v->oid };
        for (size_t j = 0; j < 4; j++) {
            EVP_KEM *kem = EVP_KEM_fetch(e->libctx, names[j], EVP_TEST_PROPQ);
            EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(e->libctx, names[j],
                                                EVP_TEST_PROPQ);
            TEST_CHECK(kem != NULL && strcmp(OSSL_PROVIDER_get0_name(
                                  EVP_KEM_get0_provider(kem)), "mlkem") == 0,
                  "EVP_KEM_fetch(%s)", names[j]);
            TEST_CHECK(km != NULL && strcmp(OSSL_PROVIDER_get0_name(
                                 EVP_KEYMGMT_get0_provider(km)), "mlkem") == 0,
                  "EVP_KEYMGMT_fetch(%s)", names[j]);
            if (kem != NULL)
                for (size_t m = 0; m < 4; m++)
                    TEST_CHECK(EVP_KEM_is_a(kem, names[m]), "%s is_a %s", names[j],
                          names[m]);
            EVP_KEM_free(kem);
            EVP_KEYMGMT_free(km);
        }
    }
    ERR_clear_error();
}

/* ---- roundtrip: keygen, export/import, encaps/decaps, key functions ------------ */

static void roundtrip_variant(test_env *e, const evp_variant *v)
{
    uint8_t ek[1568], dk[3168], seed[64], ct[1568], ct2[1568], ss1[32],
        ss2[32], ss3[32], ikme[32];
    size_t eklen, dklen, seedlen, ctlen, sslen;
    EVP_PKEY *k = NULL, *pub = NULL, *dup = NULL, *pub2 = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    int bits = 0, secbits = 0, maxsize = 0;

    k = evp_keygen(e, v->name, NULL, 0);
    if (!TEST_CHECK(k != NULL, "%s: keygen", v->name))
        return;
    TEST_CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(k)), "mlkem")
              == 0, "%s: key provider", v->name);
    TEST_CHECK(EVP_PKEY_is_a(k, v->name) && EVP_PKEY_is_a(k, v->alias),
          "%s: EVP_PKEY_is_a", v->name);
    TEST_CHECK(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_BITS, &bits) && bits == v->bits,
          "%s: bits %d", v->name, bits);
    TEST_CHECK(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_SECURITY_BITS, &secbits)
              && secbits == v->secbits, "%s: security-bits %d", v->name, secbits);
    TEST_CHECK(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_MAX_SIZE, &maxsize)
              && (size_t)maxsize == v->ct, "%s: max-size %d", v->name, maxsize);
    TEST_CHECK(EVP_PKEY_get_bits(k) == v->bits, "%s: EVP_PKEY_get_bits", v->name);
    TEST_CHECK(EVP_PKEY_get_security_bits(k) == v->secbits,
          "%s: EVP_PKEY_get_security_bits", v->name);
    TEST_CHECK(EVP_PKEY_get_size(k) == (int)v->ct, "%s: EVP_PKEY_get_size", v->name);

    TEST_CHECK(evp_get_octets(k, OSSL_PKEY_PARAM_PUB_KEY, ek, sizeof(ek), &eklen)
              && eklen == v->ek, "%s: pub %zu", v->name, eklen);
    uint8_t ek2[1568];
    size_t ek2len;
    TEST_CHECK(evp_get_octets(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, ek2, sizeof(ek2),
                         &ek2len) && evp_bytes_eq("encoded-pub-key", ek2, ek2len,
                                                  ek, eklen),
          "%s: encoded-pub-key", v->name);
    TEST_CHECK(evp_get_octets(k, OSSL_PKEY_PARAM_PRIV_KEY, dk, sizeof(dk), &dklen)
              && dklen == v->dk, "%s: priv %zu", v->name, dklen);
    TEST_CHECK(evp_get_octets(k, "seed", seed, sizeof(seed), &seedlen)
              && seedlen == 64, "%s: seed %zu", v->name, seedlen);
    /* dk = dk_pke || ek || H(ek) || z (FIPS 203 Algorithm 16, line 3): the
     * embedded ek is ours and z is the seed's second half. */
    TEST_CHECK(memcmp(dk + 384 * (v->bits / 256), ek, v->ek) == 0,
          "%s: ek inside dk", v->name);
    TEST_CHECK(memcmp(dk + v->dk - 32, seed + 32, 32) == 0, "%s: z", v->name);

    /* Deterministic: the same seed regenerates the same key. */
    EVP_PKEY *k2 = evp_keygen(e, v->name, seed, 64);
    uint8_t dk2[3168];
    size_t dk2len;
    TEST_CHECK(k2 != NULL && evp_get_octets(k2, "priv", dk2, sizeof(dk2), &dk2len)
              && evp_bytes_eq("regenerated dk", dk2, dk2len, dk, dklen),
          "%s: keygen from seed", v->name);
    TEST_CHECK(k2 != NULL && EVP_PKEY_eq(k, k2) == 1, "%s: EVP_PKEY_eq", v->name);
    EVP_PKEY_free(k2);

    /* A public-only copy: import ek, encapsulate to it, decapsulate. */
    pub = evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, ek, eklen, NULL, 0,
                     NULL, 0);
    if (!TEST_CHECK(pub != NULL, "%s: import pub", v->name))
        goto end;
    TEST_CHECK(EVP_PKEY_eq(k, pub) == 1, "%s: eq(priv, pub)", v->name);
    size_t dummy;
    TEST_CHECK(!evp_get_octets(pub, "priv", dk2, sizeof(dk2), &dummy),
          "%s: pub-only key answers priv", v->name);
    ERR_clear_error();

    ctlen = 0;
    sslen = 0;
    /* Size query: NULL buffers. */
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, pub, EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) == 1
              && EVP_PKEY_encapsulate(ctx, NULL, &ctlen, NULL, &sslen) == 1
              && ctlen == v->ct && sslen == 32,
          "%s: encapsulate size query %zu %zu", v->name, ctlen, sslen);
    EVP_PKEY_CTX_free(ctx);
    ctx = NULL;

    ctlen = sizeof(ct);
    sslen = sizeof(ss1);
    TEST_CHECK(evp_encaps(e, pub, NULL, 0, ct, &ctlen, ss1, &sslen)
              && ctlen == v->ct && sslen == 32, "%s: encaps", v->name);
    sslen = sizeof(ss2);
    TEST_CHECK(evp_decaps(e, k, ct, ctlen, ss2, &sslen) && sslen == 32
              && evp_bytes_eq("K", ss2, 32, ss1, 32), "%s: decaps", v->name);

    /* Decapsulation size query. */
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k, EVP_TEST_PROPQ);
    sslen = 0;
    TEST_CHECK(ctx != NULL && EVP_PKEY_decapsulate_init(ctx, NULL) == 1
              && EVP_PKEY_decapsulate(ctx, NULL, &sslen, ct, ctlen) == 1
              && sslen == 32, "%s: decapsulate size query", v->name);
    EVP_PKEY_CTX_free(ctx);
    ctx = NULL;

    /* ikme is deterministic and one-shot: two encapsulations in one context,
     * the first with ikme = m, the second with a fresh m. */
    evp_random(e, ikme, sizeof(ikme));
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, pub, EVP_TEST_PROPQ);
    OSSL_PARAM ip[2] = {
        OSSL_PARAM_construct_octet_string("ikme", ikme, sizeof(ikme)),
        OSSL_PARAM_construct_end()
    };
    size_t l1 = sizeof(ct), l2 = sizeof(ct2), s1 = 32, s2 = 32;
    TEST_CHECK(ctx != NULL && EVP_PKEY_encapsulate_init(ctx, ip) == 1
              && EVP_PKEY_encapsulate(ctx, ct, &l1, ss1, &s1) == 1
              && EVP_PKEY_encapsulate(ctx, ct2, &l2, ss3, &s2) == 1,
          "%s: encapsulate twice", v->name);
    TEST_CHECK(memcmp(ct, ct2, v->ct) != 0 && memcmp(ss1, ss3, 32) != 0,
          "%s: ikme reused by a second encapsulation", v->name);
    EVP_PKEY_CTX_free(ctx);
    ctx = NULL;
    l2 = sizeof(ct2);
    s2 = 32;
    TEST_CHECK(evp_encaps(e, k, ikme, 32, ct2, &l2, ss3, &s2)
              && memcmp(ct, ct2, v->ct) == 0 && memcmp(ss1, ss3, 32) == 0,
          "%s: same ikme, different result", v->name);
    s2 = 32;
    TEST_CHECK(evp_decaps(e, k, ct, l1, ss2, &s2) && memcmp(ss1, ss2, 32) == 0,
          "%s: decaps of the ikme ciphertext", v->name);

    /* Implicit rejection: a tampered ciphertext decapsulates (success) to
     * K-bar = J(z || c') = SHAKE256(z || c', 32) (FIPS 203 Algorithm 18,
     * lines 7-11), different from K, the same on every call. */
    for (int pos = 0; pos < 3; pos++) {
        size_t at = pos == 0 ? 0 : pos == 1 ? v->ct / 2 : v->ct - 1;
        uint8_t bad[1568], kbar[32], r1[32], r2[32];
        size_t r1l = 32, r2l = 32;
        memcpy(bad, ct, v->ct);
        bad[at] ^= 0x01;
        TEST_CHECK(evp_decaps(e, k, bad, v->ct, r1, &r1l)
                  && evp_decaps(e, k, bad, v->ct, r2, &r2l) && r1l == 32,
              "%s: tampered decaps must succeed", v->name);
        TEST_CHECK(memcmp(r1, ss1, 32) != 0, "%s: tampered ct gave K", v->name);
        TEST_CHECK(memcmp(r1, r2, 32) == 0, "%s: K-bar not repeatable", v->name);
        TEST_CHECK(evp_shake256(e, dk + v->dk - 32, 32, bad, v->ct, kbar, 32)
                  && evp_bytes_eq("K-bar", r1, 32, kbar, 32),
              "%s: K-bar != J(z||c)", v->name);
    }

    /* dup, check, public_check, todata. */
    dup = EVP_PKEY_dup(k);
    TEST_CHECK(dup != NULL && EVP_PKEY_eq(dup, k) == 1, "%s: dup", v->name);
    if (dup != NULL) {
        uint8_t dkd[3168];
        size_t dkdl;
        TEST_CHECK(evp_get_octets(dup, "priv", dkd, sizeof(dkd), &dkdl)
                  && evp_bytes_eq("dup dk", dkd, dkdl, dk, dklen),
              "%s: dup keeps dk", v->name);
    }
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, k, EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_check(ctx) == 1, "%s: EVP_PKEY_check",
          v->name);
    TEST_CHECK(ctx != NULL && EVP_PKEY_public_check(ctx) == 1,
          "%s: EVP_PKEY_public_check", v->name);
    TEST_CHECK(ctx != NULL && EVP_PKEY_private_check(ctx) == 1,
          "%s: EVP_PKEY_private_check", v->name);
    EVP_PKEY_CTX_free(ctx);
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, pub, EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_public_check(ctx) == 1,
          "%s: public_check on pub-only", v->name);
    TEST_CHECK(ctx != NULL && EVP_PKEY_check(ctx) != 1,
          "%s: full check on a pub-only key passed", v->name);
    ERR_clear_error();
    EVP_PKEY_CTX_free(ctx);
    ctx = NULL;

    OSSL_PARAM *out = NULL;
    TEST_CHECK(EVP_PKEY_todata(k, EVP_PKEY_KEYPAIR, &out) == 1 && out != NULL,
          "%s: todata", v->name);
    if (out != NULL) {
        const OSSL_PARAM *pp = OSSL_PARAM_locate_const(out, "pub");
        const OSSL_PARAM *pk = OSSL_PARAM_locate_const(out, "priv");
        const OSSL_PARAM *ps = OSSL_PARAM_locate_const(out, "seed");
        TEST_CHECK(pp != NULL && evp_bytes_eq("todata pub", pp->data, pp->data_size,
                                         ek, eklen), "%s: todata pub", v->name);
        TEST_CHECK(pk != NULL && evp_bytes_eq("todata priv", pk->data, pk->data_size,
                                         dk, dklen), "%s: todata priv", v->name);
        TEST_CHECK(ps != NULL && evp_bytes_eq("todata seed", ps->data, ps->data_size,
                                         seed, 64), "%s: todata seed", v->name);
        OSSL_PARAM_free(out);
    }

    /* Import forms: priv only (PCT), seed + priv (agree), all three. */
    pub2 = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, dk, dklen, NULL, 0);
    TEST_CHECK(pub2 != NULL && EVP_PKEY_eq(pub2, k) == 1, "%s: import priv", v->name);
    TEST_CHECK(pub2 == NULL || !evp_get_octets(pub2, "seed", seed, 64, &seedlen),
          "%s: priv-only import has a seed", v->name);
    ERR_clear_error();
    EVP_PKEY_free(pub2);
    pub2 = evp_import(e, v->name, EVP_PKEY_KEYPAIR, ek, eklen, dk, dklen,
                      seed, 64);
    TEST_CHECK(pub2 != NULL && EVP_PKEY_eq(pub2, k) == 1, "%s: import all", v->name);
    EVP_PKEY_free(pub2);
    pub2 = evp_import(e, v->name, EVP_PKEY_KEYPAIR, NULL, 0, NULL, 0, seed, 64);
    TEST_CHECK(pub2 != NULL && EVP_PKEY_eq(pub2, k) == 1, "%s: import seed", v->name);
    /* Selection PUBLIC_KEY from full data keeps only the public key. */
    EVP_PKEY_free(pub2);
    pub2 = evp_import(e, v->name, EVP_PKEY_PUBLIC_KEY, ek, eklen, dk, dklen,
                      seed, 64);
    TEST_CHECK(pub2 != NULL && !evp_get_octets(pub2, "priv", dk2, sizeof(dk2), &dummy),
          "%s: public selection imported the private key", v->name);
    ERR_clear_error();

end:
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pub2);
    EVP_PKEY_free(dup);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(k);
}

/* libssl's server side (3.0 ssl/t1_lib.c, s3_lib.c): paramgen gives an empty
 * key, the client's share is set as encoded-pub-key, then encapsulate. */
static void server_flow(test_env *e, const evp_variant *v)
{
    EVP_PKEY *client = evp_keygen(e, v->name, NULL, 0), *srv = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name,
                                                   EVP_TEST_PROPQ);
    unsigned char *share = NULL;
    size_t sharelen = 0, ctlen = 0, sslen = 0;
    uint8_t ct[1568], ss1[32], ss2[32];

    if (!TEST_CHECK(client != NULL && ctx != NULL, "%s: setup", v->name))
        goto end;
    /* Client: keygen with group name, share = encoded-pub-key. */
    sharelen = EVP_PKEY_get1_encoded_public_key(client, &share);
    TEST_CHECK(sharelen == v->ek, "%s: client share %zu", v->name, sharelen);
    TEST_CHECK(EVP_PKEY_paramgen_init(ctx) == 1
              && EVP_PKEY_CTX_set_group_name(ctx, v->name) == 1
              && EVP_PKEY_paramgen(ctx, &srv) == 1 && srv != NULL,
          "%s: paramgen with group", v->name);
    if (srv == NULL)
        goto end;
    int bits = 0;
    size_t dummy;
    TEST_CHECK(EVP_PKEY_get_int_param(srv, "bits", &bits) && bits == v->bits,
          "%s: empty key bits", v->name);
    uint8_t tmp[1568];
    TEST_CHECK(!evp_get_octets(srv, "encoded-pub-key", tmp, sizeof(tmp), &dummy),
          "%s: empty key has encoded-pub-key", v->name);
    ERR_clear_error();
    TEST_CHECK(EVP_PKEY_set1_encoded_public_key(srv, share, sharelen) == 1,
          "%s: set encoded-pub-key", v->name);
    EVP_PKEY_CTX_free(ctx);
    ctx = EVP_PKEY_CTX_new_from_pkey(e->libctx, srv, EVP_TEST_PROPQ);
    TEST_CHECK(ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) == 1
              && EVP_PKEY_encapsulate(ctx, NULL, &ctlen, NULL, &sslen) == 1
              && EVP_PKEY_encapsulate(ctx, ct, &ctlen, ss1, &sslen) == 1
              && ctlen == v->ct && sslen == 32, "%s: server encaps", v->name);
    sslen = 32;
    TEST_CHECK(evp_decaps(e, client, ct, ctlen, ss2, &sslen)
              && memcmp(ss1, ss2, 32) == 0, "%s: client decaps", v->name);

    /* Client keygen context also takes "group" (libssl sets it there too). */
    EVP_PKEY_CTX_free(ctx);
    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, v->name, EVP_TEST_PROPQ);
    EVP_PKEY *k = NULL;
    TEST_CHECK(ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1
              && EVP_PKEY_CTX_set_group_name(ctx, v->name) == 1
              && EVP_PKEY_keygen(ctx, &k) == 1, "%s: keygen with group",
          v->name);
    EVP_PKEY_free(k);
end:
    OPENSSL_free(share);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(srv);
    EVP_PKEY_free(client);
}

/* Known answer: seed (d || z) = bytes 00..3f, ikme (m) = 40..5f. These
 * secrets are what OpenSSL 3.5's built-in ML-KEM and @noble/post-quantum
 * 0.7.1 (keygen(seed), encapsulate(pk, msg)) both give. */
static void kat(test_env *e)
{
    static const char *const ss_hex[3] = {
        "14cace3e48771b316676afad2cfcfe8488daaa4fad954e57236caa3f24a42cf7",
        "9cddd089ffe70e3996e76f7c8d06746df34d07e8657bc0fcf2bb0e1c3084aea1",
        "0ad8d1ea1b8dd788979b4379581218df9321bdce5567eca42ae6be7d395f1a54",
    };
    uint8_t seed[64], ikme[32], ct[1568], ss[32], ss2[32], exp[32];

    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)i;
    for (int i = 0; i < 32; i++)
        ikme[i] = (uint8_t)(0x40 + i);
    for (size_t v = 0; v < 3; v++) {
        for (int i = 0; i < 32; i++) {
            unsigned x;
            sscanf(ss_hex[v] + 2 * i, "%2x", &x);
            exp[i] = (uint8_t)x;
        }
        EVP_PKEY *k = evp_keygen(e, evp_variants[v].name, seed, 64);
        size_t ctlen = sizeof(ct), sslen = 32, sl2 = 32;
        TEST_CHECK(k != NULL && evp_encaps(e, k, ikme, 32, ct, &ctlen, ss, &sslen)
                  && evp_bytes_eq("KAT K", ss, sslen, exp, 32),
              "%s: KAT", evp_variants[v].name);
        TEST_CHECK(k != NULL && evp_decaps(e, k, ct, ctlen, ss2, &sl2)
                  && memcmp(ss2, exp, 32) == 0, "%s: KAT decaps",
              evp_variants[v].name);
        EVP_PKEY_free(k);
    }
}

void evp_suite_roundtrip(test_env *e)
{
    kat(e);
    for (size_t i = 0; i < 3; i++) {
        for (int rep = 0; rep < 3; rep++)
            roundtrip_variant(e, &evp_variants[i]);
        server_flow(e, &evp_variants[i]);
    }
}

/* ---- instances: the module loaded into several library contexts ------------
 * Errors are raised through a live core handle; unloading the first instance
 * must not leave a dangling one (ASan would see a use after free). */
static int instance_error_ok(test_env *e)
{
    uint8_t junk[5] = { 0 };
    EVP_PKEY *k = evp_import(e, "ML-KEM-512", EVP_PKEY_PUBLIC_KEY, junk,
                             sizeof(junk), NULL, 0, NULL, 0);
    int ok = EXPECT_REASON(k != NULL, R_KEY_LENGTH, "error in an instance");
    EVP_PKEY_free(k);
    return ok;
}

void evp_suite_instances(const char *moddir)
{
    test_env a, b, c;

    if (!TEST_CHECK(test_env_open(&a, moddir, NULL) && test_env_open(&b, moddir, NULL),
               "two instances"))
        return;
    instance_error_ok(&a);
    instance_error_ok(&b);
    test_env_close(&a); /* the oldest instance goes first */
    instance_error_ok(&b);
    EVP_PKEY *k = evp_keygen(&b, "ML-KEM-768", NULL, 0);
    TEST_CHECK(k != NULL, "keygen after the first instance left");
    EVP_PKEY_free(k);
    if (TEST_CHECK(test_env_open(&c, moddir, NULL), "third instance")) {
        test_env_close(&b);
        instance_error_ok(&c);
        test_env_close(&c);
    } else {
        test_env_close(&b);
    }
}

/* ---- main ---------------------------------------------------------------------- */

static int check_runtime(const char *expect)
{
    unsigned long v = OpenSSL_version_num();
    unsigned maj = (unsigned)((v >> 28) & 0xF), min = (unsigned)((v >> 20) & 0xFF);
    char have[16];

    printf("runtime: %s (expected %s)\n", OpenSSL_version(OPENSSL_VERSION),
           expect);
    snprintf(have, sizeof(have), "%u.%u", maj, min);
    if (strcmp(have, expect) == 0)
        return 1;
    if (strcmp(expect, "3.5") == 0) {
        const char *prefix = getenv("MLKEM_OPENSSL35_PREFIX");
        char lib[4096];
        struct stat st;
        snprintf(lib, sizeof(lib), "%s/lib", prefix != NULL ? prefix : "");
        if (prefix == NULL || *prefix == '\0' || stat(lib, &st) != 0) {
            printf("SKIP: OpenSSL 3.5 peer not built (scripts/openssl35.sh)\n");
            exit(77);
        }
    }
    return TEST_CHECK(0, "running on OpenSSL %s, expected %s "
                      "(LD_LIBRARY_PATH=%s)", have, expect,
                      getenv("LD_LIBRARY_PATH") ? getenv("LD_LIBRARY_PATH")
                                                : "");
}

int main(int argc, char **argv)
{
    test_env e;

    if (argc < 4) {
        fprintf(stderr, "usage: %s <3.0|3.5> <module dir> <suite>...\n"
                "suites: provider roundtrip bad threads rand randsrc acvp config "
                "instances cycles secure\n", argv[0]);
        return 2;
    }
    if (!check_runtime(argv[1]))
        return test_finish("test_evp");
    /* "instances" and "cycles" manage their own library contexts: with
     * them alone, no shared one is opened (so their first instance is the
     * module's oldest). */
    int need_env = 0;
    for (int i = 3; i < argc; i++)
        need_env |= strcmp(argv[i], "instances") != 0
                    && strcmp(argv[i], "cycles") != 0;
    memset(&e, 0, sizeof(e));
    if (need_env && !test_env_open(&e, argv[2], NULL))
        return test_finish("test_evp");
    for (int i = 3; i < argc; i++) {
        int before = test_failure_count();
        printf("== %s\n", argv[i]);
        fflush(stdout);
        if (strcmp(argv[i], "provider") == 0)
            evp_suite_provider(&e);
        else if (strcmp(argv[i], "roundtrip") == 0)
            evp_suite_roundtrip(&e);
        else if (strcmp(argv[i], "bad") == 0)
            evp_suite_bad(&e);
        else if (strcmp(argv[i], "threads") == 0)
            evp_suite_threads(&e);
        else if (strcmp(argv[i], "rand") == 0)
            evp_suite_rand(&e);
        else if (strcmp(argv[i], "randsrc") == 0)
            evp_suite_rand_source(argv[2], argv[1]);
        else if (strcmp(argv[i], "acvp") == 0)
            evp_suite_acvp(&e);
        else if (strcmp(argv[i], "config") == 0)
            evp_suite_config(argv[2]);
        else if (strcmp(argv[i], "instances") == 0)
            evp_suite_instances(argv[2]);
        else if (strcmp(argv[i], "cycles") == 0)
            evp_suite_cycles(argv[2]);
        else if (strcmp(argv[i], "secure") == 0)
            evp_suite_secure(&e);
        else {
            fprintf(stderr, "unknown suite %s\n", argv[i]);
            test_env_close(&e);
            return 2;
        }
        printf("   %s: %d failure(s)\n", argv[i], test_failure_count() - before);
    }
    test_env_close(&e);
    if (test_failure_count() == 0 && evp_skip_reason != NULL) {
        printf("SKIP: %s\n", evp_skip_reason);
        return 77;
    }
    return test_finish("test_evp");
}
