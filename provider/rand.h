/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand.h: the provider's randomness (rand.c), its instance hooks and its
 * one tunable. mlkem_prov_rand itself is declared in prov.h.
 */
#ifndef MLKEM_PROVIDER_RAND_H
#define MLKEM_PROVIDER_RAND_H

#include <openssl/core.h>

/* prov.h's MLKEM_PROV_CTX; not included, so that tests built against
 * another OpenSSL can take MLKEM_PROV_RAND_MAX_AGE_NS from here. */
struct mlkem_prov_ctx;

/* Cached bytes older than this are not handed out (rand.c, "the cache"). */
#define MLKEM_PROV_RAND_MAX_AGE_NS 1000000000u /* 1 s */

/* Choose where the instance's randomness comes from (the application's
 * library context, or a DRBG seeded through the core): called by
 * OSSL_provider_init once ctx->handle and ctx->libctx are set, with the
 * core's dispatch table. Returns 1, or 0 (nothing allocated) when out of
 * memory. */
int mlkem_prov_rand_init(struct mlkem_prov_ctx *ctx, const OSSL_DISPATCH *in);

/* Wipe the instance's unused bytes from every thread's cache and free what
 * mlkem_prov_rand_init made: called by the provider's teardown before it
 * frees ctx->libctx. */
void mlkem_prov_rand_teardown(struct mlkem_prov_ctx *ctx);

#endif /* MLKEM_PROVIDER_RAND_H */
