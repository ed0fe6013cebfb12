/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codecs.h: what encoders.c and decoders.c share.
 */
#ifndef MLKEM_PROVIDER_CODECS_H
#define MLKEM_PROVIDER_CODECS_H

#include <openssl/core_dispatch.h>

/*
 * "Levels" selection check, as OpenSSL's own codecs do: a request that
 * includes the private key is served only by private-key structures, one
 * that includes the public key (but not the private key) only by public-key
 * structures. 0 means "guess" and matches everything. mask: the
 * OSSL_KEYMGMT_SELECT_* of what the structure holds.
 */
static inline int mlkem_codec_selection_matches(int selection, int mask)
{
    if (selection == 0)
        return 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        return (mask & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        return (mask & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
    return 0;
}

#endif /* MLKEM_PROVIDER_CODECS_H */
