/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hybrid_ec.c: the table of hybrid groups and their classical half, thin
 * EVP glue over the default provider (fetched in the provider's child
 * library context): key generation, validation of an untrusted share, and
 * ECDH / X25519 / X448. The one piece of curve arithmetic of our own is the
 * X25519 public key (curve25519/x25519.c): an X25519 key pair is our
 * random scalar and the comb's public key, handed to the default provider
 * whole by fromdata, so that everything after key generation (ECDH, the key's
 * lifetime and wiping) is the default provider's as for the other groups.
 *
 * References
 *   [HYB]     draft-ietf-tls-ecdhe-mlkem, §4 (the groups and their sizes).
 *   [RFC7748] X25519 / X448: §5 (decoding u; X25519 masks bit 255), §6.1 /
 *             §6.2 (all-zero check).
 *   [OSSL35]  OpenSSL 3.5 mlx_kmgmt.c: X448MLKEM1024 = ML-KEM-1024 + X448,
 *             ML-KEM part first, 56-byte X448 share and secret.
 *   [SP56A]   NIST SP 800-56A Rev. 3, §5.6.2.3.4 (ECC partial public key
 *             validation; enough for P-256 / P-384, whose cofactor is 1).
 *   [SEC1]    SEC 1 v2, §2.3.3 (uncompressed point encoding, 0x04 || X || Y).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "provider/hybrid.h"
#include "provider/prov.h"
#include "curve25519/x25519.h"

/* ---- The hybrids ([HYB] §4, [OSSL35]; sizes from FIPS 203 Table 3, SEC1,
 * RFC 7748) ---- */

const mlkem_hybrid_info mlkem_hybrid_x25519mlkem768 = {
    "X25519MLKEM768", "X25519", NULL, MLKEM_768, 32, 32, 1
};
const mlkem_hybrid_info mlkem_hybrid_secp256r1mlkem768 = {
    "SecP256r1MLKEM768", "EC", "P-256", MLKEM_768, 65, 32, 0
};
const mlkem_hybrid_info mlkem_hybrid_secp384r1mlkem1024 = {
    "SecP384r1MLKEM1024", "EC", "P-384", MLKEM_1024, 97, 48, 0
};
const mlkem_hybrid_info mlkem_hybrid_x448mlkem1024 = {
    "X448MLKEM1024", "X448", NULL, MLKEM_1024, 56, 56, 1
};

size_t mlkem_hybrid_pub_bytes(const mlkem_hybrid_info *info)
{
    return mlkem_params_get(info->variant)->ek_bytes + info->ec_pub_bytes;
}

size_t mlkem_hybrid_ct_bytes(const mlkem_hybrid_info *info)
{
    return mlkem_params_get(info->variant)->ct_bytes + info->ec_pub_bytes;
}

size_t mlkem_hybrid_ss_bytes(const mlkem_hybrid_info *info)
{
    return MLKEM_SS_BYTES + info->ec_ss_bytes;
}

/* ---- Classical half: thin EVP glue over the default provider ------------ */

/*
 * u-coordinates of the X25519 points whose order divides 8, as 32-byte
 * little-endian strings with bit 255 clear: 0, 1, the two points of order 8,
 * p - 1, and the non-canonical p and p + 1. A clamped scalar is a multiple of
 * 8, so exactly these peers (with either value of the masked bit 255,
 * [RFC7748] §5) give the all-zero secret that [RFC7748] §6.1 says to reject.
 * test/tls/test_hybrid_kem.c checks each against the default provider.
 */
static const uint8_t x25519_small_order[7][32] = {
    {0},
    {1},
    {0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3,
     0xfa, 0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32,
     0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
    {0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1,
     0x55, 0x9c, 0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c,
     0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
    {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
};

/*
 * u-coordinates of the X448 points whose order divides 4 (the cofactor),
 * as 56-byte little-endian strings: 0, 1, p - 1, and the non-canonical
 * p and p + 1 (p = 2^448 - 2^224 - 1; X448 uses all 448 bits, [RFC7748]
 * §5). With a scalar that is a multiple of 4, exactly these give the
 * all-zero secret of [RFC7748] §6.2. test/tls/test_hybrid_kem.c checks each
 * against the default provider.
 */
static const uint8_t x448_small_order[5][56] = {
    {0},
    {1},
    /* p - 1 */
    {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    /* p */
    {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    /* p + 1 */
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
};

/* 1 if the X25519 / X448 public value u (public data: the peer's share)
 * has small order (X25519: ignoring bit 255, [RFC7748] §5). */
static int ecx_is_small_order(const mlkem_hybrid_info *info, const uint8_t *u)
{
    uint8_t v[56];
    size_t i;

    if (info->ec_pub_bytes == 56) {
        for (i = 0; i < sizeof(x448_small_order) / sizeof(x448_small_order[0]);
             i++)
            if (memcmp(u, x448_small_order[i], 56) == 0)
                return 1;
        return 0;
    }
    memcpy(v, u, 32);
    v[31] &= 0x7f;
    for (i = 0; i < sizeof(x25519_small_order) / sizeof(x25519_small_order[0]); i++)
        if (memcmp(v, x25519_small_order[i], 32) == 0)
            return 1;
    return 0;
}

/* A key from its parameters (selection: EVP_PKEY_PUBLIC_KEY or
 * EVP_PKEY_KEYPAIR): the context from the template's key management when
 * there is one (see ec_keygen), else by name. */
static EVP_PKEY *ec_fromdata(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                             int selection, OSSL_PARAM params[])
{
    OSSL_LIB_CTX *libctx = k->provctx->libctx;
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *pkey = NULL;

    ctx = tmpl != NULL ? EVP_PKEY_CTX_new_from_pkey(libctx, tmpl, k->propq)
                       : EVP_PKEY_CTX_new_from_name(libctx, k->info->ec_alg, k->propq);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0
        || EVP_PKEY_fromdata(ctx, &pkey, selection, params) <= 0) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* A fresh key pair: with a template key of the group (the peer's share on
 * the server, as libssl's ssl_generate_pkey does), the context comes from
 * its key management (no name lookup, no fetch: a measurable share of a
 * handshake on 3.0); without one, by name. EC key generation takes the
 * group from the template; X25519 and X448 have no domain parameters. */
static EVP_PKEY *ec_keygen(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl)
{
    const mlkem_hybrid_info *info = k->info;
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *pkey = NULL;

    if (tmpl == NULL) {
        if (info->ec_group == NULL)
            return EVP_PKEY_Q_keygen(k->provctx->libctx, k->propq, info->ec_alg);
        return EVP_PKEY_Q_keygen(k->provctx->libctx, k->propq, info->ec_alg,
                                 info->ec_group);
    }
    if ((ctx = EVP_PKEY_CTX_new_from_pkey(k->provctx->libctx, tmpl, k->propq)) == NULL)
        return NULL;
    if (EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_keygen(ctx, &pkey) <= 0) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

#ifdef MLKEM_X25519_NATIVE
/* X25519 [RFC7748 §6.1]: a 32-byte private key from the provider's RBG
 * (rand.c: the application's DRBG, as the default provider draws it), its
 * public key from curve25519/x25519.c, both given to the
 * default provider's key management; OpenSSL's ecx_key_fromdata (3.0 to
 * 4.0) takes a public key that comes with the private one as it is. 0 on
 * error (raised), 1 with *out and pub set. */
static int x25519_generate(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                           EVP_PKEY **out, uint8_t *pub)
{
    uint8_t sk[MLKEM_X25519_BYTES];
    OSSL_PARAM params[3];
    int ret = 0;

    if (!mlkem_prov_rand(k->provctx, sk, sizeof(sk))) {
        MLKEM_RAISE(k->provctx, MLKEM_R_RANDOM_FAILED);
        return 0;
    }
    mlkem_x25519_public(pub, sk);
    params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, sk,
                                                  sizeof(sk));
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                  MLKEM_X25519_BYTES);
    params[2] = OSSL_PARAM_construct_end();
    ERR_set_mark();
    *out = ec_fromdata(k, tmpl, EVP_PKEY_KEYPAIR, params);
    ERR_pop_to_mark();
    if (*out == NULL) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_CLASSICAL_FAILED, "X25519 key generation");
        goto end;
    }
    ret = 1;
end:
    OPENSSL_cleanse(sk, sizeof(sk));
    return ret;
}
#endif

int mlkem_hybrid_ec_generate(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                             EVP_PKEY **out, uint8_t *pub)
{
    const mlkem_hybrid_info *info = k->info;
    EVP_PKEY *pkey;
    size_t len = 0;

#ifdef MLKEM_X25519_NATIVE
    if (info == &mlkem_hybrid_x25519mlkem768)
        return x25519_generate(k, tmpl, out, pub);
#endif
    /* The default encoding is the SEC1 uncompressed point for EC keys. */
    if ((pkey = ec_keygen(k, tmpl)) == NULL
        || !EVP_PKEY_get_octet_string_param(pkey,
                                            OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
                                            pub, info->ec_pub_bytes, &len)
        || len != info->ec_pub_bytes) {
        EVP_PKEY_free(pkey);
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_CLASSICAL_FAILED, "%s key generation",
                         info->ec_group != NULL ? info->ec_group : info->ec_alg);
        return 0;
    }
    *out = pkey;
    return 1;
}

/* EC public key from an uncompressed point: fromdata decodes the point and
 * checks that it is on the curve; the quick check adds [SP56A] §5.6.2.3.4
 * (not the point at infinity, coordinates in range). */
static EVP_PKEY *ec_import_point(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                                 const uint8_t *pub, size_t len)
{
    EVP_PKEY_CTX *chk = NULL;
    EVP_PKEY *pkey;
    OSSL_PARAM params[3];

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                 (char *)k->info->ec_group, 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                  (void *)pub, len);
    params[2] = OSSL_PARAM_construct_end();
    if ((pkey = ec_fromdata(k, tmpl, EVP_PKEY_PUBLIC_KEY, params)) == NULL
        || (chk = EVP_PKEY_CTX_new_from_pkey(k->provctx->libctx, pkey, k->propq)) == NULL
        || EVP_PKEY_public_check_quick(chk) <= 0) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(chk);
    return pkey;
}

int mlkem_hybrid_ec_import_pub(const MLKEM_HYBRID_KEY *k, EVP_PKEY *tmpl,
                               const uint8_t *pub, size_t len, EVP_PKEY **out)
{
    const mlkem_hybrid_info *info = k->info;
    EVP_PKEY *pkey;

    if (len != info->ec_pub_bytes) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_POINT, "%s share of %zu bytes",
                         info->name, len);
        return 0;
    }
    /* [RFC7748] §6.1 / §6.2: a small-order u would make the X25519 / X448
     * secret all zero whatever our scalar; refuse the share itself, so a
     * TLS server answers illegal_parameter rather than failing later in
     * encaps. */
    if (info->ec_group == NULL && ecx_is_small_order(info, pub)) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_ZERO_SHARED_SECRET,
                         "small-order %s share", info->ec_alg);
        return 0;
    }
    /* The default provider's own errors are replaced by ours. */
    ERR_set_mark();
    if (info->ec_group == NULL) {
        /* As EVP_PKEY_new_raw_public_key_ex does: "pub" = u. */
        OSSL_PARAM params[2];

        params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                      (void *)pub, len);
        params[1] = OSSL_PARAM_construct_end();
        pkey = ec_fromdata(k, tmpl, EVP_PKEY_PUBLIC_KEY, params);
    } else if (pub[0] != 0x04) {
        /* Only the uncompressed form ([SEC1] 2.3.3), which also excludes the
         * compressed and "hybrid" (0x06 / 0x07) encodings. */
        pkey = NULL;
    } else {
        pkey = ec_import_point(k, tmpl, pub, len);
    }
    ERR_pop_to_mark();
    if (pkey == NULL) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_POINT, "%s",
                         info->ec_group != NULL ? info->ec_group : info->ec_alg);
        return 0;
    }
    *out = pkey;
    return 1;
}

int mlkem_hybrid_ec_derive(const MLKEM_HYBRID_KEY *k, EVP_PKEY *priv,
                           EVP_PKEY *peer, uint8_t *ss)
{
    const mlkem_hybrid_info *info = k->info;
    EVP_PKEY_CTX *ctx = NULL;
    size_t len = info->ec_ss_bytes, i;
    uint8_t acc = 0;
    int ok = 0;

    ERR_set_mark();
    /* The peer was validated when imported: no second public key check. */
    if ((ctx = EVP_PKEY_CTX_new_from_pkey(k->provctx->libctx, priv, k->propq)) == NULL
        || EVP_PKEY_derive_init(ctx) <= 0
        || EVP_PKEY_derive_set_peer_ex(ctx, peer, 0) <= 0
        || EVP_PKEY_derive(ctx, ss, &len) <= 0
        || len != info->ec_ss_bytes) {
        ERR_pop_to_mark();
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_CLASSICAL_FAILED, "%s derive",
                         info->ec_group != NULL ? info->ec_group : info->ec_alg);
        goto end;
    }
    ERR_pop_to_mark();
    if (info->ec_group == NULL) {
        /* [RFC7748] §6.1 / §6.2 all-zero check, constant time over the secret
         * (only the one-bit outcome, which aborts the handshake, is
         * revealed). The default provider checks too; this is defence in
         * depth against a provider that does not. */
        for (i = 0; i < len; i++)
            acc |= ss[i];
        if (acc == 0) {
            MLKEM_RAISE(k->provctx, MLKEM_R_ZERO_SHARED_SECRET);
            goto end;
        }
    }
    ok = 1;
end:
    if (!ok)
        OPENSSL_cleanse(ss, info->ec_ss_bytes);
    EVP_PKEY_CTX_free(ctx);
    return ok;
}
