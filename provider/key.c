/* SPDX-License-Identifier: Apache-2.0 */
/*
 * key.c: MLKEM_KEY, the ML-KEM key object shared by kmgmt.c, kem.c,
 * encoders.c and decoders.c, its loaders, and the kernel-error to
 * reason-code mapping.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §7.1 (ML-KEM.KeyGen), §7.2 (encapsulation key
 *             check), §7.3 (decapsulation key checks), §3.3 (destruction of
 *             intermediate values); SP 800-56C / FIPS 140-3 IG 10.3.A for the
 *             pairwise consistency test on imported private keys.
 *
 * The kernel's mlkem_key (about 14 KiB with the cached matrix) holds secrets,
 * so it lives in OpenSSL's secure heap (the plain heap when the application
 * set none up). It is zeroed once, by mlkem_key_init() after a non-zeroing
 * OPENSSL_secure_malloc(), and wiped at most once, by
 * mlkem_prov_kernel_key_free() (below). The provider never looks inside it
 * except for flags, ek and seed, which mlkem.h documents as readable.
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>

#include "provider/prov.h"

void mlkem_prov_raise_kernel_err(const MLKEM_PROV_CTX *ctx, int err)
{
    int reason;

    switch (err) {
    case MLKEM_ERR_LENGTH:
        reason = MLKEM_R_BAD_KEY_LENGTH;
        break;
    case MLKEM_ERR_EK_MODULUS:
        reason = MLKEM_R_EK_NOT_REDUCED;
        break;
    case MLKEM_ERR_DK_HASH:
        reason = MLKEM_R_DK_HASH_MISMATCH;
        break;
    case MLKEM_ERR_DK_MODULUS:
        reason = MLKEM_R_DK_NOT_REDUCED;
        break;
    case MLKEM_ERR_RANDOM:
        reason = MLKEM_R_RANDOM_FAILED;
        break;
    case MLKEM_ERR_PCT:
        reason = MLKEM_R_PCT_FAILED;
        break;
    case MLKEM_ERR_NO_KEY:
        reason = MLKEM_R_MISSING_KEY;
        break;
    case MLKEM_ERR_SEED_MISMATCH:
        reason = MLKEM_R_SEED_KEY_MISMATCH;
        break;
    default:
        MLKEM_RAISE_DATA(ctx, MLKEM_R_BAD_PARAMETER, "kernel error %d", err);
        return;
    }
    MLKEM_RAISE(ctx, reason);
}

MLKEM_KEY *mlkem_prov_key_new(MLKEM_PROV_CTX *ctx, const mlkem_params *p)
{
    MLKEM_KEY *k;

    if (p == NULL)
        return NULL;
    if ((k = OPENSSL_zalloc(sizeof(*k))) == NULL) {
        MLKEM_RAISE(ctx, MLKEM_R_ALLOC_FAILED);
        return NULL;
    }
    if ((k->key = OPENSSL_secure_malloc(sizeof(*k->key))) == NULL) {
        MLKEM_RAISE(ctx, MLKEM_R_ALLOC_FAILED);
        OPENSSL_free(k);
        return NULL;
    }
    mlkem_key_init(k->key, p);
    k->provctx = ctx;
    k->params = p;
    return k;
}

void mlkem_prov_kernel_key_free(mlkem_key *key)
{
    if (key == NULL)
        return;
    /* FIPS 203 §3.3: one wipe of the key's secrets. A block of the secure
     * heap is cleared by the heap itself (OPENSSL_secure_clear_free).
     * Elsewhere mlkem_key_cleanse wipes the whole struct (memset and a
     * compiler barrier: ~0.34k ticks for the 14 KiB of ML-KEM-768, where
     * OPENSSL_cleanse's byte loop takes ~1.4k), except when the key holds
     * only an encapsulation key: ek, H(ek), rho, t-hat and the matrix are
     * public, and such a key (a TLS server's view of the client's share,
     * any SPKI or "pub" import) has never held a secret, since every loader
     * wipes a key it fails to fill (key.c) and only generate / set_dk set
     * HAS_PRIV. An empty key (flags 0) is wiped all the same. */
    if (CRYPTO_secure_allocated(key)) {
        OPENSSL_secure_clear_free(key, sizeof(*key));
        return;
    }
    if (key->flags != MLKEM_KEY_HAS_PUB)
        mlkem_key_cleanse(key);
    OPENSSL_secure_free(key);
}

void mlkem_prov_key_free(MLKEM_KEY *k)
{
    if (k == NULL)
        return;
    mlkem_prov_kernel_key_free(k->key);
    OPENSSL_free(k->propq);
    OPENSSL_free(k);
}

int mlkem_prov_key_has(const MLKEM_KEY *k, int selection)
{
    if (k == NULL)
        return 0;
    /* Domain parameters and "other" parts are implied by the variant. */
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0
        && (k->key->flags & MLKEM_KEY_HAS_PUB) == 0)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0
        && (k->key->flags & MLKEM_KEY_HAS_PRIV) == 0)
        return 0;
    return 1;
}

MLKEM_KEY *mlkem_prov_key_dup(const MLKEM_KEY *k, int selection)
{
    MLKEM_KEY *d;

    if (k == NULL || (d = mlkem_prov_key_new(k->provctx, k->params)) == NULL)
        return NULL;
    if (k->propq != NULL && (d->propq = OPENSSL_strdup(k->propq)) == NULL)
        goto err;

    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0
        && (k->key->flags & MLKEM_KEY_HAS_PRIV) != 0) {
        /* Everything, secrets included, secure heap to secure heap. The
         * struct holds no pointers other than the static params row. */
        memcpy(d->key, k->key, sizeof(*d->key));
    } else if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0
               && (k->key->flags & MLKEM_KEY_HAS_PUB) != 0) {
        /* Public part only: re-parse ek, so no secret field is copied. */
        int rc = mlkem_key_set_ek(d->key, k->key->ek, k->params->ek_bytes);
        if (rc != MLKEM_OK) {
            mlkem_prov_raise_kernel_err(k->provctx, rc);
            goto err;
        }
    }
    /* Otherwise (no key part selected, or none present): an empty key of
     * the same parameter set. */
    return d;
err:
    mlkem_prov_key_free(d);
    return NULL;
}

static int require_empty(const MLKEM_KEY *k)
{
    if (k == NULL) {
        MLKEM_RAISE(NULL, MLKEM_R_MISSING_KEY); /* no instance known */
        return 0;
    }
    if ((k->key->flags & (MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV)) != 0) {
        MLKEM_RAISE(k->provctx, MLKEM_R_KEY_NOT_EMPTY);
        return 0;
    }
    return 1;
}

/* Forget d||z unless the configuration keeps it (ml-kem.retain_seed). */
static void apply_retain_seed(MLKEM_KEY *k)
{
    if (k->provctx != NULL && !k->provctx->retain_seed) {
        OPENSSL_cleanse(k->key->seed, sizeof(k->key->seed));
        k->key->flags &= ~MLKEM_KEY_HAS_SEED;
    }
}

int mlkem_prov_key_from_seed(MLKEM_KEY *k, const uint8_t seed[64])
{
    int rc;

    if (!require_empty(k))
        return 0;
    /* FIPS 203 Algorithm 16, ML-KEM.KeyGen_internal(d, z), seed = d || z. */
    rc = mlkem_key_generate(k->key, seed, seed + MLKEM_SYM_BYTES);
    if (rc != MLKEM_OK) {
        mlkem_key_cleanse(k->key);
        mlkem_prov_raise_kernel_err(k->provctx, rc);
        return 0;
    }
    apply_retain_seed(k);
    return 1;
}

/* Pairwise consistency test on a private key that was not generated here:
 * encapsulate to the key's ek with a fresh m and decapsulate with its dk. */
static int run_pct(MLKEM_KEY *k)
{
    int rc = mlkem_key_pct(k->key, mlkem_prov_rand, k->provctx);

    if (rc != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(k->provctx, rc);
        return 0;
    }
    return 1;
}

int mlkem_prov_key_from_priv(MLKEM_KEY *k, const uint8_t *dk, size_t len)
{
    int rc;

    if (!require_empty(k))
        return 0;
    if (dk == NULL || len != k->params->dk_bytes) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_KEY_LENGTH,
                         "%s decapsulation key: %zu bytes, expected %zu",
                         k->params->name, len, k->params->dk_bytes);
        return 0;
    }
    /* §7.3: the H(ek) hash check (and s reduced mod q) happen in parsing. */
    rc = mlkem_key_set_dk(k->key, dk, len);
    if (rc != MLKEM_OK) {
        mlkem_key_cleanse(k->key);
        mlkem_prov_raise_kernel_err(k->provctx, rc);
        return 0;
    }
    if (!run_pct(k)) {
        mlkem_key_cleanse(k->key);
        return 0;
    }
    return 1;
}

int mlkem_prov_key_from_seed_priv(MLKEM_KEY *k, const uint8_t seed[64],
                                  const uint8_t *dk, size_t len)
{
    uint8_t *regen = NULL;
    int ok = 0, rc;

    if (!require_empty(k))
        return 0;
    if (k->provctx != NULL && !k->provctx->prefer_seed)
        return mlkem_prov_key_from_priv(k, dk, len);
    if (dk == NULL || len != k->params->dk_bytes) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_KEY_LENGTH,
                         "%s decapsulation key: %zu bytes, expected %zu",
                         k->params->name, len, k->params->dk_bytes);
        return 0;
    }
    rc = mlkem_key_generate(k->key, seed, seed + MLKEM_SYM_BYTES);
    if (rc != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(k->provctx, rc);
        goto end;
    }
    /* The given dk must equal the one KeyGen_internal(d, z) yields: this
     * covers z (the last 32 bytes) and every other part of dk. */
    if ((regen = OPENSSL_secure_malloc(len)) == NULL)
        goto end;
    rc = mlkem_key_encode_dk(k->key, regen);
    if (rc != MLKEM_OK) {
        mlkem_prov_raise_kernel_err(k->provctx, rc);
        goto end;
    }
    if (CRYPTO_memcmp(regen, dk, len) != 0) {
        MLKEM_RAISE(k->provctx, MLKEM_R_SEED_KEY_MISMATCH);
        goto end;
    }
    apply_retain_seed(k);
    ok = 1;
end:
    if (!ok)
        mlkem_key_cleanse(k->key);
    OPENSSL_secure_clear_free(regen, len);
    return ok;
}

int mlkem_prov_key_from_pub(MLKEM_KEY *k, const uint8_t *ek, size_t len)
{
    int rc;

    if (!require_empty(k))
        return 0;
    if (ek == NULL || len != k->params->ek_bytes) {
        MLKEM_RAISE_DATA(k->provctx, MLKEM_R_BAD_KEY_LENGTH,
                         "%s encapsulation key: %zu bytes, expected %zu",
                         k->params->name, len, k->params->ek_bytes);
        return 0;
    }
    /* §7.2: type check (length, above) and modulus check (in parsing). */
    rc = mlkem_key_set_ek(k->key, ek, len);
    if (rc != MLKEM_OK) {
        mlkem_key_cleanse(k->key);
        mlkem_prov_raise_kernel_err(k->provctx, rc);
        return 0;
    }
    return 1;
}
