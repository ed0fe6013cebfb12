/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_fromdata.c: libFuzzer target for EVP_PKEY_fromdata with arbitrary
 * "pub", "priv" and "seed" octet strings of arbitrary lengths, for all
 * three parameter sets.
 *
 * Input: byte 0: parameter set (% 3); byte 1: bit 0 pub present, bit 1 priv
 * present, bit 2 seed present, bit 3 selection public-only (else key
 * pair); then for each present parameter, in the order pub, priv, seed, a
 * big-endian 16-bit length and that many bytes (fewer when the input ends).
 *
 * Oracles: no crash, leak or sanitizer report; an accepted key is served
 * by mlkem, passes fuzz_check_key, and when "pub" was given it exports
 * exactly that ek; a rejected import leaves an error.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "test/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[3] = { OSSL_PKEY_PARAM_PUB_KEY,
                                          OSSL_PKEY_PARAM_PRIV_KEY, "seed" };
    test_env *e = fuzz_env();
    fuzz_in in = { data, size };
    const hard_alg *a = &hard_algs[fuzz_byte(&in) % 3u];
    unsigned flags = fuzz_byte(&in);
    int selection = (flags & 8) ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR;
    OSSL_PARAM params[4];
    const uint8_t *pub = NULL;
    size_t publen = 0, n = 0;
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *k = NULL;
    int ok;

    for (int i = 0; i < 3; i++) {
        const uint8_t *v;
        size_t len;
        if (!(flags & (1u << i)))
            continue;
        v = fuzz_take(&in, fuzz_len16(&in), &len);
        if (i == 0) {
            pub = v;
            publen = len;
        }
        params[n++] = OSSL_PARAM_construct_octet_string(names[i], (void *)v,
                                                        len);
    }
    params[n] = OSSL_PARAM_construct_end();

    ctx = EVP_PKEY_CTX_new_from_name(e->libctx, a->name, HARD_PROPQ);
    TEST_REQUIRE(ctx != NULL, "%s: no keymgmt", a->name);
    ok = EVP_PKEY_fromdata_init(ctx) == 1
         && EVP_PKEY_fromdata(ctx, &k, selection, params) == 1;
    EVP_PKEY_CTX_free(ctx);
    if (!ok) {
        EVP_PKEY_free(k);
        fuzz_rejected("rejected");
        return 0;
    }
    fuzz_check_key(k, "imported key");
    if (pub != NULL) {
        uint8_t got[1700];
        size_t gotlen = 0;
        TEST_REQUIRE(hard_get_pub(k, got, sizeof(got), &gotlen)
                             && gotlen == publen && memcmp(got, pub, publen) == 0,
                         "%s: the key's ek is not the pub given", a->name);
    }
    EVP_PKEY_free(k);
    ERR_clear_error();
    return 0;
}
