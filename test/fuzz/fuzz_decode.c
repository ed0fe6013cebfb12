/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_decode.c: libFuzzer target for key decoding.
 *
 * Input: one selector byte, then the bytes to decode.
 *   selector % 6 = 0  d2i_PUBKEY_ex           (SubjectPublicKeyInfo DER)
 *                  1  d2i_AutoPrivateKey_ex   (PrivateKeyInfo DER, any form)
 *                  2  OSSL_DECODER, DER, any structure
 *                  3  OSSL_DECODER, PEM, any structure
 *                  4  OSSL_DECODER, PEM, passphrase "fuzz" (encrypted PKCS#8)
 *                  5  OSSL_DECODER, DER, passphrase "fuzz" (encrypted PKCS#8)
 * The PKCS#8 forms our decoders take are OpenSSL 3.5's: seed-priv,
 * seed-only, priv-only, oqskeypair, bare-seed, bare-priv (the seed corpus
 * has each, for each parameter set).
 *
 * Oracles: the run never crashes, leaks or trips a sanitizer; a decoded
 * ML-KEM key is served by mlkem (the targets run on the system OpenSSL
 * 3.0, where no other provider has ML-KEM) and survives fuzz_check_key
 * (SPKI and PKCS#8 round trips, a working key pair).
 */
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509.h>

#include "test/fuzz/fuzz_common.h"

static int is_mlkem(const EVP_PKEY *k)
{
    return EVP_PKEY_is_a(k, "ML-KEM-512") || EVP_PKEY_is_a(k, "ML-KEM-768")
           || EVP_PKEY_is_a(k, "ML-KEM-1024");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    test_env *e = fuzz_env();
    fuzz_in in = { data, size };
    unsigned sel = fuzz_byte(&in) % 6u;
    const unsigned char *p = in.p;
    EVP_PKEY *k = NULL;

    switch (sel) {
    case 0:
        k = d2i_PUBKEY_ex(NULL, &p, (long)in.n, e->libctx, NULL);
        break;
    case 1:
        k = d2i_AutoPrivateKey_ex(NULL, &p, (long)in.n, e->libctx, NULL);
        break;
    case 2:
        k = hard_decode(e, "DER", in.p, in.n, NULL);
        break;
    case 3:
        k = hard_decode(e, "PEM", in.p, in.n, NULL);
        break;
    case 4:
        k = hard_decode(e, "PEM", in.p, in.n, "fuzz");
        break;
    default:
        k = hard_decode(e, "DER", in.p, in.n, "fuzz");
        break;
    }
    if (k != NULL) {
        if (is_mlkem(k))
            fuzz_check_key(k, "decoded ML-KEM key");
        else
            fuzz_count("decoded other key");
        EVP_PKEY_free(k);
    } else {
        fuzz_count("rejected");
    }
    ERR_clear_error();
    return 0;
}
