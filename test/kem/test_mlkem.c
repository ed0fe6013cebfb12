/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_mlkem.c: ML-KEM through kem/mlkem.h (byte API and key API), under
 * every backend.
 *
 *   - known answers: d || z = 00..3f, m = 40..5f gives the shared secrets
 *     OpenSSL 3.5 and noble agree on, for all three sets;
 *   - the parameter table (FIPS 203 Tables 2 and 3);
 *   - round trips with random keys for all sets (internal and randomized);
 *   - implicit rejection: a tampered ciphertext yields SHAKE256(z || c)
 *     computed independently, different from the real K;
 *   - Decaps_internal (parse and decapsulation in one schedule) against
 *     set_dk + key decaps, for good and bad dks and ciphertexts;
 *   - bad inputs: wrong ek / dk / c lengths (MLKEM_ERR_LENGTH, zeroed
 *     outputs), ek with a coefficient q or 4095 (MLKEM_ERR_EK_MODULUS), dk
 *     with a flipped H(ek) byte (MLKEM_ERR_DK_HASH), dk with an unreduced s
 *     (MLKEM_ERR_DK_MODULUS), dk whose embedded ek is unreduced (with its
 *     hash fixed up: MLKEM_ERR_EK_MODULUS); the key API equivalents; a
 *     failing RNG (MLKEM_ERR_RANDOM);
 *   - key API: generate / set_ek / set_dk / encode round trips against the
 *     byte API, encaps / decaps agreement, missing parts (MLKEM_ERR_NO_KEY),
 *     PCT pass and fail, ek_equal, strerror.
 */
#include "kem/mlkem.h"
#include "test/common/test_backends.h"
#include "test/kem/kem_test.h"

#define Q 3329

static int rng_fn(void *arg, uint8_t *buf, size_t len)
{
    test_rng_bytes((test_rng *)arg, buf, len);
    return 1;
}

static int fail_fn(void *arg, uint8_t *buf, size_t len)
{
    (void)arg;
    memset(buf, 0x5a, len);
    return 0;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* A bad dk must fail with `want` in all three entry points: the §7.3 check
 * alone, Decaps_internal (K zeroed, never partial) and key parsing (the key
 * stays empty). */
static void check_bad_dk(const mlkem_params *p, const uint8_t *bad,
                         const uint8_t *c, int want, const char *what)
{
    uint8_t K[32];
    mlkem_key key;

    TEST_CHECK(mlkem_check_dk(p, bad, p->dk_bytes) == want, "check_dk: %s", what);
    memset(K, 0xaa, 32);
    TEST_CHECK(mlkem_decaps_internal(p, K, c, p->ct_bytes, bad, p->dk_bytes) == want,
          "decaps: %s", what);
    TEST_CHECK(all_zero(K, 32), "decaps K zeroed: %s", what);
    mlkem_key_init(&key, p);
    TEST_CHECK(mlkem_key_set_dk(&key, bad, p->dk_bytes) == want, "key_set_dk: %s",
          what);
    TEST_CHECK(key.flags == 0, "key empty after failed set_dk: %s", what);
}

/* Set 12-bit value number idx of a ByteEncode_12 string. */
static void set12(uint8_t *b, unsigned idx, uint16_t v)
{
    uint8_t *p = b + 3 * (idx / 2);
    if (idx % 2 == 0) {
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)((p[1] & 0xf0) | (v >> 8));
    } else {
        p[1] = (uint8_t)((p[1] & 0x0f) | ((v & 0xf) << 4));
        p[2] = (uint8_t)(v >> 4);
    }
}

static void sha3_256_ref(uint8_t out[32], const uint8_t *in, size_t len);

static const char *const kat_ss[3] = {
    "14cace3e48771b316676afad2cfcfe8488daaa4fad954e57236caa3f24a42cf7",
    "9cddd089ffe70e3996e76f7c8d06746df34d07e8657bc0fcf2bb0e1c3084aea1",
    "0ad8d1ea1b8dd788979b4379581218df9321bdce5567eca42ae6be7d395f1a54",
};

static void test_params(void)
{
    static const struct {
        unsigned k, eta1, eta2, du, dv, bits, sec;
        size_t ek, dk, ct;
    } t[3] = {{2, 3, 2, 10, 4, 512, 128, 800, 1632, 768},
              {3, 2, 2, 10, 4, 768, 192, 1184, 2400, 1088},
              {4, 2, 2, 11, 5, 1024, 256, 1568, 3168, 1568}};
    static const char *const names[3] = {"ML-KEM-512", "ML-KEM-768",
                                         "ML-KEM-1024"};
    for (unsigned v = 0; v < 3; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        TEST_CHECK(p != NULL && p->variant == (mlkem_variant)v, "params_get(%u)", v);
        if (!p)
            continue;
        TEST_CHECK(strcmp(p->name, names[v]) == 0, "name %u", v);
        TEST_CHECK(p->k == t[v].k && p->eta1 == t[v].eta1 && p->eta2 == t[v].eta2 &&
                  p->du == t[v].du && p->dv == t[v].dv,
              "Table 2 row %u", v);
        TEST_CHECK(p->bits == t[v].bits && p->security_bits == t[v].sec, "bits %u", v);
        TEST_CHECK(p->ek_bytes == t[v].ek && p->dk_bytes == t[v].dk &&
                  p->ct_bytes == t[v].ct,
              "Table 3 row %u", v);
        TEST_CHECK(mlkem_params_by_bits(t[v].bits) == p, "by_bits(%u)", t[v].bits);
    }
    TEST_CHECK(mlkem_params_get((mlkem_variant)3) == NULL, "params_get(3)");
    TEST_CHECK(mlkem_params_by_bits(256) == NULL, "by_bits(256)");
}

static void test_strerror(void)
{
    const int codes[] = {MLKEM_OK, MLKEM_ERR_LENGTH, MLKEM_ERR_EK_MODULUS,
                         MLKEM_ERR_DK_HASH, MLKEM_ERR_DK_MODULUS,
                         MLKEM_ERR_RANDOM, MLKEM_ERR_PCT, MLKEM_ERR_NO_KEY,
                         MLKEM_ERR_SEED_MISMATCH};
    const unsigned n = sizeof(codes) / sizeof(codes[0]);
    const char *unknown = mlkem_strerror(-100);
    for (unsigned i = 0; i < n; i++) {
        const char *s = mlkem_strerror(codes[i]);
        TEST_CHECK(s != NULL && s[0] != '\0' && strcmp(s, unknown) != 0,
              "strerror(%d)", codes[i]);
        for (unsigned j = 0; j < i; j++)
            TEST_CHECK(strcmp(s, mlkem_strerror(codes[j])) != 0,
                  "strerror(%d) == strerror(%d)", codes[i], codes[j]);
    }
}

static void test_kat(const mlkem_params *p)
{
    uint8_t d[32], z[32], m[32], ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], K[32], K2[32], want[32];
    for (unsigned i = 0; i < 32; i++) {
        d[i] = (uint8_t)i;
        z[i] = (uint8_t)(32 + i);
        m[i] = (uint8_t)(64 + i);
    }
    test_hex_decode(want, 32, kat_ss[p->variant], 64);
    TEST_CHECK(mlkem_keygen_internal(p, ek, dk, d, z) == MLKEM_OK, "KAT keygen");
    TEST_CHECK(mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m) == MLKEM_OK,
          "KAT encaps");
    TEST_CHECK(mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes) ==
              MLKEM_OK,
          "KAT decaps");
    TEST_CHECK(test_bytes_eq("KAT encaps K", K, want, 32), "%s KAT K", p->name);
    TEST_CHECK(test_bytes_eq("KAT decaps K", K2, want, 32), "%s KAT K'", p->name);
}

static void test_roundtrip(const mlkem_params *p, test_rng *rng)
{
    for (unsigned it = 0; it < 25; it++) {
        uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
        uint8_t c[MLKEM_MAX_CT_BYTES], K[32], K2[32];
        TEST_CHECK(mlkem_keygen(p, ek, dk, rng_fn, rng) == MLKEM_OK, "keygen");
        TEST_CHECK(mlkem_check_ek(p, ek, p->ek_bytes) == MLKEM_OK, "check_ek");
        TEST_CHECK(mlkem_check_dk(p, dk, p->dk_bytes) == MLKEM_OK, "check_dk");
        TEST_CHECK(mlkem_encaps(p, c, K, ek, p->ek_bytes, rng_fn, rng) == MLKEM_OK,
              "encaps");
        TEST_CHECK(mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes) ==
                  MLKEM_OK,
              "decaps");
        TEST_CHECK(memcmp(K, K2, 32) == 0, "%s round trip %u: K differs", p->name,
              it);
        /* dk layout: dk_pke || ek || H(ek) || z */
        TEST_CHECK(memcmp(dk + 384 * p->k, ek, p->ek_bytes) == 0, "dk embeds ek");
        uint8_t h[32];
        sha3_256_ref(h, ek, p->ek_bytes);
        TEST_CHECK(memcmp(dk + 384 * p->k + p->ek_bytes, h, 32) == 0,
              "dk holds H(ek)");
    }
}

static void test_implicit_rejection(const mlkem_params *p, test_rng *rng)
{
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], K[32], Kr[32], want[32];
    TEST_CHECK(mlkem_keygen(p, ek, dk, rng_fn, rng) == MLKEM_OK, "keygen");
    TEST_CHECK(mlkem_encaps(p, c, K, ek, p->ek_bytes, rng_fn, rng) == MLKEM_OK,
          "encaps");
    const uint8_t *z = dk + p->dk_bytes - 32;
    const size_t where[3] = {0, p->ct_bytes / 2, p->ct_bytes - 1};
    for (unsigned w = 0; w < 3; w++) {
        uint8_t bad[MLKEM_MAX_CT_BYTES];
        test_shake x;
        memcpy(bad, c, p->ct_bytes);
        bad[where[w]] ^= 0x01;
        TEST_CHECK(mlkem_decaps_internal(p, Kr, bad, p->ct_bytes, dk,
                                    p->dk_bytes) == MLKEM_OK,
              "implicit rejection returns MLKEM_OK");
        test_shake256_init(&x);
        test_shake_absorb(&x, z, 32);
        test_shake_absorb(&x, bad, p->ct_bytes);
        test_shake_squeeze(&x, want, 32);
        TEST_CHECK(memcmp(Kr, want, 32) == 0, "%s: K-bar != SHAKE256(z || c)",
              p->name);
        TEST_CHECK(memcmp(Kr, K, 32) != 0, "%s: tampered c gave the real K",
              p->name);
    }
}

/* Decaps_internal parses dk inside the decapsulation's own schedule
 * (kem/mlkem.c decaps_core); key parsing followed by the key API's decaps
 * does the two apart. Both must give the same verdict and the same K for
 * good and bad dks alike: consistent ones, a tampered c, a changed z (not
 * covered by the hash), an s replaced by other reduced values (the key no
 * longer matches ek: implicit rejection), a flipped H(ek) byte, an
 * unreduced s. */
static void test_decaps_paths(const mlkem_params *p, test_rng *rng)
{
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], K[32];
    static mlkem_key key;

    for (unsigned round = 0; round < 4; round++) {
        TEST_CHECK(mlkem_keygen(p, ek, dk, rng_fn, rng) == MLKEM_OK, "keygen");
        TEST_CHECK(mlkem_encaps(p, c, K, ek, p->ek_bytes, rng_fn, rng) ==
                       MLKEM_OK,
                   "encaps");
        for (unsigned kind = 0; kind < 6; kind++) {
            uint8_t bad[MLKEM_MAX_DK_BYTES], cc[MLKEM_MAX_CT_BYTES];
            uint8_t K1[32], K2[32];
            int r1, r2;
            memcpy(bad, dk, p->dk_bytes);
            memcpy(cc, c, p->ct_bytes);
            switch (kind) {
            case 1: cc[round * 7] ^= 0x10; break;
            case 2: bad[p->dk_bytes - 1 - round] ^= 0x01; cc[5] ^= 1; break;
            case 3:
                for (unsigned i = 0; i < 16; i++)
                    set12(bad, 17 * i + round, (uint16_t)(i * 200 + round));
                break;
            case 4: bad[384 * p->k + p->ek_bytes + round] ^= 0x80; break;
            case 5: set12(bad, 3 + round, Q); break;
            default: break;
            }
            memset(K1, 0xaa, 32);
            memset(K2, 0x55, 32);
            r1 = mlkem_decaps_internal(p, K1, cc, p->ct_bytes, bad,
                                       p->dk_bytes);
            mlkem_key_init(&key, p);
            r2 = mlkem_key_set_dk(&key, bad, p->dk_bytes);
            if (r2 == MLKEM_OK)
                r2 = mlkem_key_decaps(&key, K2, cc, p->ct_bytes);
            else
                memset(K2, 0, 32);
            mlkem_key_cleanse(&key);
            TEST_CHECK(r1 == r2, "%s decaps paths, case %u: %d vs %d",
                       p->name, kind, r1, r2);
            TEST_CHECK(memcmp(K1, K2, 32) == 0,
                       "%s decaps paths, case %u: different K", p->name,
                       kind);
            TEST_CHECK(r1 == (kind == 4   ? MLKEM_ERR_DK_HASH
                              : kind == 5 ? MLKEM_ERR_DK_MODULUS
                                          : MLKEM_OK),
                       "%s decaps paths, case %u: verdict %d", p->name, kind,
                       r1);
            TEST_CHECK((kind == 0) == (memcmp(K1, K, 32) == 0),
                       "%s decaps paths, case %u: K %s the encapsulated one",
                       p->name, kind, kind == 0 ? "is not" : "is");
        }
    }
}

static void test_bad_inputs(const mlkem_params *p, test_rng *rng)
{
    uint8_t ek[MLKEM_MAX_EK_BYTES + 1], dk[MLKEM_MAX_DK_BYTES + 1];
    uint8_t c[MLKEM_MAX_CT_BYTES + 1], K[32];
    uint8_t bad[MLKEM_MAX_DK_BYTES + 1];
    const size_t k = p->k;
    TEST_CHECK(mlkem_keygen(p, ek, dk, rng_fn, rng) == MLKEM_OK, "keygen");
    TEST_CHECK(mlkem_encaps(p, c, K, ek, p->ek_bytes, rng_fn, rng) == MLKEM_OK,
          "encaps");

    /* Lengths. */
    for (int delta = -1; delta <= 1; delta += 2) {
        memset(K, 0xaa, 32);
        memset(bad, 0xaa, sizeof(bad));
        TEST_CHECK(mlkem_encaps_internal(p, bad, K, ek, p->ek_bytes + delta, c) ==
                  MLKEM_ERR_LENGTH,
              "encaps ek_len %+d", delta);
        TEST_CHECK(all_zero(K, 32) && all_zero(bad, p->ct_bytes),
              "encaps outputs zeroed on length error");
        TEST_CHECK(mlkem_check_ek(p, ek, p->ek_bytes + delta) == MLKEM_ERR_LENGTH,
              "check_ek length");
        memset(K, 0xaa, 32);
        TEST_CHECK(mlkem_decaps_internal(p, K, c, p->ct_bytes + delta, dk,
                                    p->dk_bytes) == MLKEM_ERR_LENGTH,
              "decaps c_len %+d", delta);
        TEST_CHECK(all_zero(K, 32), "decaps K zeroed (c length)");
        memset(K, 0xaa, 32);
        TEST_CHECK(mlkem_decaps_internal(p, K, c, p->ct_bytes, dk,
                                    p->dk_bytes + delta) == MLKEM_ERR_LENGTH,
              "decaps dk_len %+d", delta);
        TEST_CHECK(all_zero(K, 32), "decaps K zeroed (dk length)");
        TEST_CHECK(mlkem_check_dk(p, dk, p->dk_bytes + delta) == MLKEM_ERR_LENGTH,
              "check_dk length");
    }

    /* §7.2: ek coefficients q, q + 1, 4095 at the first and last position of
     * t_hat; q - 1 is fine. */
    {
        const uint16_t vals[4] = {Q, Q + 1, 4095, Q - 1};
        const unsigned pos[2] = {0, 256 * (unsigned)k - 1};
        for (unsigned vi = 0; vi < 4; vi++) {
            for (unsigned pi = 0; pi < 2; pi++) {
                const int want = vals[vi] >= Q ? MLKEM_ERR_EK_MODULUS : MLKEM_OK;
                mlkem_key key;
                memcpy(bad, ek, p->ek_bytes);
                set12(bad, pos[pi], vals[vi]);
                TEST_CHECK(mlkem_check_ek(p, bad, p->ek_bytes) == want,
                      "check_ek value %u at %u", vals[vi], pos[pi]);
                memset(K, 0xaa, 32);
                uint8_t cc[MLKEM_MAX_CT_BYTES];
                int r = mlkem_encaps_internal(p, cc, K, bad, p->ek_bytes, c);
                TEST_CHECK(r == want, "encaps ek value %u: %d", vals[vi], r);
                if (want != MLKEM_OK)
                    TEST_CHECK(all_zero(K, 32) && all_zero(cc, p->ct_bytes),
                          "encaps outputs zeroed on modulus error");
                mlkem_key_init(&key, p);
                TEST_CHECK(mlkem_key_set_ek(&key, bad, p->ek_bytes) == want,
                      "key_set_ek value %u", vals[vi]);
                TEST_CHECK(key.flags == (want == MLKEM_OK ? MLKEM_KEY_HAS_PUB : 0u),
                      "key flags after set_ek");
            }
        }
    }

    /* §7.3 hash check: flip each byte position class of H(ek). */
    for (unsigned i = 0; i < 32; i += 31) {
        memcpy(bad, dk, p->dk_bytes);
        bad[384 * k + p->ek_bytes + i] ^= 0x80;
        check_bad_dk(p, bad, c, MLKEM_ERR_DK_HASH,
                     i ? "H(ek) byte 31 flipped" : "H(ek) byte 0 flipped");
    }
    /* A changed ek inside dk (hash no longer matches). */
    memcpy(bad, dk, p->dk_bytes);
    bad[384 * k + 5] ^= 1;
    TEST_CHECK(mlkem_check_dk(p, bad, p->dk_bytes) == MLKEM_ERR_DK_HASH,
          "check_dk with modified embedded ek");

    /* Unreduced s (the hash does not cover s). */
    for (unsigned vi = 0; vi < 2; vi++) {
        memcpy(bad, dk, p->dk_bytes);
        set12(bad, vi ? 256 * (unsigned)k - 1 : 17, vi ? 4095 : Q);
        check_bad_dk(p, bad, c, MLKEM_ERR_DK_MODULUS,
                     vi ? "s coefficient 4095" : "s coefficient q");
    }

    /* Unreduced embedded ek with a matching hash. */
    memcpy(bad, dk, p->dk_bytes);
    set12(bad + 384 * k, 3, Q);
    sha3_256_ref(bad + 384 * k + p->ek_bytes, bad + 384 * k, p->ek_bytes);
    TEST_CHECK(mlkem_check_dk(p, bad, p->dk_bytes) == MLKEM_ERR_EK_MODULUS,
          "check_dk with unreduced embedded ek");

    /* Failing RNG. */
    {
        uint8_t e2[MLKEM_MAX_EK_BYTES], d2[MLKEM_MAX_DK_BYTES];
        memset(e2, 0xaa, sizeof(e2));
        memset(d2, 0xaa, sizeof(d2));
        TEST_CHECK(mlkem_keygen(p, e2, d2, fail_fn, NULL) == MLKEM_ERR_RANDOM,
              "keygen with failing RNG");
        TEST_CHECK(all_zero(e2, p->ek_bytes) && all_zero(d2, p->dk_bytes),
              "keygen outputs zeroed on RNG failure");
        memset(K, 0xaa, 32);
        memset(bad, 0xaa, sizeof(bad));
        TEST_CHECK(mlkem_encaps(p, bad, K, ek, p->ek_bytes, fail_fn, NULL) ==
                  MLKEM_ERR_RANDOM,
              "encaps with failing RNG");
        TEST_CHECK(all_zero(K, 32) && all_zero(bad, p->ct_bytes),
              "encaps outputs zeroed on RNG failure");
    }
}

static void test_key_api(const mlkem_params *p, test_rng *rng)
{
    static mlkem_key gen, pub, priv, empty;
    uint8_t d[32], z[32], m[32];
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t ek2[MLKEM_MAX_EK_BYTES], dk2[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], c2[MLKEM_MAX_CT_BYTES];
    uint8_t K[32], K2[32], K3[32];

    test_rng_bytes(rng, d, 32);
    test_rng_bytes(rng, z, 32);
    test_rng_bytes(rng, m, 32);
    TEST_CHECK(mlkem_keygen_internal(p, ek, dk, d, z) == MLKEM_OK, "keygen");

    mlkem_key_init(&gen, p);
    TEST_CHECK(gen.params == p && gen.flags == 0, "key_init");
    TEST_CHECK(mlkem_key_generate(&gen, d, z) == MLKEM_OK, "key_generate");
    TEST_CHECK(gen.flags == (MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV |
                        MLKEM_KEY_HAS_SEED),
          "generate flags");
    TEST_CHECK(memcmp(gen.seed, d, 32) == 0 && memcmp(gen.seed + 32, z, 32) == 0,
          "seed = d || z");
    TEST_CHECK(mlkem_key_encode_ek(&gen, ek2) == MLKEM_OK &&
              memcmp(ek, ek2, p->ek_bytes) == 0,
          "generate: encode_ek = byte API ek");
    TEST_CHECK(mlkem_key_encode_dk(&gen, dk2) == MLKEM_OK &&
              memcmp(dk, dk2, p->dk_bytes) == 0,
          "generate: encode_dk = byte API dk");

    mlkem_key_init(&pub, p);
    TEST_CHECK(mlkem_key_set_ek(&pub, ek, p->ek_bytes) == MLKEM_OK, "set_ek");
    TEST_CHECK(pub.flags == MLKEM_KEY_HAS_PUB, "set_ek flags");
    TEST_CHECK(mlkem_key_encode_ek(&pub, ek2) == MLKEM_OK &&
              memcmp(ek, ek2, p->ek_bytes) == 0,
          "set_ek / encode_ek round trip");
    TEST_CHECK(mlkem_key_encode_dk(&pub, dk2) == MLKEM_ERR_NO_KEY,
          "encode_dk of a public key");

    mlkem_key_init(&priv, p);
    TEST_CHECK(mlkem_key_set_dk(&priv, dk, p->dk_bytes) == MLKEM_OK, "set_dk");
    TEST_CHECK(priv.flags == (MLKEM_KEY_HAS_PUB | MLKEM_KEY_HAS_PRIV),
          "set_dk flags");
    TEST_CHECK(mlkem_key_encode_dk(&priv, dk2) == MLKEM_OK &&
              memcmp(dk, dk2, p->dk_bytes) == 0,
          "set_dk / encode_dk round trip");
    TEST_CHECK(mlkem_key_encode_ek(&priv, ek2) == MLKEM_OK &&
              memcmp(ek, ek2, p->ek_bytes) == 0,
          "set_dk / encode_ek");

    /* Encaps: byte API = key API (public, generated and private keys). */
    TEST_CHECK(mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m) == MLKEM_OK,
          "encaps_internal");
    const mlkem_key *keys[3] = {&pub, &gen, &priv};
    for (unsigned i = 0; i < 3; i++) {
        TEST_CHECK(mlkem_key_encaps(keys[i], c2, K2, m) == MLKEM_OK, "key_encaps");
        TEST_CHECK(memcmp(c, c2, p->ct_bytes) == 0 && memcmp(K, K2, 32) == 0,
              "key_encaps %u = encaps_internal", i);
    }
    /* Decaps: byte API = key API, valid and tampered c. */
    for (unsigned t = 0; t < 2; t++) {
        if (t)
            c[7] ^= 0x40;
        TEST_CHECK(mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes) ==
                  MLKEM_OK,
              "decaps_internal");
        TEST_CHECK(mlkem_key_decaps(&priv, K3, c, p->ct_bytes) == MLKEM_OK,
              "key_decaps");
        TEST_CHECK(memcmp(K2, K3, 32) == 0, "key_decaps = decaps_internal (%u)", t);
        TEST_CHECK(mlkem_key_decaps(&gen, K3, c, p->ct_bytes) == MLKEM_OK,
              "key_decaps gen");
        TEST_CHECK(memcmp(K2, K3, 32) == 0, "generated key decaps (%u)", t);
        TEST_CHECK((memcmp(K, K2, 32) == 0) == (t == 0), "decaps result (%u)", t);
    }
    memset(K3, 0xaa, 32);
    TEST_CHECK(mlkem_key_decaps(&priv, K3, c, p->ct_bytes - 1) == MLKEM_ERR_LENGTH &&
              all_zero(K3, 32),
          "key_decaps length");
    memset(K3, 0xaa, 32);
    TEST_CHECK(mlkem_key_decaps(&pub, K3, c, p->ct_bytes) == MLKEM_ERR_NO_KEY &&
              all_zero(K3, 32),
          "key_decaps with a public key");
    mlkem_key_init(&empty, p);
    TEST_CHECK(mlkem_key_encaps(&empty, c2, K3, m) == MLKEM_ERR_NO_KEY,
          "key_encaps with an empty key");
    TEST_CHECK(mlkem_key_encode_ek(&empty, ek2) == MLKEM_ERR_NO_KEY,
          "encode_ek of an empty key");
    TEST_CHECK(mlkem_key_pct(&pub, rng_fn, rng) == MLKEM_ERR_NO_KEY,
          "pct of a public key");

    /* PCT. */
    TEST_CHECK(mlkem_key_pct(&gen, rng_fn, rng) == MLKEM_OK, "pct (generated)");
    TEST_CHECK(mlkem_key_pct(&priv, rng_fn, rng) == MLKEM_OK, "pct (parsed)");
    TEST_CHECK(mlkem_key_pct(&priv, fail_fn, NULL) == MLKEM_ERR_RANDOM,
          "pct with failing RNG");
    {
        /* A corrupted secret: decapsulation now rejects implicitly. */
        static mlkem_key broken;
        broken = priv;
        broken.s_hat[0][0] = (int16_t)((broken.s_hat[0][0] + 1) % Q);
        TEST_CHECK(mlkem_key_pct(&broken, rng_fn, rng) == MLKEM_ERR_PCT,
              "pct must fail on a corrupted key");
        mlkem_key_cleanse(&broken);
    }

    /* ek_equal. */
    TEST_CHECK(mlkem_key_ek_equal(&gen, &pub) == 1, "ek_equal gen/pub");
    TEST_CHECK(mlkem_key_ek_equal(&priv, &pub) == 1, "ek_equal priv/pub");
    TEST_CHECK(mlkem_key_ek_equal(&empty, &pub) == 0, "ek_equal empty");
    {
        static mlkem_key other;
        uint8_t d2[32];
        memcpy(d2, d, 32);
        d2[0] ^= 1;
        mlkem_key_init(&other, p);
        TEST_CHECK(mlkem_key_generate(&other, d2, z) == MLKEM_OK, "generate other");
        TEST_CHECK(mlkem_key_ek_equal(&gen, &other) == 0, "ek_equal different");
        mlkem_key_cleanse(&other);
    }

    /* Cleanse leaves an empty key of the same set. */
    mlkem_key_cleanse(&gen);
    TEST_CHECK(gen.params == p && gen.flags == 0 && all_zero(gen.z, 32) &&
              all_zero((const uint8_t *)gen.s_hat, sizeof(gen.s_hat)),
          "key_cleanse");
    mlkem_key_cleanse(&pub);
    mlkem_key_cleanse(&priv);
}

static int body(const char *backend, void *arg)
{
    const int before = test_failure_count();
    test_rng rng;
    (void)backend;
    (void)arg;
    test_rng_init(&rng, "test_mlkem");
    for (unsigned v = 0; v < 3; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        test_kat(p);
        test_roundtrip(p, &rng);
        test_implicit_rejection(p, &rng);
        test_decaps_paths(p, &rng);
        test_bad_inputs(p, &rng);
        test_key_api(p, &rng);
    }
    return test_failure_count() - before;
}

/* SHA3-256 from test/common's Keccak (SHAKE256's rate, domain 0x06): the
 * test_shake API only pads for SHAKE, so use libcrypto instead. */
#include <openssl/evp.h>
static void sha3_256_ref(uint8_t out[32], const uint8_t *in, size_t len)
{
    unsigned int n = 32;
    EVP_Digest(in, len, out, &n, EVP_sha3_256(), NULL);
}

int main(void)
{
    test_params();
    test_strerror();
    TEST_CHECK(test_for_each_backend(body, NULL) == 0, "backend runs failed");
    return test_finish("test_mlkem");
}
