/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem.c: ML-KEM (FIPS 203 §6-7): KeyGen, Encaps, Decaps, their input
 * checks, the randomized forms, and the key API of kem/mlkem.h.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithm 16 (ML-KEM.KeyGen_internal), 17
 *             (ML-KEM.Encaps_internal), 18 (ML-KEM.Decaps_internal), 19
 *             (ML-KEM.KeyGen), 20 (ML-KEM.Encaps); §7.2 (encapsulation key
 *             check), §7.3 (decapsulation input checks); §3.3 (destruction
 *             of intermediate values); §4.1 (H = SHA3-256, G = SHA3-512,
 *             J = SHAKE256 with 32 bytes of output).
 *
 * The key API does the work; the byte API parses into a stack mlkem_key and
 * calls it. A parsed key holds ek, H(ek), t_hat and the expanded matrix
 * (transposed, kem/kpke.h), and for a private key s_hat and z, so:
 *   - §7.2 (ek modulus) is checked once, in mlkem_key_set_ek / set_dk;
 *   - §7.3 (H(ek) in dk) is checked once, in mlkem_key_set_dk;
 *   - Â is expanded once per key, not per encapsulation or decapsulation.
 * Every error path zeroes the secret outputs and leaves keys empty.
 */
#include "kem/mlkem.h"

#include <string.h>

#include "common/ct.h"
#include "keccak/keccak.h"
#include "kem/kpke.h"
#include "kem/lanes.h"
#include "kem/poly.h"
#include "kem/sampling.h"

const char *mlkem_strerror(int err)
{
    switch (err) {
    case MLKEM_OK: return "success";
    case MLKEM_ERR_LENGTH: return "input has the wrong length";
    case MLKEM_ERR_EK_MODULUS: return "encapsulation key not reduced mod q";
    case MLKEM_ERR_DK_HASH:
        return "decapsulation key hash check failed (H(ek) mismatch)";
    case MLKEM_ERR_DK_MODULUS:
        return "decapsulation key secret vector not reduced mod q";
    case MLKEM_ERR_RANDOM: return "randomness source failed";
    case MLKEM_ERR_PCT: return "pairwise consistency test failed";
    case MLKEM_ERR_NO_KEY: return "key lacks the required component";
    case MLKEM_ERR_SEED_MISMATCH:
        return "seed and decapsulation key do not match";
    default: return "unknown ML-KEM error";
    }
}

/* ---- Parsing and checks (§7.2, §7.3) ------------------------------------ */

/*
 * ek = ByteEncode_12(t_hat) || rho: decodes t_hat and performs the §7.2
 * modulus check (ByteEncode_12(ByteDecode_12(ek)) = ek, i.e. every 12-bit
 * value < q). The verdict is computed without branches but then branched
 * on: ek is public, so whether it is reduced is public too.
 */
static int parse_ek(const mlkem_params *p, int16_t (*t_hat)[256],
                    const uint8_t *ek, size_t len)
{
    uint32_t ok = 0xffffffffu;

    if (len != p->ek_bytes)
        return MLKEM_ERR_LENGTH;
    for (unsigned i = 0; i < p->k; i++)
        ok &= mlkem_byte_decode_12(t_hat[i], ek + 384 * i);
    return ok ? MLKEM_OK : MLKEM_ERR_EK_MODULUS;
}

/*
 * dk = dk_pke || ek || H(ek) || z (Algorithm 16 line 3). The checks, in
 * the order their errors are reported: length (§7.3 "decapsulation key
 * type check"), the hash check H(dk[384k : 768k + 32]) = dk[768k + 32 :
 * 768k + 64] (§7.3), the §7.2 modulus check on the embedded ek, and that
 * every coefficient of s_hat is < q. The last is stricter than FIPS 203
 * (whose ByteDecode_12 would reduce mod q) and matches kem/mlkem.h. It is
 * computed in constant time over the secret s; only the one-bit verdict is
 * branched on (an error reveals it anyway).
 *
 * parse_dk_decode decodes t_hat and s_hat and returns the two modulus
 * verdicts; dk_verdict orders them after the hash check, whose H(ek) the
 * caller computes (alone, or beside the matrix streams in set_dk).
 */
static void parse_dk_decode(const mlkem_params *p, int16_t (*t_hat)[256],
                            int16_t (*s_hat)[256], const uint8_t *dk,
                            int *ek_ret, uint32_t *s_ok)
{
    uint32_t ok = 0xffffffffu;

    *ek_ret = parse_ek(p, t_hat, dk + 384 * p->k, p->ek_bytes);
    for (unsigned i = 0; i < p->k; i++)
        ok &= mlkem_byte_decode_12(s_hat[i], dk + 384 * i);
    mlkem_stack_scrub(); /* s_hat's spills (common/ct.h) */
    MLKEM_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is the error code */
    *s_ok = mlkem_ct_barrier_u32(ok);
}

static int dk_verdict(const mlkem_params *p, const uint8_t *dk,
                      const uint8_t h[32], int ek_ret, uint32_t s_ok)
{
    /* §7.3 hash check: both sides are public (a hash of the public ek). */
    if (mlkem_ct_memneq(h, dk + 384 * p->k + p->ek_bytes, 32))
        return MLKEM_ERR_DK_HASH;
    if (ek_ret != MLKEM_OK)
        return ek_ret;
    return s_ok ? MLKEM_OK : MLKEM_ERR_DK_MODULUS;
}

static int parse_dk(const mlkem_params *p, int16_t (*t_hat)[256],
                    int16_t (*s_hat)[256], const uint8_t *dk, size_t len)
{
    uint8_t h[32];
    uint32_t s_ok;
    int ek_ret;

    if (len != p->dk_bytes)
        return MLKEM_ERR_LENGTH;
    parse_dk_decode(p, t_hat, s_hat, dk, &ek_ret, &s_ok);
    mlkem_sha3_256(h, dk + 384 * p->k, p->ek_bytes);
    return dk_verdict(p, dk, h, ek_ret, s_ok);
}

int mlkem_check_ek(const mlkem_params *p, const uint8_t *ek, size_t ek_len)
{
    int16_t t_hat[MLKEM_MAX_K][256];
    if (p == NULL)
        return MLKEM_ERR_NO_KEY;
    return parse_ek(p, t_hat, ek, ek_len);
}

/* The §7.3 checks plus the s modulus check: exactly what mlkem_key_set_dk
 * and mlkem_decaps_internal reject. */
int mlkem_check_dk(const mlkem_params *p, const uint8_t *dk, size_t dk_len)
{
    int16_t t_hat[MLKEM_MAX_K][256];
    int16_t s_hat[MLKEM_MAX_K][256];
    if (p == NULL)
        return MLKEM_ERR_NO_KEY;
    int ret = parse_dk(p, t_hat, s_hat, dk, dk_len);
    mlkem_cleanse(s_hat, sizeof(s_hat));
    return ret;
}

/* ---- Key API ------------------------------------------------------------- */

void mlkem_key_init(mlkem_key *key, const mlkem_params *p)
{
    memset(key, 0, sizeof(*key));
    key->params = p;
}

void mlkem_key_cleanse(mlkem_key *key)
{
    const mlkem_params *p = key->params;
    mlkem_cleanse(key, sizeof(*key));
    key->params = p;
}

/*
 * The byte API works on a stack key that it fills completely before use, so
 * it skips mlkem_key_init's 14 KiB memset (key_init_light) and at the end
 * wipes only the secret fields (key_wipe_secrets: s_hat, z, d || z); ek,
 * H(ek), rho, t_hat and Â are public.
 */
static void key_init_light(mlkem_key *key, const mlkem_params *p)
{
    key->params = p;
    key->flags = 0;
}

static void key_wipe_secrets(mlkem_key *key)
{
    mlkem_cleanse(key->s_hat, sizeof(key->s_hat));
    mlkem_cleanse(key->z, sizeof(key->z));
    mlkem_cleanse(key->seed, sizeof(key->seed));
    key->flags = 0;
}

/* Before a key is refilled: wipe it if it holds anything (flags are public;
 * an empty key has nothing to wipe). */
static void key_reset(mlkem_key *key)
{
    if (key->flags != 0)
        mlkem_key_cleanse(key);
}

/* Implements FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal), lines 1-2,
 * into a key; line 3's dk is encoded by mlkem_key_encode_dk on demand. */
int mlkem_key_generate(mlkem_key *key, const uint8_t d[32],
                       const uint8_t z[32])
{
    const mlkem_params *p = key->params;

    if (p == NULL)
        return MLKEM_ERR_NO_KEY;
    key_reset(key);
    /* Line 1: (ek_pke, dk_pke) = K-PKE.KeyGen(d), which also computes line
     * 3's H(ek) (cached) as it produces ek. */
    mlkem_kpke_keygen(p, key->ek, key->h, key->t_hat, key->s_hat, key->a_hat,
                      key->rho, d);
    memcpy(key->z, z, 32);
    memcpy(key->seed, d, 32);
    memcpy(key->seed + 32, z, 32);
    key->flags = MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV | MLKEM_KEY_HAS_SEED;
    return MLKEM_OK;
}

/* The streams of a parsed key: H(ek) and Â's SampleNTT streams. */
typedef struct {
    mlkem_job h;                               /* H(ek) */
    mlkem_job a[MLKEM_MAX_K * MLKEM_MAX_K];    /* Â^T, storage order */
} parse_streams;

/* H(ek) (9 blocks at k = 3, a serial chain) and the k^2 SampleNTT streams
 * of Â: all need only ek, so they share one schedule, H first (it is the
 * longest) and the matrix entries in the other lanes. */
static void hash_and_expand(mlkem_key *key, const uint8_t *ek)
{
    const mlkem_params *p = key->params;
    mlkem_lanes lanes;
    parse_streams st;

    mlkem_lanes_init(&lanes, 0);
    mlkem_job_sha3_256(&st.h, key->h, ek, p->ek_bytes, NULL, 0);
    mlkem_lanes_push(&lanes, &st.h);
    mlkem_sample_ntt_matrix_jobs(&lanes, st.a, key->a_hat, key->rho, p->k);
    mlkem_lanes_run(&lanes);
}

int mlkem_key_set_ek(mlkem_key *key, const uint8_t *ek, size_t len)
{
    const mlkem_params *p = key->params;
    int ret;

    if (p == NULL)
        return MLKEM_ERR_NO_KEY;
    key_reset(key);
    ret = parse_ek(p, key->t_hat, ek, len); /* §7.2 */
    if (ret != MLKEM_OK) {
        key->flags = 0; /* t_hat holds only public data */
        return ret;
    }
    memcpy(key->ek, ek, p->ek_bytes);
    memcpy(key->rho, ek + 384 * p->k, 32);
    hash_and_expand(key, ek);
    key->flags = MLKEM_KEY_HAS_PUB;
    return MLKEM_OK;
}

/* The §7.3 checks need H(ek), which is computed beside the matrix: the
 * matrix of a dk that then fails a check is computed for nothing (and
 * wiped with the key), the verdicts come in parse_dk's order. */
int mlkem_key_set_dk(mlkem_key *key, const uint8_t *dk, size_t len)
{
    const mlkem_params *p = key->params;
    const uint8_t *ek = dk + 384 * (p != NULL ? p->k : 0);
    uint32_t s_ok;
    int ret, ek_ret;

    if (p == NULL)
        return MLKEM_ERR_NO_KEY;
    key_reset(key);
    if (len != p->dk_bytes)
        return MLKEM_ERR_LENGTH;
    parse_dk_decode(p, key->t_hat, key->s_hat, dk, &ek_ret, &s_ok);
    memcpy(key->rho, ek + 384 * p->k, 32);
    hash_and_expand(key, ek);
    ret = dk_verdict(p, dk, key->h, ek_ret, s_ok);
    if (ret != MLKEM_OK) {
        key_wipe_secrets(key); /* s_hat may hold part of dk */
        return ret;
    }
    memcpy(key->ek, ek, p->ek_bytes);
    memcpy(key->z, ek + p->ek_bytes + 32, 32);
    key->flags = MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV;
    return MLKEM_OK;
}

int mlkem_key_encode_ek(const mlkem_key *key, uint8_t *out)
{
    if (key->params == NULL || !(key->flags & MLKEM_KEY_HAS_PUB))
        return MLKEM_ERR_NO_KEY;
    memcpy(out, key->ek, key->params->ek_bytes);
    return MLKEM_OK;
}

/* dk = ByteEncode_12(s_hat) || ek || H(ek) || z (Algorithm 16, line 3;
 * Algorithm 13, line 20). */
int mlkem_key_encode_dk(const mlkem_key *key, uint8_t *out)
{
    const mlkem_params *p = key->params;

    if (p == NULL || !(key->flags & MLKEM_KEY_HAS_PRIV))
        return MLKEM_ERR_NO_KEY;
    for (unsigned i = 0; i < p->k; i++)
        mlkem_byte_encode_12(out + 384 * i, key->s_hat[i]);
    memcpy(out + 384 * p->k, key->ek, p->ek_bytes);
    memcpy(out + 384 * p->k + p->ek_bytes, key->h, 32);
    memcpy(out + 384 * p->k + p->ek_bytes + 32, key->z, 32);
    return MLKEM_OK;
}

/*
 * Implements FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal), lines 1-3,
 * with H(ek) taken from the key (computed when ek was parsed). G and the
 * PRF streams its r releases form one schedule.
 */
int mlkem_key_encaps(const mlkem_key *key, uint8_t *c, uint8_t K[32],
                     const uint8_t m[32])
{
    const mlkem_params *p = key->params;
    uint8_t g[64]; /* K || r */
    mlkem_kpke_noise noise;
    mlkem_lanes lanes;
    mlkem_job g_job;

    if (p == NULL || !(key->flags & MLKEM_KEY_HAS_PUB)) {
        if (p != NULL)
            memset(c, 0, p->ct_bytes);
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_NO_KEY;
    }
    /* Line 1: (K, r) = G(m || H(ek)). */
    mlkem_lanes_init(&lanes, 1); /* the PRF batch starts on idle lanes */
    mlkem_job_sha3_512(&g_job, g, m, 32, key->h, 32);
    mlkem_lanes_push(&lanes, &g_job);
    mlkem_lanes_wait(&lanes, &g_job);
    /* Line 2: c = K-PKE.Encrypt(ek, m, r): its noise (Algorithm 14 lines
     * 9-17) from r, then lines 18-24. */
    mlkem_kpke_sample_noise(p, &lanes, &noise, g + 32);
    mlkem_lanes_run(&lanes);
    mlkem_kpke_encrypt(p, c, (const int16_t(*)[256])key->t_hat,
                       (const int16_t(*)[256])key->a_hat, m, &noise);
    memcpy(K, g, 32);
    mlkem_cleanse(g, sizeof(g));
    return MLKEM_OK;
}

/* A dk parsed in the same call as its decapsulation (mlkem_decaps_internal):
 * its ek, where H(ek) goes for the §7.3 hash check, and its Â^T. */
typedef struct {
    const uint8_t *ek;
    uint8_t *h;               /* H(ek), compared with dk's copy afterwards */
    int16_t (*a_hat)[256];    /* Â^T, filled by the run (key->a_hat) */
} dk_parse;

/*
 * Implements FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal), lines 1-12,
 * after the §7.3 ciphertext length check, with the key's s_hat and t_hat,
 * and dk's z and H(ek) (the key's copies, or dk's bytes read in place: the
 * byte API copies no secret into a local, which the compiler may spill to a
 * stack slot nobody wipes). Lines 6-7 and the PRF streams of line 8's
 * K-PKE.Encrypt form one schedule: J(z || c) (9 blocks at k = 3) needs only
 * the key and c, G needs m', and G's r releases the PRF streams, which fill
 * the lanes beside J. With parse (a dk parsed in the same call), the
 * parse's H(ek), another 9-block chain, and Â's k^2 streams join that
 * schedule: the two chains run side by side, everything else in the other
 * lanes (ML-KEM-768: 14 calls instead of 9 for the parse and 9 after it).
 * Lines 9-11 (implicit rejection) are a constant-time compare of c with c'
 * and a constant-time conditional move of K-bar over K'.
 */
static void decaps_core(const mlkem_key *key, const uint8_t z[32],
                        const uint8_t h[32], uint8_t K[32], const uint8_t *c,
                        size_t c_len, const dk_parse *parse)
{
    const mlkem_params *p = key->params;
    uint8_t mh[64], g[64], kbar[32]; /* m' || h, K' || r', K-bar */
    uint8_t cp[MLKEM_MAX_CT_BYTES];
    mlkem_kpke_noise noise;
    mlkem_lanes lanes;
    mlkem_job j_job, g_job;
    parse_streams parse_st;

    /* Line 5: m' = K-PKE.Decrypt(dk_pke, c). */
    mlkem_kpke_decrypt(p, mh, (const int16_t(*)[256])key->s_hat, c);
    memcpy(mh + 32, h, 32);
    /* Lines 6-7: K-bar = J(z || c) = SHAKE256(z || c, 32) and (K', r') =
     * G(m' || h), with the parse's H(ek) (first: the other long chain) and
     * Â's streams (last) beside them. */
    mlkem_lanes_init(&lanes, 0);
    if (parse != NULL) {
        mlkem_job_sha3_256(&parse_st.h, parse->h, parse->ek, p->ek_bytes,
                           NULL, 0);
        mlkem_lanes_push(&lanes, &parse_st.h);
    }
    mlkem_job_shake256(&j_job, kbar, 32, z, 32, c, c_len);
    mlkem_lanes_push(&lanes, &j_job);
    mlkem_job_sha3_512(&g_job, g, mh, 64, NULL, 0);
    mlkem_lanes_push(&lanes, &g_job);
    if (parse != NULL)
        mlkem_sample_ntt_matrix_jobs(&lanes, parse_st.a, parse->a_hat,
                                     parse->ek + 384 * p->k, p->k);
    mlkem_lanes_wait(&lanes, &g_job);
    /* Line 8: c' = K-PKE.Encrypt(ek_pke, m', r'): its noise from r' beside
     * what is left of J, then lines 18-24. */
    mlkem_kpke_sample_noise(p, &lanes, &noise, g + 32);
    mlkem_lanes_run(&lanes);
    mlkem_kpke_encrypt(p, cp, (const int16_t(*)[256])key->t_hat,
                       (const int16_t(*)[256])key->a_hat, mh, &noise);
    /* Lines 9-11: if c != c' then K' = K-bar, without a branch. */
    uint8_t reject = mlkem_ct_memneq(c, cp, p->ct_bytes);
    mlkem_ct_cmov(g, kbar, 32, reject);
    memcpy(K, g, 32);

    mlkem_cleanse(mh, sizeof(mh));
    mlkem_cleanse(g, sizeof(g));
    mlkem_cleanse(kbar, sizeof(kbar));
    mlkem_cleanse(cp, p->ct_bytes);
}

int mlkem_key_decaps(const mlkem_key *key, uint8_t K[32], const uint8_t *c,
                     size_t c_len)
{
    const mlkem_params *p = key->params;

    if (p == NULL || !(key->flags & MLKEM_KEY_HAS_PRIV)) {
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_NO_KEY;
    }
    if (c_len != p->ct_bytes) { /* §7.3 ciphertext type check */
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_LENGTH;
    }
    decaps_core(key, key->z, key->h, K, c, c_len, NULL);
    return MLKEM_OK;
}

int mlkem_key_pct(const mlkem_key *key, mlkem_rand_fn rnd, void *arg)
{
    const mlkem_params *p = key->params;
    uint8_t m[32], k1[32], k2[32];
    uint8_t c[MLKEM_MAX_CT_BYTES];
    int ret;

    if (p == NULL || (key->flags & (MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV)) !=
                         (MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV))
        return MLKEM_ERR_NO_KEY;
    if (!rnd(arg, m, sizeof(m))) {
        ret = MLKEM_ERR_RANDOM;
        goto end;
    }
    ret = mlkem_key_encaps(key, c, k1, m);
    if (ret == MLKEM_OK)
        ret = mlkem_key_decaps(key, k2, c, p->ct_bytes);
    if (ret == MLKEM_OK) {
        uint8_t differ = mlkem_ct_memneq(k1, k2, 32);
        MLKEM_CT_DECLASSIFY(&differ, 1); /* the outcome is public */
        if (differ)
            ret = MLKEM_ERR_PCT;
    }
end:
    mlkem_cleanse(m, sizeof(m));
    mlkem_cleanse(k1, sizeof(k1));
    mlkem_cleanse(k2, sizeof(k2));
    return ret;
}

int mlkem_key_ek_equal(const mlkem_key *a, const mlkem_key *b)
{
    if (a->params == NULL || a->params != b->params ||
        !(a->flags & MLKEM_KEY_HAS_PUB) || !(b->flags & MLKEM_KEY_HAS_PUB))
        return 0;
    return !mlkem_ct_memneq(a->ek, b->ek, a->params->ek_bytes);
}

/* ---- Byte API ------------------------------------------------------------ */

/* Implements FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal), lines 1-4. */
int mlkem_keygen_internal(const mlkem_params *p, uint8_t *ek, uint8_t *dk,
                          const uint8_t d[32], const uint8_t z[32])
{
    mlkem_key key;
    int ret;

    key_init_light(&key, p);
    ret = mlkem_key_generate(&key, d, z);
    if (ret == MLKEM_OK)
        ret = mlkem_key_encode_ek(&key, ek);
    if (ret == MLKEM_OK)
        ret = mlkem_key_encode_dk(&key, dk);
    if (ret != MLKEM_OK && p != NULL) {
        memset(ek, 0, p->ek_bytes);
        mlkem_cleanse(dk, p->dk_bytes);
    }
    key_wipe_secrets(&key);
    return ret;
}

/* §7.2 input check, then Algorithm 17 (ML-KEM.Encaps_internal). */
int mlkem_encaps_internal(const mlkem_params *p, uint8_t *c, uint8_t K[32],
                          const uint8_t *ek, size_t ek_len, const uint8_t m[32])
{
    mlkem_key key;
    int ret;

    key_init_light(&key, p);
    ret = mlkem_key_set_ek(&key, ek, ek_len);
    if (ret == MLKEM_OK)
        ret = mlkem_key_encaps(&key, c, K, m);
    if (ret != MLKEM_OK) {
        if (p != NULL)
            memset(c, 0, p->ct_bytes);
        mlkem_cleanse(K, 32);
    }
    /* key holds only public data (ek, t_hat, Â): no cleanse needed. */
    return ret;
}

/* §7.3 input checks, then Algorithm 18 (ML-KEM.Decaps_internal). The
 * ciphertext length is checked first, as §7.3 lists it first. The hash
 * check's H(ek) is computed in the decapsulation's schedule
 * (decaps_core): a dk that fails it gets its error and K wiped, after the
 * same work as one that passes (the verdict is public anyway). */
int mlkem_decaps_internal(const mlkem_params *p, uint8_t K[32],
                          const uint8_t *c, size_t c_len, const uint8_t *dk,
                          size_t dk_len)
{
    mlkem_key key;
    const uint8_t *ek;
    uint8_t h[32];
    uint32_t s_ok;
    int ret, ek_ret;

    if (p == NULL) {
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_NO_KEY;
    }
    if (c_len != p->ct_bytes) {
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_LENGTH;
    }
    if (dk_len != p->dk_bytes) {
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_LENGTH;
    }
    ek = dk + 384 * p->k;
    key_init_light(&key, p);
    parse_dk_decode(p, key.t_hat, key.s_hat, dk, &ek_ret, &s_ok);
    if (ek_ret != MLKEM_OK || !s_ok) {
        /* Unreduced: the verdicts in dk_verdict's order (the hash check
         * first), no decapsulation. */
        mlkem_sha3_256(h, ek, p->ek_bytes);
        ret = dk_verdict(p, dk, h, ek_ret, s_ok);
    } else {
        /* The parse's H(ek) and Â run in the decapsulation's schedule
         * (decaps_core); G takes dk's copy of H(ek), which the hash check
         * then compares with the computed one: a dk that fails it gets its
         * error and no key. */
        const dk_parse parse = {ek, h, key.a_hat};
        decaps_core(&key, ek + p->ek_bytes + 32, ek + p->ek_bytes, K, c,
                    c_len, &parse);
        ret = dk_verdict(p, dk, h, MLKEM_OK, s_ok);
    }
    if (ret != MLKEM_OK)
        mlkem_cleanse(K, 32);
    key_wipe_secrets(&key);
    return ret;
}

/* Implements FIPS 203, Algorithm 19 (ML-KEM.KeyGen): d and z from the RBG
 * (one 64-byte request, d first), then KeyGen_internal. */
int mlkem_keygen(const mlkem_params *p, uint8_t *ek, uint8_t *dk,
                 mlkem_rand_fn rnd, void *arg)
{
    uint8_t dz[64];
    int ret;

    if (p == NULL)
        return MLKEM_ERR_NO_KEY;
    if (!rnd(arg, dz, sizeof(dz))) {
        memset(ek, 0, p->ek_bytes);
        mlkem_cleanse(dk, p->dk_bytes);
        ret = MLKEM_ERR_RANDOM;
    } else {
        ret = mlkem_keygen_internal(p, ek, dk, dz, dz + 32);
    }
    mlkem_cleanse(dz, sizeof(dz));
    return ret;
}

/* Implements FIPS 203, Algorithm 20 (ML-KEM.Encaps): m from the RBG, then
 * the §7.2 check and Encaps_internal. */
int mlkem_encaps(const mlkem_params *p, uint8_t *c, uint8_t K[32],
                 const uint8_t *ek, size_t ek_len, mlkem_rand_fn rnd,
                 void *arg)
{
    uint8_t m[32];
    int ret;

    if (p == NULL) {
        mlkem_cleanse(K, 32);
        return MLKEM_ERR_NO_KEY;
    }
    if (!rnd(arg, m, sizeof(m))) {
        memset(c, 0, p->ct_bytes);
        mlkem_cleanse(K, 32);
        ret = MLKEM_ERR_RANDOM;
    } else {
        ret = mlkem_encaps_internal(p, c, K, ek, ek_len, m);
    }
    mlkem_cleanse(m, sizeof(m));
    return ret;
}

const char *mlkem_backend_name(void)
{
    return mlkem_poly_kernels()->name;
}
