/* SPDX-License-Identifier: Apache-2.0 */
/*
 * errors.c: how the provider reports. mlkem_prov_err (ERR_raise through the
 * core, with mlkem's library number and reason strings), the reason this
 * thread raised last, the core's get_reason_strings for the one case that
 * needs it, and mlkem_prov_trace, the only reader of MLKEM_TRACE.
 *
 * The reasons themselves are listed once, in reasons.h.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/core.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "provider/prov.h"

/* ---- Library number and strings ----------------------------------------------
 * OpenSSL gives every provider object a new error library number
 * (ERR_get_next_error_library: one for each OSSL_PROVIDER_load, and one for
 * each mirror a child library context makes of it), never reuses a number,
 * and keeps only its low 8 bits in an error code (ERR_PACK). Loading
 * "mlkem" and "default" into a library context takes 3 numbers (the two
 * providers and default's mirror in our child library context, which has
 * no mirror of mlkem itself: child.c), so after about 85 loads the
 * packed values repeat (4 numbers and 64 loads with the self-mirror). Had each object served its own
 * reason strings (OSSL_FUNC_PROVIDER_GET_REASON_STRINGS), unloading any
 * short-lived object whose number aliases a long-lived one would delete
 * the long-lived one's strings too (ERR_unload_strings works on packed
 * codes), and that instance's errors would print as "lib(128)" /
 * "reason(104)" (test/provider/test_evp_cycles.c).
 *
 * So mlkem.so takes one library number per process, loads its strings for
 * that number once, and never unloads them (the module is linked with
 * -z nodelete, so the strings, like the file and function names in queued
 * errors, stay mapped after the last instance is unloaded). Errors are
 * raised through each instance's own handle with the reason packed with
 * that number; the core (3.0 to 4.0 core_vset_error) passes a reason whose
 * library field is set to ERR_vset_error unchanged. The provider serves no
 * reason strings, so loading and unloading its instances never touches
 * OpenSSL's string table. The exception is a core of another major release
 * (a 3.x-built mlkem.so in OpenSSL 4.0): the module's libcrypto.so.3 is then
 * not the host's, so a number taken and strings loaded there mean nothing
 * to the host; such an instance raises plain reasons, packed by the core
 * with the instance's own number, and serves its strings to the core, as
 * providers usually do (with the aliasing limit below).
 *
 * What remains OpenSSL's limit: the core still hands each provider object
 * its own number, so other providers' numbers wrap around past 255 too.
 * Another provider that serves reason strings under a number aliasing ours
 * replaces our strings while it is loaded and deletes them when it is
 * unloaded; and any number past 255 whose low 8 bits fall below 128
 * aliases one of OpenSSL's own libraries (ERR_LIB_*), whose strings such a
 * provider then overwrites. Library numbers are 8 bits in the packed error
 * code (ERR_PACK in include/openssl/err.h; the 8-bit library field
 * is discussed in openssl/openssl#9003), and
 * ERR_get_next_error_library() has no way to return or reuse one
 * (discussed in openssl/openssl#17974); no upstream fix as of 4.0. */
static CRYPTO_ONCE err_once = CRYPTO_ONCE_STATIC_INIT;
static atomic_int err_lib; /* 0 until err_init ran (or if it failed) */

/* The strings, from reasons.h: for ERR_load_strings() (which adds the
 * library number to each code in place, hence not const; the first entry
 * names the library) and for the core's get_reason_strings. */
#define ERR_ROW(name, number, text) { (number), (text) },
static ERR_STRING_DATA err_strings[] = {
    { 0, "mlkem" },
    MLKEM_REASONS(ERR_ROW)
    { 0, NULL }
};
#undef ERR_ROW

#define ITEM_ROW(name, number, text) { (number), (void *)(text) },
static const OSSL_ITEM reason_items[] = {
    MLKEM_REASONS(ITEM_ROW)
    { 0, NULL }
};
#undef ITEM_ROW

static void err_init(void)
{
    int lib = 0;

    /* A number whose low 8 bits are below ERR_LIB_USER (128) would alias
     * one of OpenSSL's own libraries: take the next one that does not (at
     * most 128 more, and only when over 128 provider objects were created
     * before this module's first load). */
    for (int i = 0; i <= 128; i++) {
        lib = ERR_get_next_error_library();
        if (lib <= 0 || (lib & 0xFF) >= ERR_LIB_USER)
            break;
    }
    if (lib <= 0 || (lib & 0xFF) < ERR_LIB_USER)
        return; /* errors are then raised as the core's own, unnamed */
    err_strings[0].error = ERR_PACK(lib, 0, 0);
    ERR_load_strings(lib, err_strings);
    atomic_store(&err_lib, lib);
}

/* The reason this thread raised last, for MLKEM_TRACE lines: the error
 * queue cannot be read back from here when the host's libcrypto is not
 * ours (a 3.x-built module in OpenSSL 4.0). */
static _Thread_local int last_reason;

int mlkem_prov_last_reason(void)
{
    return last_reason;
}

const char *mlkem_prov_reason_string(int reason)
{
    /* ERR_load_strings packs each code with the library in place. */
    for (const ERR_STRING_DATA *e = err_strings + 1; e->string != NULL; e++)
        if (ERR_GET_REASON(e->error) == reason)
            return e->string;
    return NULL;
}

void mlkem_prov_err(const MLKEM_PROV_CTX *ctx, const char *file, int line,
                    const char *func, int reason, const char *fmt, ...)
{
    va_list ap;
    int lib = ctx != NULL ? ctx->err_lib : atomic_load(&err_lib);
    uint32_t code = lib != 0 ? (uint32_t)ERR_PACK(lib, 0, reason)
                             : (uint32_t)reason;

    last_reason = reason;
    va_start(ap, fmt);
    if (ctx != NULL && ctx->core_new_error != NULL
        && ctx->core_set_error_debug != NULL && ctx->core_vset_error != NULL) {
        ctx->core_new_error(ctx->handle);
        ctx->core_set_error_debug(ctx->handle, file, line, func);
        ctx->core_vset_error(ctx->handle, code, fmt, ap);
    } else if (lib != 0) {
        ERR_new();
        ERR_set_debug(file, line, func);
        ERR_vset_error(lib, reason, fmt, ap);
    }
    va_end(ap);
}

int mlkem_prov_err_init(int *lib)
{
    if (!CRYPTO_THREAD_run_once(&err_once, err_init))
        return 0;
    *lib = atomic_load(&err_lib);
    return 1;
}

/* Served to the core only by an instance whose host libcrypto is not this
 * module's (its err_lib is 0, see above): a table with get_reason_strings
 * makes the core load, and at unload delete, the library name under the
 * instance's own number, which may alias mlkem's process-wide one. */
const OSSL_ITEM *mlkem_prov_get_reason_strings(void *provctx)
{
    (void)provctx;
    return reason_items;
}

/* ---- Trace ---------------------------------------------------------------------
 * MLKEM_TRACE set to a non-empty value: one line per event on stderr,
 * "mlkem: <text>". Read at each call (not cached), so a test may set it
 * between operations. Without it the provider writes nothing: OpenSSL
 * users expect no output from a library. */
void mlkem_prov_trace(const char *fmt, ...)
{
    const char *t = getenv("MLKEM_TRACE");
    va_list ap;

    if (t == NULL || *t == '\0')
        return;
    va_start(ap, fmt);
    fputs("mlkem: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
