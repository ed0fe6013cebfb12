/* SPDX-License-Identifier: Apache-2.0 */
/*
 * child.c: the instance's own library context, a child of the core's, in
 * which the hybrids fetch X25519 / ECDH (rand.c draws from the
 * application's DRBG, not this context's): mlkem_prov_child_ctx_new.
 *
 * OSSL_LIB_CTX_new_child() mirrors every provider of the core's library
 * context, this instance included. A mirror of ourselves in our own child
 * context would hold an activation of this instance (the core up-refs a
 * mirror's parent with activation), so a library context freed without
 * OSSL_PROVIDER_unload() first (the default one at exit, when an
 * application never unloads, or a configuration-loaded provider) only
 * deactivates us down to that self-activation: teardown never runs, and
 * the instance, its child context and its DRBG stay allocated (a leak
 * report under LeakSanitizer). It would also take one more error library
 * number per load (errors.c), and serves nothing: the child context is for
 * the default provider's X25519, ECDH, ciphers and DRBG.
 *
 * So the child context is created from a copy of the core's dispatch table
 * whose register_child_cb registers filtering callbacks: they forward every
 * provider's creation and removal to the child context except this
 * instance's own. OSSL_LIB_CTX_new_child() calls register_child_cb before
 * it returns, with this instance's core handle and no way to pass our
 * context along: the handle finds the instance in a short list of the
 * instances whose child context is being made (two library contexts may
 * load mlkem at once, in two threads). Later calls carry the context as
 * their callback data.
 */
#include <pthread.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>

#include "provider/prov.h"

/* Instances inside OSSL_LIB_CTX_new_child(), linked by child.next. */
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static MLKEM_PROV_CTX *pending;

static void pending_add(MLKEM_PROV_CTX *ctx)
{
    pthread_mutex_lock(&pending_lock);
    ctx->child.next = pending;
    pending = ctx;
    pthread_mutex_unlock(&pending_lock);
}

static void pending_remove(MLKEM_PROV_CTX *ctx)
{
    pthread_mutex_lock(&pending_lock);
    for (MLKEM_PROV_CTX **p = &pending; *p != NULL; p = &(*p)->child.next) {
        if (*p == ctx) {
            *p = ctx->child.next;
            break;
        }
    }
    ctx->child.next = NULL;
    pthread_mutex_unlock(&pending_lock);
}

static MLKEM_PROV_CTX *pending_find(const OSSL_CORE_HANDLE *handle)
{
    MLKEM_PROV_CTX *ctx;

    pthread_mutex_lock(&pending_lock);
    for (ctx = pending; ctx != NULL && ctx->handle != handle;
         ctx = ctx->child.next)
        ;
    pthread_mutex_unlock(&pending_lock);
    return ctx;
}

/* ---- The filter: every provider but this instance ----------------------- */

static int child_create(const OSSL_CORE_HANDLE *prov, void *cbdata)
{
    MLKEM_PROV_CTX *ctx = cbdata;

    if (prov == ctx->handle)
        return 1; /* not ourselves */
    return ctx->child.create_cb(prov, ctx->child.cbdata);
}

static int child_remove(const OSSL_CORE_HANDLE *prov, void *cbdata)
{
    MLKEM_PROV_CTX *ctx = cbdata;

    if (prov == ctx->handle)
        return 1;
    return ctx->child.remove_cb(prov, ctx->child.cbdata);
}

static int child_global_props(const char *props, void *cbdata)
{
    MLKEM_PROV_CTX *ctx = cbdata;

    return ctx->child.global_props_cb(props, ctx->child.cbdata);
}

/* What the child context calls as the core's register_child_cb. */
static int child_register(const OSSL_CORE_HANDLE *handle,
                          int (*create_cb)(const OSSL_CORE_HANDLE *, void *),
                          int (*remove_cb)(const OSSL_CORE_HANDLE *, void *),
                          int (*global_props_cb)(const char *, void *),
                          void *cbdata)
{
    MLKEM_PROV_CTX *ctx = pending_find(handle);

    if (ctx == NULL)
        return 0;
    ctx->child.create_cb = create_cb;
    ctx->child.remove_cb = remove_cb;
    ctx->child.global_props_cb = global_props_cb;
    ctx->child.cbdata = cbdata;
    return ctx->child.core_register(handle, child_create, child_remove,
                                    child_global_props, ctx);
}

OSSL_LIB_CTX *mlkem_prov_child_ctx_new(MLKEM_PROV_CTX *ctx,
                                       const OSSL_DISPATCH *in)
{
    OSSL_DISPATCH *copy;
    OSSL_LIB_CTX *libctx;
    size_t n = 0;

    while (in[n].function_id != 0)
        n++;
    if ((copy = OPENSSL_malloc((n + 1) * sizeof(*copy))) == NULL)
        return NULL;
    for (size_t i = 0; i <= n; i++) {
        copy[i] = in[i];
        if (in[i].function_id == OSSL_FUNC_PROVIDER_REGISTER_CHILD_CB) {
            ctx->child.core_register =
                OSSL_FUNC_provider_register_child_cb(&in[i]);
            copy[i].function = (void (*)(void))child_register;
        }
    }
    pending_add(ctx);
    libctx = OSSL_LIB_CTX_new_child(ctx->handle, copy);
    pending_remove(ctx);
    OPENSSL_free(copy); /* the child context keeps the functions, not the table */
    return libctx;
}
