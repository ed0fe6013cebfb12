/* SPDX-License-Identifier: Apache-2.0 */
/*
 * params.c: the OSSL_PARAM helpers of prov.h, libcrypto's rules with our
 * reasons. A wrong type is MLKEM_R_BAD_PARAMETER, a short output buffer
 * MLKEM_R_OUTPUT_TOO_SMALL, and nothing of libcrypto's is left on the
 * queue: ours must be the error on top, and OpenSSL 3.5+ raises its own on
 * a mismatch (3.0 raises none).
 *
 * Each helper checks first what libcrypto would refuse and raises our
 * reason without calling it; what is left for libcrypto cannot fail, so no
 * ERR_set_mark / ERR_pop_to_mark pair is needed around it. Such a pair
 * costs about 0.5k instructions on OpenSSL 3.0, and every key a keygen or
 * an import makes passes through here several times (libcrypto reads bits,
 * security-bits and max-size of each new key). The exceptions:
 *   - reading an octet string in place: libcrypto's one function that
 *     takes both an octet string and an octet pointer,
 *     OSSL_PARAM_get_octet_string_ptr, sets a mark pair itself from 3.2
 *     on, so the two field reads are done here;
 *   - an integer parameter that is not a plain int (rare): libcrypto
 *     converts, inside a mark pair.
 */
#include <string.h>

#include <openssl/core.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "provider/prov.h"

int mlkem_prov_get_octets(const MLKEM_PROV_CTX *ctx, const OSSL_PARAM *p,
                          const void **data, size_t *len)
{
    const void *d = NULL;

    /* An octet string's bytes, or what an octet pointer points to. */
    if (p->data_type == OSSL_PARAM_OCTET_STRING)
        d = p->data;
    else if (p->data_type == OSSL_PARAM_OCTET_PTR && p->data != NULL)
        d = *(const void *const *)p->data;
    if (d == NULL) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be an octet string", p->key);
        return 0;
    }
    *data = d;
    *len = p->data_size;
    return 1;
}

int mlkem_prov_set_octets(const MLKEM_PROV_CTX *ctx, OSSL_PARAM *p,
                          const void *data, size_t len)
{
    /* A NULL data pointer is a size query, whatever the type. */
    p->return_size = len;
    if (p->data != NULL && p->data_type != OSSL_PARAM_OCTET_STRING) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be an octet string", p->key);
        return 0;
    }
    if (p->data != NULL && p->data_size < len) {
        MLKEM_RAISE_DATA(ctx, MLKEM_R_OUTPUT_TOO_SMALL,
                         "parameter \"%s\": %zu bytes, need %zu", p->key,
                         p->data_size, len);
        return 0;
    }
    return OSSL_PARAM_set_octet_string(p, data, len);
}

int mlkem_prov_set_int(const MLKEM_PROV_CTX *ctx, OSSL_PARAM *p, int v)
{
    int ok;

    /* What libcrypto's evp_keymgmt_util_cache_keyinfo and most callers
     * pass: a plain int (or a size query), which libcrypto sets without
     * fail. */
    if (p->data_type == OSSL_PARAM_INTEGER
        && (p->data == NULL || p->data_size == sizeof(int)))
        return OSSL_PARAM_set_int(p, v);
    /* Other widths, unsigned and real: libcrypto converts. */
    ERR_set_mark();
    ok = OSSL_PARAM_set_int(p, v);
    ERR_pop_to_mark();
    if (!ok)
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER,
                         "parameter \"%s\" must be an integer", p->key);
    return ok;
}
