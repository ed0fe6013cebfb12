/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem.h: the ML-KEM kernel's API (FIPS 203 final), used by the provider,
 * the tests and the benchmarks.
 *
 * References
 *   [FIPS203] NIST FIPS 203, Module-Lattice-Based Key-Encapsulation Mechanism
 *             Standard, August 2024 (final; K-PKE.KeyGen hashes G(d || k)).
 *
 * Two layers:
 *   - Byte API: the FIPS 203 algorithms on encoded keys, exactly as specified
 *     (KeyGen_internal, Encaps_internal, Decaps_internal, the §7.2 / §7.3
 *     input checks, and the randomized forms).
 *   - Key API: a parsed, expanded key (mlkem_key) that the provider keeps in
 *     its key objects. Parsing checks the key once (§7.2 / §7.3) and caches
 *     H(ek) and the expanded matrix Â, so decapsulation with a held key
 *     needs no hash check or matrix expansion per call. The byte API is a
 *     thin wrapper around the key API.
 *
 * Every function returns MLKEM_OK (0) or a negative mlkem_err; outputs are
 * fully written only on MLKEM_OK (on error, output buffers for secrets are
 * zeroed, never partially written). Functions marked MLKEM_MUST_CHECK must
 * have their result checked.
 */
#ifndef MLKEM_KEM_MLKEM_H
#define MLKEM_KEM_MLKEM_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"

#define MLKEM_N 256
#define MLKEM_Q 3329
#define MLKEM_MAX_K 4
#define MLKEM_SYM_BYTES 32   /* d, z, m, rho, sigma, H(ek), K */
#define MLKEM_SS_BYTES 32
#define MLKEM_SEED_BYTES 64  /* d || z, the OpenSSL "seed" parameter */
#define MLKEM_MAX_EK_BYTES 1568
#define MLKEM_MAX_DK_BYTES 3168
#define MLKEM_MAX_CT_BYTES 1568

typedef enum {
    MLKEM_512 = 0,
    MLKEM_768 = 1,
    MLKEM_1024 = 2
} mlkem_variant;

/* One row per parameter set (FIPS 203 §8, Table 2 and Table 3). */
typedef struct {
    mlkem_variant variant;
    const char *name;       /* "ML-KEM-768" */
    unsigned k, eta1, eta2, du, dv;
    unsigned bits;          /* 512 / 768 / 1024 (OpenSSL "bits") */
    unsigned security_bits; /* 128 / 192 / 256 */
    size_t ek_bytes, dk_bytes, ct_bytes;
} mlkem_params;

/* The table row for a variant (NULL if out of range). */
const mlkem_params *mlkem_params_get(mlkem_variant v);
/* Lookup by 512 / 768 / 1024; NULL otherwise. */
const mlkem_params *mlkem_params_by_bits(unsigned bits);

typedef enum {
    MLKEM_OK = 0,
    MLKEM_ERR_LENGTH = -1,      /* an input has the wrong length */
    MLKEM_ERR_EK_MODULUS = -2,  /* §7.2: ek coefficient >= q */
    MLKEM_ERR_DK_HASH = -3,     /* §7.3: H(ek) stored in dk is wrong */
    MLKEM_ERR_DK_MODULUS = -4,  /* s in dk has a coefficient >= q */
    MLKEM_ERR_RANDOM = -5,      /* the randomness source failed */
    MLKEM_ERR_PCT = -6,         /* pairwise consistency test failed */
    MLKEM_ERR_NO_KEY = -7,      /* the key object lacks the needed part */
    MLKEM_ERR_SEED_MISMATCH = -8 /* seed and dk given together disagree */
} mlkem_err;

/* A short English reason ("encapsulation key not reduced mod q"). */
const char *mlkem_strerror(int err);

/* The name of the kernel backend this process runs ("portable", "avx2",
 * "avx512", "neon", "neon-sha3"), chosen once for this CPU at load time. */
const char *mlkem_backend_name(void);

/* Randomness source: fill buf with len bytes from an approved RBG and return
 * 1, or return 0 on failure. */
typedef int (*mlkem_rand_fn)(void *arg, uint8_t *buf, size_t len);

/* ---- Byte API ----------------------------------------------------------- */

/* FIPS 203 Algorithm 16, ML-KEM.KeyGen_internal(d, z).
 * ek: p->ek_bytes, dk: p->dk_bytes. */
MLKEM_MUST_CHECK int mlkem_keygen_internal(const mlkem_params *p, uint8_t *ek,
                                           uint8_t *dk, const uint8_t d[32],
                                           const uint8_t z[32]);

/* FIPS 203 Algorithm 17, ML-KEM.Encaps_internal(ek, m), preceded by the §7.2
 * input check (length and modulus). c: p->ct_bytes, K: 32. */
MLKEM_MUST_CHECK int mlkem_encaps_internal(const mlkem_params *p, uint8_t *c,
                                           uint8_t K[32], const uint8_t *ek,
                                           size_t ek_len, const uint8_t m[32]);

/* FIPS 203 Algorithm 18, ML-KEM.Decaps_internal(dk, c), preceded by the §7.3
 * input checks (ciphertext length, dk length, H(ek) hash check).
 * Implicit rejection: a right-length invalid c yields K-bar, MLKEM_OK. */
MLKEM_MUST_CHECK int mlkem_decaps_internal(const mlkem_params *p, uint8_t K[32],
                                           const uint8_t *c, size_t c_len,
                                           const uint8_t *dk, size_t dk_len);

/* §7.2 encapsulation key check / §7.3 decapsulation key check alone. */
MLKEM_MUST_CHECK int mlkem_check_ek(const mlkem_params *p, const uint8_t *ek,
                                    size_t ek_len);
MLKEM_MUST_CHECK int mlkem_check_dk(const mlkem_params *p, const uint8_t *dk,
                                    size_t dk_len);

/* FIPS 203 Algorithms 19 (KeyGen) and 20 (Encaps): randomness from rnd. */
MLKEM_MUST_CHECK int mlkem_keygen(const mlkem_params *p, uint8_t *ek,
                                  uint8_t *dk, mlkem_rand_fn rnd, void *arg);
MLKEM_MUST_CHECK int mlkem_encaps(const mlkem_params *p, uint8_t *c,
                                  uint8_t K[32], const uint8_t *ek,
                                  size_t ek_len, mlkem_rand_fn rnd, void *arg);

/* ---- Key API ------------------------------------------------------------ */

#define MLKEM_KEY_HAS_PUB 1u
#define MLKEM_KEY_HAS_PRIV 2u
#define MLKEM_KEY_HAS_SEED 4u

/* A parsed key. The polynomial arrays are internal (kem/ decides their
 * representation); the provider only reads params, flags, ek, and seed
 * through the functions below. Contains secrets: end with
 * mlkem_key_cleanse(). About 14 KiB; allocate it on the heap in long-lived
 * objects. */
typedef struct mlkem_key {
    const mlkem_params *params;
    unsigned flags;
    uint8_t ek[MLKEM_MAX_EK_BYTES]; /* encoded ek (when HAS_PUB) */
    uint8_t h[32];                  /* H(ek) */
    uint8_t rho[32];
    uint8_t z[32];                  /* implicit-rejection secret */
    uint8_t seed[MLKEM_SEED_BYTES]; /* d || z (when HAS_SEED) */
    int16_t t_hat[MLKEM_MAX_K][MLKEM_N];
    int16_t s_hat[MLKEM_MAX_K][MLKEM_N];
    /* Â, cached; kem/ stores it transposed: a_hat[i * k + j] = Â[j][i]
     * (rows of Â^T, what encryption multiplies by). Coefficients of a_hat
     * are in [0, q); of t_hat and s_hat in [0, q) when decoded from bytes
     * and in (-q, q) when generated (kem/kpke.h): every use (MultiplyNTTs,
     * ByteEncode_12) accepts |x| < q, and the bytes are the same. */
    int16_t a_hat[MLKEM_MAX_K * MLKEM_MAX_K][MLKEM_N];
} mlkem_key;

/* An empty key of parameter set p (flags = 0). */
void mlkem_key_init(mlkem_key *key, const mlkem_params *p);
/* Wipe everything (FIPS 203 §3.3), leaving an empty key of the same set. */
void mlkem_key_cleanse(mlkem_key *key);

/* KeyGen_internal(d, z) into a key: HAS_PUB | HAS_PRIV | HAS_SEED. */
MLKEM_MUST_CHECK int mlkem_key_generate(mlkem_key *key, const uint8_t d[32],
                                        const uint8_t z[32]);
/* Parse ek (§7.2 check): HAS_PUB. */
MLKEM_MUST_CHECK int mlkem_key_set_ek(mlkem_key *key, const uint8_t *ek,
                                      size_t len);
/* Parse dk (§7.3 checks, plus s reduced mod q): HAS_PUB | HAS_PRIV. */
MLKEM_MUST_CHECK int mlkem_key_set_dk(mlkem_key *key, const uint8_t *dk,
                                      size_t len);
/* Encode ek / dk of a key holding them (out: ek_bytes / dk_bytes). */
MLKEM_MUST_CHECK int mlkem_key_encode_ek(const mlkem_key *key, uint8_t *out);
MLKEM_MUST_CHECK int mlkem_key_encode_dk(const mlkem_key *key, uint8_t *out);

/* Encaps_internal(ek, m) with a key holding ek. */
MLKEM_MUST_CHECK int mlkem_key_encaps(const mlkem_key *key, uint8_t *c,
                                      uint8_t K[32], const uint8_t m[32]);
/* Decaps_internal(dk, c) with a key holding dk (checked when parsed). */
MLKEM_MUST_CHECK int mlkem_key_decaps(const mlkem_key *key, uint8_t K[32],
                                      const uint8_t *c, size_t c_len);
/* Pairwise consistency test: encapsulate to ourselves with m from rnd and
 * decapsulate; MLKEM_ERR_PCT if the secrets differ. */
MLKEM_MUST_CHECK int mlkem_key_pct(const mlkem_key *key, mlkem_rand_fn rnd,
                                   void *arg);
/* 1 if both keys hold the same ek (constant time in the key bytes). */
int mlkem_key_ek_equal(const mlkem_key *a, const mlkem_key *b);

#endif /* MLKEM_KEM_MLKEM_H */
