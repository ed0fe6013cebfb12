/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capabilities.c: the TLS-GROUP capability, which makes libssl (3.0 and
 * later) offer our KEMs as TLS 1.3 key-exchange groups.
 *
 * References
 *   [HYB]   draft-ietf-tls-ecdhe-mlkem (X25519MLKEM768 0x11EC,
 *           SecP256r1MLKEM768 0x11EB, SecP384r1MLKEM1024 0x11ED).
 *   [PURE]  draft-connolly-tls-mlkem-key-agreement (MLKEM512 0x0200,
 *           MLKEM768 0x0201, MLKEM1024 0x0202); IANA TLS Supported Groups.
 *   provider-base(7), "TLS-GROUP Capability"; OpenSSL 3.0 ssl/t1_lib.c
 *   add_provider_groups(), which reads each parameter with a fixed type.
 *
 * Every entry must carry all ten parameters with exactly the types 3.0
 * reads (UTF8 strings for the names and the algorithm, unsigned int for id,
 * security bits and is-kem, int for the protocol bounds): one missing or
 * mistyped parameter fails add_provider_groups(), hence SSL_CTX_new(), for
 * every application using the library context. test/tls/test_capabilities.c
 * checks the table through OSSL_PROVIDER_get_capabilities().
 *
 * X448MLKEM1024 (hybrid_*.c) is not here: like OpenSSL 3.5 and 4.0, which
 * offer it as a KEM only, we announce no TLS group for it (IANA assigned it
 * no codepoint).
 *
 * Values are OpenSSL 3.5's: "tls-group-name-internal" is "" (libssl passes
 * it to the keymgmt as "group", which ours ignore), "tls-group-alg" is our
 * keymgmt name (the pure groups use "ML-KEM-512/768/1024", as 3.5 does),
 * TLS 1.3 only (min 0x0304, max 0 = no maximum), never DTLS (-1 / -1), and
 * the security bits of the ML-KEM level (hybrids: that of their ML-KEM).
 *
 * OpenSSL 3.5 and later: the default (and FIPS) provider already offers
 * these six groups with the same names, codepoints and wire formats. Two
 * providers announcing the same group would put it twice in libssl's group
 * table, and which entry wins a lookup by name or by codepoint is then an
 * accident of provider load order. So, when the running libcrypto is 3.5 or
 * later (MLKEM_PROV_CTX.ossl_version), we announce no group and libssl keeps
 * its built-in ones, exactly as without this provider. Our keymgmt and KEM
 * stay registered under the same names: libssl fetches the algorithm named
 * by the group, so with both providers loaded a TLS key exchange may run on
 * either implementation (byte-identical on the wire);
 * `-propquery '?provider=mlkem'` (or SSL_CTX_new_ex's propq) prefers ours.
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "provider/prov.h"

#define MLKEM_TLS1_3_VERSION 0x0304

typedef struct {
    const char *name;      /* TLS group name (IANA) */
    const char *alg;       /* keymgmt / KEM name fetched by libssl */
    unsigned int id;       /* IANA codepoint */
    unsigned int secbits;  /* security bits */
} mlkem_tls_group;

static const mlkem_tls_group groups[] = {
    /* Hybrids first: X25519MLKEM768 is what browsers and 3.5 offer. */
    {"X25519MLKEM768", "X25519MLKEM768", 0x11EC, 192},
    {"SecP256r1MLKEM768", "SecP256r1MLKEM768", 0x11EB, 192},
    {"SecP384r1MLKEM1024", "SecP384r1MLKEM1024", 0x11ED, 256},
    {"MLKEM512", "ML-KEM-512", 0x0200, 128},
    {"MLKEM768", "ML-KEM-768", 0x0201, 192},
    {"MLKEM1024", "ML-KEM-1024", 0x0202, 256},
};

static const unsigned int group_is_kem = 1;
static const int group_min_tls = MLKEM_TLS1_3_VERSION;
static const int group_max_tls = 0;  /* no maximum */
static const int group_min_dtls = -1; /* not for DTLS */
static const int group_max_dtls = -1;
static const char group_name_internal[] = "";

/* libssl copies every value during the callback (OpenSSL 3.0
 * add_provider_groups() strdup's the strings), so the parameters may point
 * into this file's constants. */
static int report_group(const mlkem_tls_group *g, OSSL_CALLBACK *cb, void *arg)
{
    OSSL_PARAM p[11];

    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME,
                                            (char *)g->name, 0);
    p[1] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL,
                                            (char *)group_name_internal, 0);
    p[2] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_ID,
                                     (unsigned int *)&g->id);
    p[3] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG,
                                            (char *)g->alg, 0);
    p[4] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS,
                                     (unsigned int *)&g->secbits);
    p[5] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM,
                                     (unsigned int *)&group_is_kem);
    p[6] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS,
                                    (int *)&group_min_tls);
    p[7] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS,
                                    (int *)&group_max_tls);
    p[8] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS,
                                    (int *)&group_min_dtls);
    p[9] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS,
                                    (int *)&group_max_dtls);
    p[10] = OSSL_PARAM_construct_end();
    return cb(p, arg);
}

int mlkem_prov_get_capabilities(void *provctx, const char *capability,
                                OSSL_CALLBACK *cb, void *arg)
{
    const MLKEM_PROV_CTX *ctx = provctx;
    size_t i;

    if (capability == NULL || strcmp(capability, "TLS-GROUP") != 0)
        return 0; /* not ours (as the default provider answers) */
    /* 3.5+: the built-in groups serve these names (see the top comment). */
    if (ctx != NULL && ctx->ossl_version >= MLKEM_OSSL_VERSION(3, 5, 0))
        return 1;
    for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
        if (!report_group(&groups[i], cb, arg))
            return 0;
    return 1;
}
