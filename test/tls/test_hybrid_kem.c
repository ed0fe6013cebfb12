/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_hybrid_kem.c: the hybrid keymgmt and KEM through EVP, in libssl's
 * call order, checked byte for byte against the draft-ietf-tls-ecdhe-mlkem
 * layouts built from independent parts: the kernel's FIPS 203 byte API for
 * ML-KEM and the default provider for X25519 / ECDH.
 *
 * For each of X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024 and
 * X448MLKEM1024 (OpenSSL 3.5's KEM-only hybrid: ML-KEM-1024 first, then
 * X448; the same checks, with X448's small-order table):
 *   1. client keygen (+ "group"), encoded-pub-key size; server paramgen ->
 *      empty key, set encoded-pub-key, encapsulate (size query first),
 *      client decapsulate: equal secrets, exact sizes, return values 1;
 *   2. server side against independent parts: encapsulate to a share made
 *      of a kernel ek and a default-provider classical key, then recompute
 *      the secret from the parts (ML-KEM decaps + ECDH) in the draft's
 *      order;
 *   3. client side against independent parts: build the server share from
 *      kernel encaps + an ephemeral default-provider key, decapsulate;
 *   4. bits / security-bits / max-size, dup, match, public export/import;
 *   5. rejections with the exact reason and return 0 (never -1): wrong
 *      share length, unreduced ek (FIPS 203 §7.2), invalid or non-
 *      uncompressed points, small-order X25519 / X448 (each table entry is
 *      also checked to make the default provider's X25519 / X448 fail), a
 *      non-empty key, wrong ciphertext length, invalid server point;
 *   6. where the default provider has the same hybrid (OpenSSL 3.5+, this
 *      binary run on the 3.5 libraries by tls_on35): a key pair of either
 *      provider and the other's encapsulation give the same secret, both
 *      ways.
 * Our provider's algorithms are fetched with "provider=mlkem" (on 3.5 the
 * default provider offers the same names).
 *
 * Usage: test_hybrid_kem <provider dir>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "kem/mlkem.h"
#include "provider/prov.h" /* MLKEM_R_* reason codes */
#include "test/common/test_util.h"
#include "test/tls/tls_common.h"

typedef struct {
    const char *name, *ec_alg, *ec_group;
    mlkem_variant variant;
    size_t ec_pub, ec_ss;
    int mlkem_first;
    int bits, secbits;
    size_t pub_len, ct_len, ss_len; /* the draft's sizes, written out */
} hybrid;

#define NHYBRIDS 4
#define MAX_SS 88 /* X448MLKEM1024: 32 + 56 */
static const hybrid hybrids[NHYBRIDS] = {
    {"X25519MLKEM768", "X25519", NULL, MLKEM_768, 32, 32, 1, 768, 192, 1216, 1120, 64},
    {"SecP256r1MLKEM768", "EC", "P-256", MLKEM_768, 65, 32, 0, 768, 192, 1249, 1153, 64},
    {"SecP384r1MLKEM1024", "EC", "P-384", MLKEM_1024, 97, 48, 0, 1024, 256, 1665, 1665, 80},
    {"X448MLKEM1024", "X448", NULL, MLKEM_1024, 56, 56, 1, 1024, 256, 1624, 1624, 88},
};

#define OURS "provider=mlkem"
#define THEIRS "provider=default"

static OSSL_LIB_CTX *lib;
/* 1 if the error queue holds our provider's `reason` (a dynamically
 * assigned library, >= ERR_LIB_USER); clears the queue. */
static int saw_reason(int reason)
{
    unsigned long e;
    int hit = 0;

    while ((e = ERR_get_error()) != 0)
        if (ERR_GET_LIB(e) >= ERR_LIB_USER && ERR_GET_REASON(e) == reason)
            hit = 1;
    return hit;
}

/* ---- libssl's calls ---------------------------------------------------- */

static EVP_PKEY *client_keygen_pq(const hybrid *h, const char *pq)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(lib, h->name, pq);
    EVP_PKEY *pkey = NULL;

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0
        || EVP_PKEY_CTX_set_group_name(ctx, "") <= 0 || EVP_PKEY_keygen(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

static EVP_PKEY *client_keygen(const hybrid *h)
{
    return client_keygen_pq(h, OURS);
}

static EVP_PKEY *server_paramgen_pq(const hybrid *h, const char *pq)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(lib, h->name, pq);
    EVP_PKEY *pkey = NULL;

    if (ctx == NULL || EVP_PKEY_paramgen_init(ctx) <= 0
        || EVP_PKEY_CTX_set_group_name(ctx, "") <= 0 || EVP_PKEY_paramgen(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

static EVP_PKEY *server_paramgen(const hybrid *h)
{
    return server_paramgen_pq(h, OURS);
}

/* Returns the provider's own return value (EVP passes it through). */
static int encapsulate_pq(EVP_PKEY *peer, const char *pq, uint8_t *ct,
                          size_t *ctlen, uint8_t *ss, size_t *sslen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(lib, peer, pq);
    int r = -100;

    if (ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) == 1)
        r = EVP_PKEY_encapsulate(ctx, ct, ctlen, ss, sslen);
    EVP_PKEY_CTX_free(ctx);
    return r;
}

static int encapsulate(EVP_PKEY *peer, uint8_t *ct, size_t *ctlen, uint8_t *ss,
                       size_t *sslen)
{
    return encapsulate_pq(peer, OURS, ct, ctlen, ss, sslen);
}

static int decapsulate_pq(EVP_PKEY *key, const char *pq, uint8_t *ss,
                          size_t *sslen, const uint8_t *ct, size_t ctlen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(lib, key, pq);
    int r = -100;

    if (ctx != NULL && EVP_PKEY_decapsulate_init(ctx, NULL) == 1)
        r = EVP_PKEY_decapsulate(ctx, ss, sslen, ct, ctlen);
    EVP_PKEY_CTX_free(ctx);
    return r;
}

static int decapsulate(EVP_PKEY *key, uint8_t *ss, size_t *sslen, const uint8_t *ct,
                       size_t ctlen)
{
    return decapsulate_pq(key, OURS, ss, sslen, ct, ctlen);
}

/* An empty server key holding `share`, or NULL (errors left queued). */
static EVP_PKEY *server_key_pq(const hybrid *h, const char *pq,
                               const uint8_t *share, size_t len)
{
    EVP_PKEY *k = server_paramgen_pq(h, pq);

    if (k != NULL && EVP_PKEY_set1_encoded_public_key(k, share, len) != 1) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    return k;
}

static EVP_PKEY *server_key(const hybrid *h, const uint8_t *share, size_t len)
{
    return server_key_pq(h, OURS, share, len);
}

/* ---- independent classical parts (default provider) --------------------- */

static EVP_PKEY *ec_keygen(const hybrid *h, uint8_t *pub)
{
    EVP_PKEY *k = h->ec_group != NULL
                      ? EVP_PKEY_Q_keygen(lib, "provider=default", h->ec_alg, h->ec_group)
                      : EVP_PKEY_Q_keygen(lib, "provider=default", h->ec_alg);
    size_t len = 0;

    if (k != NULL
        && (!EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, pub,
                                             h->ec_pub, &len)
            || len != h->ec_pub)) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    return k;
}

static EVP_PKEY *ec_pub_key(const hybrid *h, const uint8_t *pub)
{
    EVP_PKEY *k;

    if (h->ec_group == NULL)
        return EVP_PKEY_new_raw_public_key_ex(lib, h->ec_alg, "provider=default", pub,
                                              h->ec_pub);
    k = EVP_PKEY_Q_keygen(lib, "provider=default", h->ec_alg, h->ec_group);
    /* Reuse the group parameters of a throw-away key. */
    if (k != NULL) {
        EVP_PKEY *p = EVP_PKEY_new();

        if (p == NULL || !EVP_PKEY_copy_parameters(p, k)
            || !EVP_PKEY_set1_encoded_public_key(p, pub, h->ec_pub)) {
            EVP_PKEY_free(p);
            p = NULL;
        }
        EVP_PKEY_free(k);
        k = p;
    }
    return k;
}

static int ec_derive(EVP_PKEY *priv, EVP_PKEY *peer, uint8_t *ss, size_t want)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(lib, priv, "provider=default");
    size_t len = want;
    int ok = ctx != NULL && EVP_PKEY_derive_init(ctx) == 1
             && EVP_PKEY_derive_set_peer(ctx, peer) == 1
             && EVP_PKEY_derive(ctx, ss, &len) == 1 && len == want;

    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int rnd(void *arg, uint8_t *buf, size_t len)
{
    (void)arg;
    return RAND_bytes(buf, (int)len) == 1;
}

/* ---- 1. round trip in libssl's order ------------------------------------ */

static void test_roundtrip(const hybrid *h)
{
    EVP_PKEY *ck = NULL, *sk = NULL;
    uint8_t *pub = NULL, ct[2048], ss1[MAX_SS], ss2[MAX_SS];
    size_t publen, ctlen = 0, sslen = 0, sslen2 = 0;

    if (!TEST_CHECK((ck = client_keygen(h)) != NULL, "%s: client keygen", h->name))
        goto end;
    publen = EVP_PKEY_get1_encoded_public_key(ck, &pub);
    if (!TEST_CHECK(publen == h->pub_len, "%s: client share %zu bytes, want %zu", h->name, publen,
                    h->pub_len))
        goto end;
    if (!TEST_CHECK((sk = server_key(h, pub, publen)) != NULL, "%s: server set share", h->name))
        goto end;
    if (!TEST_CHECK(encapsulate(sk, NULL, &ctlen, NULL, &sslen) == 1 && ctlen == h->ct_len
                        && sslen == h->ss_len,
                    "%s: encaps size query: %zu/%zu, want %zu/%zu", h->name, ctlen, sslen,
                    h->ct_len,
                    h->ss_len))
        goto end;
    if (!TEST_CHECK(encapsulate(sk, ct, &ctlen, ss1, &sslen) == 1 && ctlen == h->ct_len
                        && sslen == h->ss_len,
                    "%s: encapsulate", h->name))
        goto end;
    if (!TEST_CHECK(decapsulate(ck, NULL, &sslen2, ct, ctlen) == 1 && sslen2 == h->ss_len,
                    "%s: decaps size query", h->name))
        goto end;
    if (!TEST_CHECK(decapsulate(ck, ss2, &sslen2, ct, ctlen) == 1 && sslen2 == h->ss_len,
                    "%s: decapsulate", h->name))
        goto end;
    if (!TEST_CHECK(test_bytes_eq("secret", ss2, ss1, h->ss_len), "%s: secrets differ", h->name))
        goto end;
    /* The client's classical key survives decapsulation (no regeneration):
     * its share encodes the same, and a second decaps gives the same. */
    {
        uint8_t *pub2 = NULL;
        size_t l2 = EVP_PKEY_get1_encoded_public_key(ck, &pub2);
        int same = l2 == publen && memcmp(pub2, pub, publen) == 0;

        OPENSSL_free(pub2);
        if (!TEST_CHECK(same, "%s: client share changed after decaps", h->name))
            goto end;
    }
    memset(ss2, 0, sizeof(ss2));
    if (!TEST_CHECK(decapsulate(ck, ss2, &sslen2, ct, ctlen) == 1
                        && memcmp(ss1, ss2, h->ss_len) == 0,
                    "%s: second decapsulate differs", h->name))
        goto end;
    printf("ok   %s round trip (share %zu, ct %zu, ss %zu)\n", h->name, publen, ctlen, sslen);
end:
    OPENSSL_free(pub);
    EVP_PKEY_free(ck);
    EVP_PKEY_free(sk);
}

/* ---- 2. server side against independent parts --------------------------- */

static void test_server_layout(const hybrid *h)
{
    const mlkem_params *p = mlkem_params_get(h->variant);
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], d[32], z[32];
    uint8_t ecpub[97], share[1665], ct[1665], ss[MAX_SS], want[MAX_SS];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss);
    EVP_PKEY *ec = NULL, *sk = NULL, *eph = NULL;
    size_t ml_ct, ec_ct, ml_ss, ec_ss;

    if (!TEST_CHECK(RAND_bytes(d, 32) == 1 && RAND_bytes(z, 32) == 1
                        && mlkem_keygen_internal(p, ek, dk, d, z) == MLKEM_OK,
                    "%s: kernel keygen", h->name))
        goto end;
    if (!TEST_CHECK((ec = ec_keygen(h, ecpub)) != NULL, "%s: default-provider keygen", h->name))
        goto end;
    /* The client share of the draft: ek || u, or Q || ek. */
    if (h->mlkem_first) {
        memcpy(share, ek, p->ek_bytes);
        memcpy(share + p->ek_bytes, ecpub, h->ec_pub);
    } else {
        memcpy(share, ecpub, h->ec_pub);
        memcpy(share + h->ec_pub, ek, p->ek_bytes);
    }
    if (!TEST_CHECK((sk = server_key(h, share, h->pub_len)) != NULL, "%s: set share", h->name))
        goto end;
    if (!TEST_CHECK(encapsulate(sk, ct, &ctlen, ss, &sslen) == 1 && ctlen == h->ct_len,
                    "%s: encapsulate", h->name))
        goto end;
    ml_ct = h->mlkem_first ? 0 : h->ec_pub;
    ec_ct = h->mlkem_first ? p->ct_bytes : 0;
    ml_ss = h->mlkem_first ? 0 : h->ec_ss;
    ec_ss = h->mlkem_first ? 32 : 0;
    if (!TEST_CHECK(mlkem_decaps_internal(p, want + ml_ss, ct + ml_ct, p->ct_bytes, dk, p->dk_bytes)
                        == MLKEM_OK,
                    "%s: kernel decaps", h->name))
        goto end;
    if (!TEST_CHECK((eph = ec_pub_key(h, ct + ec_ct)) != NULL, "%s: server point", h->name))
        goto end;
    if (!TEST_CHECK(ec_derive(ec, eph, want + ec_ss, h->ec_ss), "%s: ECDH", h->name))
        goto end;
    if (!TEST_CHECK(test_bytes_eq("server secret", ss, want, h->ss_len), "%s: server layout",
                    h->name))
        goto end;
    printf("ok   %s server share/secret layout matches the draft\n", h->name);
end:
    OPENSSL_cleanse(dk, sizeof(dk));
    EVP_PKEY_free(ec);
    EVP_PKEY_free(sk);
    EVP_PKEY_free(eph);
}

/* ---- 3. client side against independent parts --------------------------- */

static void test_client_layout(const hybrid *h)
{
    const mlkem_params *p = mlkem_params_get(h->variant);
    uint8_t *pub = NULL, ct[1665], ss[MAX_SS], want[MAX_SS];
    size_t publen, sslen = sizeof(ss), ml_pub, ec_pub, ml_ct, ec_ct, ml_ss, ec_ss;
    EVP_PKEY *ck = NULL, *eph = NULL, *cpub = NULL;

    if (!TEST_CHECK((ck = client_keygen(h)) != NULL, "%s: client keygen", h->name))
        goto end;
    publen = EVP_PKEY_get1_encoded_public_key(ck, &pub);
    if (!TEST_CHECK(publen == h->pub_len, "%s: share length", h->name))
        goto end;
    ml_pub = h->mlkem_first ? 0 : h->ec_pub;
    ec_pub = h->mlkem_first ? p->ek_bytes : 0;
    ml_ct = h->mlkem_first ? 0 : h->ec_pub;
    ec_ct = h->mlkem_first ? p->ct_bytes : 0;
    ml_ss = h->mlkem_first ? 0 : h->ec_ss;
    ec_ss = h->mlkem_first ? 32 : 0;
    if (!TEST_CHECK(mlkem_encaps(p, ct + ml_ct, want + ml_ss, pub + ml_pub, p->ek_bytes, rnd, NULL)
                        == MLKEM_OK,
                    "%s: kernel encaps to the client's ek", h->name))
        goto end;
    if (!TEST_CHECK((eph = ec_keygen(h, ct + ec_ct)) != NULL, "%s: ephemeral", h->name))
        goto end;
    if (!TEST_CHECK((cpub = ec_pub_key(h, pub + ec_pub)) != NULL, "%s: client point", h->name))
        goto end;
    if (!TEST_CHECK(ec_derive(eph, cpub, want + ec_ss, h->ec_ss), "%s: ECDH", h->name))
        goto end;
    if (!TEST_CHECK(decapsulate(ck, ss, &sslen, ct, h->ct_len) == 1 && sslen == h->ss_len,
                    "%s: decapsulate", h->name))
        goto end;
    if (!TEST_CHECK(test_bytes_eq("client secret", ss, want, h->ss_len), "%s: client layout",
                    h->name))
        goto end;
    printf("ok   %s client share/secret layout matches the draft\n", h->name);
end:
    OPENSSL_free(pub);
    EVP_PKEY_free(ck);
    EVP_PKEY_free(eph);
    EVP_PKEY_free(cpub);
}

/* ---- 4. parameters, dup, match, export/import --------------------------- */

static int export_cb(const OSSL_PARAM params[], void *arg)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    OSSL_PARAM *out = arg;
    const void *data;
    size_t len;

    if (p == NULL || !OSSL_PARAM_get_octet_string_ptr(p, &data, &len)
        || len > out->data_size)
        return 0;
    memcpy(out->data, data, len);
    out->return_size = len;
    return 1;
}

static void test_params(const hybrid *h)
{
    EVP_PKEY *ck = NULL, *other = NULL, *dup = NULL, *imp = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    uint8_t *pub = NULL, exported[1665], ct[1665], ss1[MAX_SS], ss2[MAX_SS];
    OSSL_PARAM out = OSSL_PARAM_octet_string("pub", exported, sizeof(exported));
    OSSL_PARAM in[2];
    size_t publen, ctlen = sizeof(ct), l1 = sizeof(ss1), l2 = sizeof(ss2);

    if (!TEST_CHECK((ck = client_keygen(h)) != NULL && (other = client_keygen(h)) != NULL,
                    "%s: keygen", h->name))
        goto end;
    if (!TEST_CHECK(EVP_PKEY_get_bits(ck) == h->bits && EVP_PKEY_get_security_bits(ck) == h->secbits
                        && EVP_PKEY_get_size(ck) == (int)h->ct_len,
                    "%s: bits %d / security-bits %d / size %d", h->name, EVP_PKEY_get_bits(ck),
                    EVP_PKEY_get_security_bits(ck), EVP_PKEY_get_size(ck)))
        goto end;
    if (!TEST_CHECK(EVP_PKEY_eq(ck, ck) == 1 && EVP_PKEY_eq(ck, other) == 0, "%s: match", h->name))
        goto end;
    if (!TEST_CHECK((dup = EVP_PKEY_dup(ck)) != NULL && EVP_PKEY_eq(ck, dup) == 1,
                    "%s: dup", h->name))
        goto end;
    /* The duplicate decapsulates like the original. */
    publen = EVP_PKEY_get1_encoded_public_key(ck, &pub);
    {
        EVP_PKEY *sk = server_key(h, pub, publen);
        int r = sk != NULL ? encapsulate(sk, ct, &ctlen, ss1, &l1) : 0;

        EVP_PKEY_free(sk);
        if (!TEST_CHECK(r == 1, "%s: encapsulate", h->name))
            goto end;
    }
    if (!TEST_CHECK(decapsulate(dup, ss2, &l2, ct, ctlen) == 1 && memcmp(ss1, ss2, l1) == 0,
                    "%s: dup decapsulates differently", h->name))
        goto end;
    /* Public export gives the client share; import makes a usable peer. */
    if (!TEST_CHECK(EVP_PKEY_export(ck, EVP_PKEY_PUBLIC_KEY, export_cb, &out) == 1
                        && out.return_size == publen && memcmp(exported, pub, publen) == 0,
                    "%s: public export", h->name))
        goto end;
    if (!TEST_CHECK(EVP_PKEY_export(ck, EVP_PKEY_KEYPAIR, export_cb, &out) == 0,
                    "%s: private export must fail (no format)", h->name))
        goto end;
    ERR_clear_error();
    in[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub, publen);
    in[1] = OSSL_PARAM_construct_end();
    if (!TEST_CHECK((ctx = EVP_PKEY_CTX_new_from_name(lib, h->name, OURS)) != NULL
                        && EVP_PKEY_fromdata_init(ctx) == 1
                        && EVP_PKEY_fromdata(ctx, &imp, EVP_PKEY_PUBLIC_KEY, in) == 1
                        && EVP_PKEY_eq(imp, ck) == 1,
                    "%s: public import", h->name))
        goto end;
    ctlen = sizeof(ct);
    l1 = sizeof(ss1);
    l2 = sizeof(ss2);
    if (!TEST_CHECK(encapsulate(imp, ct, &ctlen, ss1, &l1) == 1
                        && decapsulate(ck, ss2, &l2, ct, ctlen) == 1 && memcmp(ss1, ss2, l1) == 0,
                    "%s: imported key round trip", h->name))
        goto end;
    printf("ok   %s params, dup, match, export/import\n", h->name);
end:
    OPENSSL_free(pub);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(ck);
    EVP_PKEY_free(other);
    EVP_PKEY_free(dup);
    EVP_PKEY_free(imp);
}

/* ---- 5. rejections ------------------------------------------------------ */

static const uint8_t small_order[7][32] = {
    {0},
    {1},
    {0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1,
     0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62,
     0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
    {0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c,
     0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22,
     0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
    {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
};

/* X448's u of order dividing 4: 0, 1, p - 1, p, p + 1 (p = 2^448 - 2^224 -
 * 1), 56 bytes little-endian, written out here independently of the
 * provider's table. */
static uint8_t x448_small[5][56];

static void make_x448_small(void)
{
    memset(x448_small, 0, sizeof(x448_small));
    x448_small[1][0] = 1;
    memset(x448_small[2], 0xff, 56); /* p - 1 = ...fe ff..ff fe */
    x448_small[2][0] = 0xfe;
    x448_small[2][28] = 0xfe;
    memset(x448_small[3], 0xff, 56); /* p */
    x448_small[3][28] = 0xfe;
    memset(x448_small[4] + 28, 0xff, 28); /* p + 1 = 2^448 - 2^224 */
}

/* Setting `share` on an empty key must fail with `reason`. */
static int rejects(const hybrid *h, const uint8_t *share, size_t len, int reason,
                   const char *what)
{
    EVP_PKEY *k = server_paramgen(h);
    int r;

    if (!TEST_CHECK(k != NULL, "%s: paramgen", h->name))
        return 0;
    ERR_clear_error();
    r = EVP_PKEY_set1_encoded_public_key(k, share, len);
    EVP_PKEY_free(k);
    return TEST_CHECK(r != 1 && saw_reason(reason),
                      "%s: %s accepted or wrong reason (want %d)", h->name,
                      what, reason);
}

static void test_rejections(const hybrid *h)
{
    const mlkem_params *p = mlkem_params_get(h->variant);
    EVP_PKEY *ck = NULL, *sk = NULL;
    uint8_t *pub = NULL, bad[1666], ct[1666], ss[MAX_SS];
    size_t publen, ctlen = sizeof(ct), sslen = sizeof(ss);
    size_t ml_pub = h->mlkem_first ? 0 : h->ec_pub;
    size_t ec_pub = h->mlkem_first ? p->ek_bytes : 0;
    size_t i;
    int r;

    if (!TEST_CHECK((ck = client_keygen(h)) != NULL, "%s: keygen", h->name))
        goto end;
    publen = EVP_PKEY_get1_encoded_public_key(ck, &pub);
    if (!TEST_CHECK(publen == h->pub_len, "%s: share length", h->name))
        goto end;

    /* Length: one byte short, one byte long, empty. */
    if (!rejects(h, pub, publen - 1, MLKEM_R_BAD_KEY_LENGTH, "short share"))
        goto end;
    memcpy(bad, pub, publen);
    bad[publen] = 0;
    if (!rejects(h, bad, publen + 1, MLKEM_R_BAD_KEY_LENGTH, "long share"))
        goto end;
    /* FIPS 203 §7.2: first coefficient of ek set to 4095 >= q. */
    memcpy(bad, pub, publen);
    bad[ml_pub] = 0xff;
    bad[ml_pub + 1] |= 0x0f;
    if (!rejects(h, bad, publen, MLKEM_R_EK_NOT_REDUCED, "unreduced ek"))
        goto end;
    if (h->ec_group == NULL && h->ec_pub == 56) {
        /* Every small-order X448 u. */
        for (i = 0; i < 5; i++) {
            memcpy(bad, pub, publen);
            memcpy(bad + ec_pub, x448_small[i], 56);
            if (!rejects(h, bad, publen, MLKEM_R_ZERO_SHARED_SECRET,
                         "small-order X448 u"))
                goto end;
        }
    } else if (h->ec_group == NULL) {
        /* Every small-order u, with bit 255 clear and set. */
        for (i = 0; i < 7; i++) {
            int top;

            for (top = 0; top < 2; top++) {
                memcpy(bad, pub, publen);
                memcpy(bad + ec_pub, small_order[i], 32);
                bad[ec_pub + 31] |= (uint8_t)(top << 7);
                if (!rejects(h, bad, publen, MLKEM_R_ZERO_SHARED_SECRET,
                             "small-order X25519 u"))
                    goto end;
            }
        }
    } else {
        /* Off the curve: last byte of y changed. */
        memcpy(bad, pub, publen);
        bad[ec_pub + h->ec_pub - 1] ^= 1;
        if (!rejects(h, bad, publen, MLKEM_R_BAD_POINT, "point off the curve"))
            goto end;
        /* SEC1 "hybrid" form 0x06/0x07 with valid coordinates. */
        memcpy(bad, pub, publen);
        bad[ec_pub] = (uint8_t)(0x06 | (pub[ec_pub + h->ec_pub - 1] & 1));
        if (!rejects(h, bad, publen, MLKEM_R_BAD_POINT, "hybrid point form"))
            goto end;
        /* x = p (not reduced): all-ones is >= p for both curves. */
        memcpy(bad, pub, publen);
        memset(bad + ec_pub + 1, 0xff, (h->ec_pub - 1) / 2);
        if (!rejects(h, bad, publen, MLKEM_R_BAD_POINT, "x out of range"))
            goto end;
    }
    /* A key that holds material is immutable. */
    if (!TEST_CHECK((sk = server_key(h, pub, publen)) != NULL, "%s: set share", h->name))
        goto end;
    ERR_clear_error();
    if (!TEST_CHECK(EVP_PKEY_set1_encoded_public_key(sk, pub, publen) != 1
                        && saw_reason(MLKEM_R_KEY_NOT_EMPTY),
                    "%s: second set accepted", h->name))
        goto end;
    /* Decapsulation: wrong length, invalid server point; return 0 each. */
    if (!TEST_CHECK(encapsulate(sk, ct, &ctlen, ss, &sslen) == 1, "%s: encapsulate", h->name))
        goto end;
    ERR_clear_error();
    r = decapsulate(ck, ss, &sslen, ct, ctlen - 1);
    if (!TEST_CHECK(r == 0 && saw_reason(MLKEM_R_BAD_CIPHERTEXT_LENGTH),
                    "%s: short ciphertext: returned %d", h->name, r))
        goto end;
    r = decapsulate(ck, ss, &sslen, ct, ctlen + 1);
    if (!TEST_CHECK(r == 0 && saw_reason(MLKEM_R_BAD_CIPHERTEXT_LENGTH),
                    "%s: long ciphertext: returned %d", h->name, r))
        goto end;
    {
        size_t ec_ct = h->mlkem_first ? p->ct_bytes : 0;

        if (h->ec_group == NULL) {
            memset(ct + ec_ct, 0, h->ec_pub);
            r = decapsulate(ck, ss, &sslen, ct, ctlen);
            if (!TEST_CHECK(r == 0 && saw_reason(MLKEM_R_ZERO_SHARED_SECRET),
                            "%s: zero server u: returned %d", h->name, r))
                goto end;
        } else {
            ct[ec_ct + h->ec_pub - 1] ^= 1;
            r = decapsulate(ck, ss, &sslen, ct, ctlen);
            if (!TEST_CHECK(r == 0 && saw_reason(MLKEM_R_BAD_POINT),
                            "%s: bad server point: returned %d", h->name, r))
                goto end;
        }
        for (i = 0; i < h->ss_len; i++)
            if (!TEST_CHECK(ss[i] == 0, "%s: secret not wiped after failure", h->name))
                goto end;
    }
    /* Encapsulate on an empty key: 0 (no -1). */
    {
        EVP_PKEY *e = server_paramgen(h);
        EVP_PKEY_CTX *c = e != NULL ? EVP_PKEY_CTX_new_from_pkey(lib, e, OURS) : NULL;

        r = c != NULL ? EVP_PKEY_encapsulate_init(c, NULL) : -100;
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(e);
        ERR_clear_error();
        if (!TEST_CHECK(r == 0, "%s: encapsulate_init on an empty key returned %d", h->name, r))
            goto end;
    }
    printf("ok   %s rejections\n", h->name);
end:
    OPENSSL_free(pub);
    EVP_PKEY_free(ck);
    EVP_PKEY_free(sk);
}

/* Every entry of a small-order table makes X25519 / X448 fail in the
 * default provider (OpenSSL rejects the all-zero result): the table is
 * right. */
static void test_small_order_table(const char *alg, const uint8_t *table,
                                   size_t n, size_t len)
{
    EVP_PKEY *me = EVP_PKEY_Q_keygen(lib, "provider=default", alg);
    size_t i;

    if (!TEST_CHECK(me != NULL, "%s keygen", alg))
        goto end;
    for (i = 0; i < n; i++) {
        EVP_PKEY *peer = EVP_PKEY_new_raw_public_key_ex(lib, alg, "provider=default",
                                                        table + i * len, len);
        uint8_t ss[56];
        int ok;

        if (!TEST_CHECK(peer != NULL, "%s small-order entry %zu: import", alg, i))
            goto end;
        ok = ec_derive(me, peer, ss, len);
        EVP_PKEY_free(peer);
        ERR_clear_error();
        if (!TEST_CHECK(!ok, "%s small-order entry %zu gives a non-zero secret", alg, i))
            goto end;
    }
    printf("ok   %s small-order table (%zu entries)\n", alg, n);
end:
    EVP_PKEY_free(me);
}

/* ---- 6. against the default provider's hybrid of the same name ---------- */

/* keygen by `kp`, encapsulation by `ep`, decapsulation by the key's own. */
static void cross(const hybrid *h, const char *kp, const char *ep)
{
    EVP_PKEY *ck = NULL, *sk = NULL;
    uint8_t *pub = NULL, ct[1665], ss1[MAX_SS], ss2[MAX_SS];
    size_t publen, ctlen = sizeof(ct), l1 = sizeof(ss1), l2 = sizeof(ss2);

    if (!TEST_CHECK((ck = client_keygen_pq(h, kp)) != NULL, "%s: keygen by %s", h->name, kp))
        goto end;
    publen = EVP_PKEY_get1_encoded_public_key(ck, &pub);
    if (!TEST_CHECK(publen == h->pub_len, "%s: %s share length %zu", h->name, kp, publen))
        goto end;
    if (!TEST_CHECK((sk = server_key_pq(h, ep, pub, publen)) != NULL, "%s: %s takes %s's share",
                    h->name, ep, kp))
        goto end;
    if (!TEST_CHECK(encapsulate_pq(sk, ep, ct, &ctlen, ss1, &l1) == 1 && ctlen == h->ct_len
                        && l1 == h->ss_len,
                    "%s: encapsulate by %s", h->name, ep))
        goto end;
    if (!TEST_CHECK(decapsulate_pq(ck, kp, ss2, &l2, ct, ctlen) == 1 && l2 == h->ss_len,
                    "%s: decapsulate by %s", h->name, kp))
        goto end;
    if (!TEST_CHECK(test_bytes_eq("secret", ss2, ss1, h->ss_len),
                    "%s: %s key, %s encaps: secrets differ",
                    h->name, kp, ep))
        goto end;
    printf("ok   %s: %s key pair, %s encapsulation\n", h->name, kp, ep);
end:
    OPENSSL_free(pub);
    EVP_PKEY_free(ck);
    EVP_PKEY_free(sk);
}

static void test_interop_default(const hybrid *h)
{
    EVP_KEM *kem = EVP_KEM_fetch(lib, h->name, THEIRS);

    ERR_clear_error();
    if (kem == NULL) {
        printf("--   %s: the default provider has no such KEM (OpenSSL %s)\n", h->name,
               OpenSSL_version(OPENSSL_VERSION_STRING));
        return;
    }
    EVP_KEM_free(kem);
    cross(h, OURS, THEIRS);
    cross(h, THEIRS, OURS);
}

int main(int argc, char **argv)
{
    const char *dir = tls_provider_dir(argc, argv);
    tls_env env;
    int i;

    printf("runtime %s\n", OpenSSL_version(OPENSSL_VERSION));
    if (!TEST_CHECK(tls_env_init(&env, dir) == 0, "tls_env_init"))
        return test_finish("hybrid_kem");
    lib = env.base.libctx;
    make_x448_small();
    test_small_order_table("X25519", &small_order[0][0], 7, 32);
    test_small_order_table("X448", &x448_small[0][0], 5, 56);
    for (i = 0; i < NHYBRIDS; i++) {
        test_roundtrip(&hybrids[i]);
        test_server_layout(&hybrids[i]);
        test_client_layout(&hybrids[i]);
        test_params(&hybrids[i]);
        test_rejections(&hybrids[i]);
        test_interop_default(&hybrids[i]);
    }
    tls_env_free(&env);
    return test_finish("hybrid_kem");
}
