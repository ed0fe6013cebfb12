/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prov.h: what the provider's files share: the provider context, the ML-KEM
 * key object, reason codes, and the dispatch tables each file contributes.
 *
 * Files (one job each, OpenSSL provider style):
 *   prov.c          OSSL_provider_init, get_params, query_operation, the
 *                   OSSL_ALGORITHM and parameter-set tables, OID creation
 *   errors.c        mlkem_prov_err: the error library number and reason
 *                   strings (the reasons: reasons.h); mlkem_prov_trace
 *   config.c        the configuration section (and unknown keys in it)
 *   child.c         the instance's child library context
 *   params.c        OSSL_PARAM helpers with our reasons
 *   key.c           MLKEM_KEY: the key object shared by kmgmt, kem, codecs
 *   rand.c          randomness: the application's DRBG, per-thread cache
 *   kmgmt.c         ML-KEM key management (3 variants via one macro)
 *   kem.c           ML-KEM encapsulate / decapsulate
 *   encoders.c      SPKI / PKCS#8 / encrypted PKCS#8 DER+PEM, and text
 *   decoders.c      DER SPKI / PKCS#8 to a decoded object, and its key
 *   codecs_der.c    the ML-KEM DER layouts both read and write (no EVP)
 *   hybrid_kmgmt.c  X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024,
 *                   X448MLKEM1024 key management
 *   hybrid_kem.c    their KEM
 *   hybrid_ec.c     their classical halves, through the default provider
 *                   (X25519 public keys: curve25519/)
 *   capabilities.c  TLS-GROUP capability
 */
#ifndef MLKEM_PROVIDER_PROV_H
#define MLKEM_PROVIDER_PROV_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>

#include "kem/mlkem.h"
#include "provider/reasons.h"

/* ---- Provider context ----------------------------------------------------- */

/* Private key output / input formats, OpenSSL 3.5's names. */
typedef enum {
    MLKEM_FMT_SEED_PRIV = 0, /* "seed-priv": both { seed, expandedKey } */
    MLKEM_FMT_SEED_ONLY,     /* "seed-only": [0] IMPLICIT seed */
    MLKEM_FMT_PRIV_ONLY,     /* "priv-only": expandedKey OCTET STRING */
    MLKEM_FMT_OQS_KEYPAIR,   /* "oqskeypair": OCTET STRING dk || ek */
    MLKEM_FMT_BARE_SEED,     /* "bare-seed": the 64 seed bytes */
    MLKEM_FMT_BARE_PRIV,     /* "bare-priv": the dk bytes */
    MLKEM_FMT_COUNT
} mlkem_fmt;

typedef struct mlkem_prov_ctx {
    const OSSL_CORE_HANDLE *handle; /* this instance's, for its errors */
    /* The core's error upcalls (errors.c's mlkem_prov_err). */
    OSSL_FUNC_core_new_error_fn *core_new_error;
    OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
    OSSL_FUNC_core_vset_error_fn *core_vset_error;
    int err_lib;              /* mlkem's error library number (errors.c) */
    OSSL_LIB_CTX *libctx;     /* the provider's own library context (a child
                                 of the core's, without a mirror of this
                                 instance), for fetching X25519/ECDH */
    /* child.c's filter: the child library context's provider callbacks,
     * forwarded for every provider of the core's context but this
     * instance, and the core's register_child_cb. */
    struct {
        int (*create_cb)(const OSSL_CORE_HANDLE *prov, void *cbdata);
        int (*remove_cb)(const OSSL_CORE_HANDLE *prov, void *cbdata);
        int (*global_props_cb)(const char *props, void *cbdata);
        void *cbdata;
        OSSL_FUNC_provider_register_child_cb_fn *core_register;
        struct mlkem_prov_ctx *next; /* child.c's list, during init only */
    } child;
    uint64_t rand_id;         /* tags this instance's bytes in rand.c's
                                 per-thread cache; unique, never 0 */
    struct mlkem_prov_rand *rand; /* rand.c: where d, z, m come from */
    unsigned long ossl_version; /* running OpenSSL, 0xMNN00PP0L-style:
                                   (major << 28) | (minor << 20) | (patch << 4) */
    char buildinfo[400];      /* the "buildinfo" provider parameter */
    /* Configuration (openssl.cnf provider section or -provparam), 3.5's knobs:
     * ml-kem.retain_seed, ml-kem.prefer_seed, ml-kem.output_formats,
     * ml-kem.input_formats. Formats are ordered lists, ended by -1. */
    int retain_seed;
    int prefer_seed;
    int output_formats[MLKEM_FMT_COUNT + 1];
    int input_formats[MLKEM_FMT_COUNT + 1];
    /* "decoders" (ours, not 3.5's; default yes): no leaves the decoders
     * out of query_operation, for deployments that only use ML-KEM in TLS
     * key exchange: OpenSSL 3.0 walks every provider's decoders on every
     * certificate it parses (docs/performance.md). */
    int decoders;
    /* The first bad configuration value, as a message ("" if none), e.g.
     * 'ml-kem.output_formats: unknown key format name "bogus"'. A bad
     * format list is left EMPTY (no format enabled: private key encoding or
     * decoding then fails at use time, as on OpenSSL 3.5); a bad yes/no
     * keeps the default (as 3.5). The provider still loads, and exposes the
     * text as its "config-error" parameter. Codecs may raise it with
     * MLKEM_R_BAD_FORMAT_NAME when a list is empty. */
    char config_error[192];
} MLKEM_PROV_CTX;

#define MLKEM_OSSL_VERSION(maj, min, pat) \
    (((unsigned long)(maj) << 28) | ((unsigned long)(min) << 20) | ((unsigned long)(pat) << 4))

/* ---- The three parameter sets: names and OIDs, one spelling ---------------
 * OpenSSL 3.5's names for each set (name, alias, OID short name, dotted
 * OID), so code and configuration written for 3.5 work unchanged on 3.0.
 * The OSSL_ALGORITHM tables need them as string constants, hence macros;
 * MLKEM_PROV_SETS(X) expands X(bits, variant) once per set for the files
 * that declare per-set functions and tables (kmgmt.c, encoders.c,
 * decoders.c, prov.c).
 * Sizes and security levels are the kernel's: mlkem_params_get(variant). */
#define MLKEM_PROV_OID_512 "2.16.840.1.101.3.4.4.1"  /* [FIPS203] NIST CSOR */
#define MLKEM_PROV_OID_768 "2.16.840.1.101.3.4.4.2"
#define MLKEM_PROV_OID_1024 "2.16.840.1.101.3.4.4.3"
#define MLKEM_PROV_OID(bits) MLKEM_PROV_OID_##bits
#define MLKEM_PROV_OID_SN(bits) "id-alg-ml-kem-" #bits
/* "ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2" */
#define MLKEM_PROV_NAMES(bits)                                                 \
    "ML-KEM-" #bits ":MLKEM" #bits ":" MLKEM_PROV_OID_SN(bits) ":"              \
    MLKEM_PROV_OID(bits)
#define MLKEM_PROV_SETS(X) X(512, MLKEM_512) X(768, MLKEM_768) X(1024, MLKEM_1024)

/* The same, for code: one row per set (prov.c). */
typedef struct {
    mlkem_variant variant;        /* kernel sizes: mlkem_params_get(variant) */
    const char *names;            /* MLKEM_PROV_NAMES(bits) */
    const char *oid;              /* dotted */
    const char *oid_sn;           /* "id-alg-ml-kem-768" */
} mlkem_prov_set;

/* The row of a parameter set (never NULL for the kernel's three sets). */
const mlkem_prov_set *mlkem_prov_set_of(const mlkem_params *p);

/* Parameter names OpenSSL 3.5 uses that 3.0's core_names.h lacks. */
#define MLKEM_PARAM_SEED "seed" /* keymgmt get/import/gen_set: 64-byte d||z */
#define MLKEM_PARAM_IKME "ikme" /* KEM ctx: 32-byte m for the next encaps */

/* ---- The ML-KEM key object (key.c) ---------------------------------------- */

typedef struct mlkem_prov_key {
    MLKEM_PROV_CTX *provctx;
    const mlkem_params *params;
    mlkem_key *key;   /* OPENSSL_secure_zalloc'ed; key->flags say what is set */
    char *propq;
} MLKEM_KEY;

MLKEM_KEY *mlkem_prov_key_new(MLKEM_PROV_CTX *ctx, const mlkem_params *p);
void mlkem_prov_key_free(MLKEM_KEY *k);
/* Wipe (FIPS 203 §3.3) and free a kernel key from OPENSSL_secure_malloc:
 * one wipe, none for a key holding only a (public) encapsulation key
 * (key.c says why); also for the hybrids' ML-KEM half. NULL is a no-op. */
void mlkem_prov_kernel_key_free(mlkem_key *key);
MLKEM_KEY *mlkem_prov_key_dup(const MLKEM_KEY *k, int selection);
/* Each loader raises an OpenSSL error with a precise reason and returns 0 on
 * failure, leaving the key unchanged. The key must be empty. */
int mlkem_prov_key_from_seed(MLKEM_KEY *k, const uint8_t seed[64]);
int mlkem_prov_key_from_priv(MLKEM_KEY *k, const uint8_t *dk, size_t len); /* + PCT */
int mlkem_prov_key_from_seed_priv(MLKEM_KEY *k, const uint8_t seed[64],
                                  const uint8_t *dk, size_t len); /* agree? */
/* from_seed honours provctx->retain_seed; from_seed_priv honours
 * provctx->prefer_seed (no: load dk alone with a PCT, dropping the seed). */
int mlkem_prov_key_from_pub(MLKEM_KEY *k, const uint8_t *ek, size_t len);
int mlkem_prov_key_has(const MLKEM_KEY *k, int selection);
/* Raise the reason for a kernel error code (mlkem_err). */
void mlkem_prov_raise_kernel_err(const MLKEM_PROV_CTX *ctx, int err);
/* Fill buf from the application's random generator (rand.c:
 * through a per-thread cache). The first argument is the MLKEM_PROV_CTX *
 * (NULL: the default library context, uncached); the signature matches
 * mlkem_rand_fn, so it can be handed to the kernel directly. Returns 1/0
 * and raises nothing (callers raise MLKEM_R_RANDOM_FAILED). */
int mlkem_prov_rand(void *provctx, uint8_t *buf, size_t len);
/* A new instance's rand_id (rand.c). */
uint64_t mlkem_prov_rand_new_id(void);

/* ---- OSSL_PARAM helpers (params.c) ------------------------------------------
 * The rules of libcrypto's OSSL_PARAM_get_octet_string_ptr (an octet string
 * or an octet pointer) / OSSL_PARAM_set_octet_string / OSSL_PARAM_set_int,
 * with the failure reported as ours: a wrong type is MLKEM_R_BAD_PARAMETER,
 * a short output buffer MLKEM_R_OUTPUT_TOO_SMALL, and nothing of
 * libcrypto's is left on the queue. A NULL data pointer in an output
 * parameter is a size query (return_size is set). params.c says when they
 * call libcrypto. */
int mlkem_prov_get_octets(const MLKEM_PROV_CTX *ctx, const OSSL_PARAM *p,
                          const void **data, size_t *len);
int mlkem_prov_set_octets(const MLKEM_PROV_CTX *ctx, OSSL_PARAM *p,
                          const void *data, size_t len);
int mlkem_prov_set_int(const MLKEM_PROV_CTX *ctx, OSSL_PARAM *p, int v);

/* ---- Reason codes (reasons.h lists them; errors.c serves the strings) ---- */

#define MLKEM_REASON_ENUM(name, number, text) MLKEM_R_##name = (number),
enum { MLKEM_REASONS(MLKEM_REASON_ENUM) };
#undef MLKEM_REASON_ENUM

/* ERR_raise for this provider: raise `reason` (MLKEM_R_*) through the core's
 * error upcalls of the instance ctx, the provider context every operation
 * has (errors.c explains the library number). fmt (printf style, may be NULL)
 * adds the error's data text. ctx may be NULL only where no instance can be
 * known; the error is then raised through libcrypto directly. */
void mlkem_prov_err(const MLKEM_PROV_CTX *ctx, const char *file, int line,
                    const char *func, int reason, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* The reason this thread raised last (0 if none) and the text of a reason
 * (NULL if unknown): for trace lines, which cannot read the host's error
 * queue back in every configuration. */
int mlkem_prov_last_reason(void);
const char *mlkem_prov_reason_string(int reason);
#define MLKEM_RAISE(ctx, reason)                                               \
    mlkem_prov_err((ctx), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, (reason),  \
                   NULL)
#define MLKEM_RAISE_DATA(ctx, reason, ...)                                     \
    mlkem_prov_err((ctx), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, (reason),  \
                   __VA_ARGS__)
/* The process's error library number and strings, set up on the first
 * call (errors.c): 1 with *lib set (0 when no number could be taken), 0
 * when the one-time setup could not run. */
int mlkem_prov_err_init(int *lib);
/* The core's get_reason_strings, for an instance with err_lib 0. */
OSSL_FUNC_provider_get_reason_strings_fn mlkem_prov_get_reason_strings;
/* With MLKEM_TRACE set (non-empty), one line on stderr: "mlkem: <fmt>".
 * The provider's only diagnostic output; never key material. */
void mlkem_prov_trace(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- Init's helpers: configuration (config.c), child context (child.c) --- */

/* Read the instance's configuration section into ctx (defaults first; a
 * bad value is recorded in ctx->config_error, never fatal). get_params may
 * be NULL (no configuration). */
void mlkem_prov_config_read(MLKEM_PROV_CTX *ctx,
                            OSSL_FUNC_core_get_params_fn *get_params,
                            const OSSL_CORE_HANDLE *handle);
/* Why a format list (ctx->output_formats or ctx->input_formats) enables no
 * format: the configuration problem's text when a bad value emptied it,
 * NULL when it is not empty or was not made so by a bad value. */
const char *mlkem_prov_config_formats_problem(const MLKEM_PROV_CTX *ctx,
                                              const int *list);
/* The instance's child library context, without a mirror of the instance
 * itself; NULL on failure. in: the core's dispatch table given to init. */
OSSL_LIB_CTX *mlkem_prov_child_ctx_new(MLKEM_PROV_CTX *ctx,
                                       const OSSL_DISPATCH *in);

/* ---- Dispatch tables each file contributes (prov.c lists them) ------------ */

/* kmgmt.c, kem.c */
extern const OSSL_DISPATCH mlkem_512_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_768_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_1024_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_kem_functions[];
/* kmgmt.c's import and export of an MLKEM_KEY, the same for every set: for
 * the encoders (a key another provider holds reaches them as parameters)
 * and the decoders (a decoded key handed to another provider). */
OSSL_FUNC_keymgmt_import_fn mlkem_prov_kmgmt_import;
OSSL_FUNC_keymgmt_export_fn mlkem_prov_kmgmt_export;

/* encoders.c, decoders.c: the encoders and decoders of every set and
 * structure, as prov.c's query_operation serves them. A decoder's object
 * reference becomes a key (checked, its reason raised otherwise) through
 * mlkem_prov_key_from_decoded (decoders.c), for kmgmt.c's load; want: the
 * set the caller serves, or NULL for any. */
MLKEM_KEY *mlkem_prov_key_from_decoded(const void *ref, size_t ref_sz,
                                       const mlkem_params *want);
extern const OSSL_ALGORITHM mlkem_prov_encoders[];
extern const OSSL_ALGORITHM mlkem_prov_decoders[];

/* hybrid_kmgmt.c, hybrid_kem.c, capabilities.c */
extern const OSSL_DISPATCH mlkem_x25519mlkem768_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_secp256r1mlkem768_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_secp384r1mlkem1024_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_x448mlkem1024_keymgmt_functions[];
extern const OSSL_DISPATCH mlkem_hybrid_kem_functions[];
int mlkem_prov_get_capabilities(void *provctx, const char *capability,
                                OSSL_CALLBACK *cb, void *arg);

#endif /* MLKEM_PROVIDER_PROV_H */
