/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_kem.cc: ML-KEM keygen, encaps and decaps per parameter set and
 * backend, in rdtsc ticks per operation (bench_util.h), plus peers measured
 * in the same run:
 *   - "evp/<provider>": the same operations through EVP (keygen from a seed,
 *     encapsulation from the encoded ek, decapsulation with the held key),
 *     registered for each provider that offers ML-KEM in this process:
 *     OpenSSL's own "default" provider when the binary runs on OpenSSL 3.5+
 *     (LD_LIBRARY_PATH=<3.5 prefix>/lib), and our "mlkem" provider when
 *     MLKEM_PROVIDER_DIR names the folder holding mlkem.so. Besides
 *     keygen, encaps, decaps_key and kem_roundtrip (every set), ML-KEM-768
 *     has the pieces of libcrypto's per-call work: ctx_from_pkey
 *     (EVP_PKEY_CTX_new_from_pkey + free), encaps_init / decaps_init (the
 *     same + EVP_PKEY_*capsulate_init) and pub_from (a peer's ek imported
 *     with EVP_PKEY_fromdata, as in the round trip);
 *   - "evp_<provider>/x25519mlkem768/<op>": the TLS hybrid through EVP as
 *     libssl drives it: keygen (the client's key pair, random), encaps (the
 *     server's: ML-KEM encapsulation to the client's share plus an
 *     ephemeral X25519 key pair and its secret), decaps_key (the client's),
 *     kem_roundtrip (keygen + the share imported + encaps + decaps: one
 *     key exchange, both sides); ours, and OpenSSL's own on 3.5+;
 *   - "x25519/public_key": curve25519/x25519.c's comb, X25519(k, 9), beside
 *     "evp_default/x25519/public_key": libcrypto's, as its public API
 *     gives it (EVP_PKEY_new_raw_private_key computes the public key;
 *     plus that key object's allocation and free);
 *   - "evp_default/x25519/<op>": the same pieces for X25519 (derive_init and
 *     derive for the KEM calls; its round trip is both sides' keygen,
 *     public key import and derive), libcrypto's own work for a classical
 *     key in the same run (bench/evp_instructions.sh counts instructions).
 *
 * What each kernel benchmark does (ML-KEM-768 permutation counts in
 * brackets; test/kem/test_perms.c asserts them):
 *   keygen          KeyGen_internal(d, z) to encoded ek and dk        [43]
 *   encaps          Encaps_internal(ek bytes, m): §7.2 check, H(ek), Â [44]
 *   decaps_key      Decaps with a held key (checked and expanded once) [17]
 *   decaps_bytes    Decaps_internal(dk bytes, c): §7.3 check, Â        [53]
 *   kem_roundtrip   keygen + encaps + decaps_key: what a TLS client and
 *                   server spend together on one key exchange          [104]
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "bench/bench_util.h"

extern "C" {
#include "kem/mlkem.h"
#include "curve25519/x25519.h"
}

namespace {

struct Fixture {
    const mlkem_params *p;
    uint8_t d[32], z[32], m[32];
    uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t c[MLKEM_MAX_CT_BYTES], K[32], K2[32];
    mlkem_key *key;

    explicit Fixture(unsigned bits) : p(mlkem_params_by_bits(bits))
    {
        for (int i = 0; i < 32; i++) {
            d[i] = (uint8_t)i;
            z[i] = (uint8_t)(i + 32);
            m[i] = (uint8_t)(i + 64);
        }
        key = new mlkem_key;
        mlkem_key_init(key, p);
        if (mlkem_key_generate(key, d, z) != MLKEM_OK ||
            mlkem_keygen_internal(p, ek, dk, d, z) != MLKEM_OK ||
            mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m) != MLKEM_OK) {
            std::fprintf(stderr, "bench_kem: kernel set-up failed\n");
            std::abort();
        }
    }
    ~Fixture()
    {
        mlkem_key_cleanse(key);
        delete key;
    }
};

void check(int rc)
{
    if (rc != MLKEM_OK) {
        std::fprintf(stderr, "bench_kem: %s\n", mlkem_strerror(rc));
        std::abort();
    }
}

template <unsigned BITS> void bm_keygen(benchmark::State &st)
{
    Fixture f(BITS);
    mlkem_bench_ticks(st, [&] {
        check(mlkem_keygen_internal(f.p, f.ek, f.dk, f.d, f.z));
        f.d[0]++;
    });
}

template <unsigned BITS> void bm_encaps(benchmark::State &st)
{
    Fixture f(BITS);
    mlkem_bench_ticks(st, [&] {
        check(mlkem_encaps_internal(f.p, f.c, f.K, f.ek, f.p->ek_bytes, f.m));
        f.m[0]++;
    });
}

template <unsigned BITS> void bm_decaps_key(benchmark::State &st)
{
    Fixture f(BITS);
    mlkem_bench_ticks(st, [&] {
        check(mlkem_key_decaps(f.key, f.K2, f.c, f.p->ct_bytes));
        f.c[0] ^= f.K2[0]; /* alternate valid / implicitly rejected */
    });
}

template <unsigned BITS> void bm_decaps_bytes(benchmark::State &st)
{
    Fixture f(BITS);
    mlkem_bench_ticks(st, [&] {
        check(mlkem_decaps_internal(f.p, f.K2, f.c, f.p->ct_bytes, f.dk,
                                    f.p->dk_bytes));
        f.c[0] ^= f.K2[0];
    });
}

template <unsigned BITS> void bm_roundtrip(benchmark::State &st)
{
    Fixture f(BITS);
    mlkem_key *k = new mlkem_key;
    mlkem_key_init(k, f.p);
    mlkem_bench_ticks(st, [&] {
        check(mlkem_key_generate(k, f.d, f.z));
        check(mlkem_key_encode_ek(k, f.ek));
        check(mlkem_encaps_internal(f.p, f.c, f.K, f.ek, f.p->ek_bytes, f.m));
        check(mlkem_key_decaps(k, f.K2, f.c, f.p->ct_bytes));
        if (std::memcmp(f.K, f.K2, 32) != 0)
            std::abort();
        f.d[0]++;
        f.m[0]++;
    }, 4);
    mlkem_key_cleanse(k);
    delete k;
}

int register_kernel()
{
    mlkem_bench_register("mlkem512/keygen", bm_keygen<512>);
    mlkem_bench_register("mlkem512/encaps", bm_encaps<512>);
    mlkem_bench_register("mlkem512/decaps_key", bm_decaps_key<512>);
    mlkem_bench_register("mlkem512/decaps_bytes", bm_decaps_bytes<512>);
    mlkem_bench_register("mlkem512/kem_roundtrip", bm_roundtrip<512>);
    mlkem_bench_register("mlkem768/keygen", bm_keygen<768>);
    mlkem_bench_register("mlkem768/encaps", bm_encaps<768>);
    mlkem_bench_register("mlkem768/decaps_key", bm_decaps_key<768>);
    mlkem_bench_register("mlkem768/decaps_bytes", bm_decaps_bytes<768>);
    mlkem_bench_register("mlkem768/kem_roundtrip", bm_roundtrip<768>);
    mlkem_bench_register("mlkem1024/keygen", bm_keygen<1024>);
    mlkem_bench_register("mlkem1024/encaps", bm_encaps<1024>);
    mlkem_bench_register("mlkem1024/decaps_key", bm_decaps_key<1024>);
    mlkem_bench_register("mlkem1024/decaps_bytes", bm_decaps_bytes<1024>);
    mlkem_bench_register("mlkem1024/kem_roundtrip", bm_roundtrip<1024>);
    return 0;
}

const int kernel_registered = register_kernel();

/* ---- Peers through EVP ---------------------------------------------------- */

struct EvpPeer {
    OSSL_LIB_CTX *libctx;
    std::string propq;
};

EVP_PKEY *evp_keygen(const EvpPeer &peer, const char *alg, uint8_t seed[64])
{
    EVP_PKEY *pkey = nullptr;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(peer.libctx, alg,
                                                   peer.propq.c_str());
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string("seed", seed, 64),
        OSSL_PARAM_construct_end()};
    if (ctx == nullptr || EVP_PKEY_keygen_init(ctx) <= 0 ||
        EVP_PKEY_CTX_set_params(ctx, params) <= 0 ||
        EVP_PKEY_keygen(ctx, &pkey) <= 0) {
        std::fprintf(stderr, "bench_kem: EVP keygen failed\n");
        std::abort();
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* klen: the secret's size (32 for ML-KEM, 64 for X25519MLKEM768). */
void evp_encaps(const EvpPeer &peer, EVP_PKEY *pub, uint8_t *c, size_t clen,
                uint8_t *K, size_t klen = 32)
{
    size_t cl = clen, kl = klen;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(peer.libctx, pub,
                                                   peer.propq.c_str());
    if (ctx == nullptr || EVP_PKEY_encapsulate_init(ctx, nullptr) <= 0 ||
        EVP_PKEY_encapsulate(ctx, c, &cl, K, &kl) <= 0 || kl != klen) {
        std::fprintf(stderr, "bench_kem: EVP encapsulate failed\n");
        std::abort();
    }
    EVP_PKEY_CTX_free(ctx);
}

void evp_decaps(const EvpPeer &peer, EVP_PKEY *priv, const uint8_t *c,
                size_t clen, uint8_t *K, size_t klen = 32)
{
    size_t kl = klen;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(peer.libctx, priv,
                                                   peer.propq.c_str());
    if (ctx == nullptr || EVP_PKEY_decapsulate_init(ctx, nullptr) <= 0 ||
        EVP_PKEY_decapsulate(ctx, K, &kl, c, clen) <= 0 || kl != klen) {
        std::fprintf(stderr, "bench_kem: EVP decapsulate failed\n");
        std::abort();
    }
    EVP_PKEY_CTX_free(ctx);
}

/* The public half as a peer receives it: an empty key + encoded-pub-key. */
EVP_PKEY *evp_pub_from(const EvpPeer &peer, const char *alg, EVP_PKEY *priv)
{
    uint8_t ek[MLKEM_MAX_EK_BYTES];
    size_t eklen = 0;
    EVP_PKEY *pub = nullptr;
    if (!EVP_PKEY_get_octet_string_param(priv, "encoded-pub-key", ek,
                                         sizeof(ek), &eklen))
        std::abort();
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(peer.libctx, alg,
                                                   peer.propq.c_str());
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string("pub", ek, eklen),
        OSSL_PARAM_construct_end()};
    if (ctx == nullptr || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pub, EVP_PKEY_PUBLIC_KEY, params) <= 0)
        std::abort();
    EVP_PKEY_CTX_free(ctx);
    return pub;
}

/* Ops of bm_evp: the first four for every set, the rest for ML-KEM-768. */
enum { EVP_KEYGEN, EVP_ENCAPS, EVP_DECAPS, EVP_ROUNDTRIP, EVP_CTX_FROM_PKEY,
       EVP_ENCAPS_INIT, EVP_DECAPS_INIT, EVP_PUB_FROM, EVP_NOPS };
const char *const evp_op_names[EVP_NOPS] = {
    "keygen", "encaps", "decaps_key", "kem_roundtrip", "ctx_from_pkey",
    "encaps_init", "decaps_init", "pub_from"};

void evp_ctx_init(const EvpPeer &peer, EVP_PKEY *k, int op)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(peer.libctx, k,
                                                   peer.propq.c_str());
    int ok = ctx != nullptr;
    if (ok && op == EVP_ENCAPS_INIT)
        ok = EVP_PKEY_encapsulate_init(ctx, nullptr) > 0;
    else if (ok && op == EVP_DECAPS_INIT)
        ok = EVP_PKEY_decapsulate_init(ctx, nullptr) > 0;
    if (!ok) {
        std::fprintf(stderr, "bench_kem: EVP context set-up failed\n");
        std::abort();
    }
    EVP_PKEY_CTX_free(ctx);
}

void bm_evp(benchmark::State &st, EvpPeer peer, unsigned bits, int op)
{
    const mlkem_params *p = mlkem_params_by_bits(bits);
    std::string alg = "ML-KEM-" + std::to_string(bits);
    uint8_t seed[64], c[MLKEM_MAX_CT_BYTES], K[32], K2[32];
    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)i;
    EVP_PKEY *priv = evp_keygen(peer, alg.c_str(), seed);
    EVP_PKEY *pub = evp_pub_from(peer, alg.c_str(), priv);
    evp_encaps(peer, pub, c, p->ct_bytes, K);
    switch (op) {
    case EVP_KEYGEN:
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY_free(evp_keygen(peer, alg.c_str(), seed));
            seed[0]++;
        });
        break;
    case EVP_ENCAPS:
        mlkem_bench_ticks(st, [&] { evp_encaps(peer, pub, c, p->ct_bytes, K); });
        break;
    case EVP_DECAPS:
        mlkem_bench_ticks(st, [&] { evp_decaps(peer, priv, c, p->ct_bytes, K2); });
        break;
    case EVP_CTX_FROM_PKEY:
    case EVP_DECAPS_INIT:
        mlkem_bench_ticks(st, [&] { evp_ctx_init(peer, priv, op); });
        break;
    case EVP_ENCAPS_INIT:
        mlkem_bench_ticks(st, [&] { evp_ctx_init(peer, pub, op); });
        break;
    case EVP_PUB_FROM:
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY_free(evp_pub_from(peer, alg.c_str(), priv));
        });
        break;
    default:
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY *k = evp_keygen(peer, alg.c_str(), seed);
            EVP_PKEY *kp = evp_pub_from(peer, alg.c_str(), k);
            evp_encaps(peer, kp, c, p->ct_bytes, K);
            evp_decaps(peer, k, c, p->ct_bytes, K2);
            if (std::memcmp(K, K2, 32) != 0)
                std::abort();
            EVP_PKEY_free(kp);
            EVP_PKEY_free(k);
            seed[0]++;
        }, 4);
    }
    st.SetLabel(peer.propq);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
}

/* ---- X25519MLKEM768 through EVP, as libssl drives it ------------------ */

/* A random key pair by name (X25519MLKEM768, X25519): no parameters. */
EVP_PKEY *keygen_by_name(const EvpPeer &peer, const char *alg)
{
    EVP_PKEY *pkey = nullptr;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(peer.libctx, alg,
                                                   peer.propq.c_str());
    if (ctx == nullptr || EVP_PKEY_keygen_init(ctx) <= 0 ||
        EVP_PKEY_keygen(ctx, &pkey) <= 0) {
        std::fprintf(stderr, "bench_kem: %s keygen failed\n", alg);
        std::abort();
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

EVP_PKEY *hybrid_keygen(const EvpPeer &peer)
{
    return keygen_by_name(peer, "X25519MLKEM768");
}

enum { H_KEYGEN, H_ENCAPS, H_DECAPS, H_ROUNDTRIP, H_NOPS };
const char *const hybrid_op_names[H_NOPS] = {"keygen", "encaps", "decaps_key",
                                             "kem_roundtrip"};
const size_t hybrid_ct_bytes = 1088 + 32;

void bm_hybrid(benchmark::State &st, EvpPeer peer, int op)
{
    uint8_t c[hybrid_ct_bytes], K[64], K2[64];
    EVP_PKEY *priv = hybrid_keygen(peer);
    EVP_PKEY *pub = evp_pub_from(peer, "X25519MLKEM768", priv);
    auto encaps = [&](EVP_PKEY *to) { evp_encaps(peer, to, c, sizeof(c), K, 64); };
    auto decaps = [&](EVP_PKEY *with) { evp_decaps(peer, with, c, sizeof(c), K2, 64); };
    encaps(pub);
    switch (op) {
    case H_KEYGEN:
        mlkem_bench_ticks(st, [&] { EVP_PKEY_free(hybrid_keygen(peer)); });
        break;
    case H_ENCAPS:
        mlkem_bench_ticks(st, [&] { encaps(pub); });
        break;
    case H_DECAPS:
        mlkem_bench_ticks(st, [&] { decaps(priv); });
        break;
    default:
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY *k = hybrid_keygen(peer);
            EVP_PKEY *kp = evp_pub_from(peer, "X25519MLKEM768", k);
            encaps(kp);
            decaps(k);
            if (std::memcmp(K, K2, 64) != 0)
                std::abort();
            EVP_PKEY_free(kp);
            EVP_PKEY_free(k);
        }, 4);
    }
    st.SetLabel(peer.propq);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
}

/* ---- X25519 through EVP: libcrypto's work for a classical key ---------- */

EVP_PKEY *x25519_keygen(const EvpPeer &peer)
{
    return keygen_by_name(peer, "X25519");
}

void x25519_derive(const EvpPeer &peer, EVP_PKEY *priv, EVP_PKEY *peerkey,
                   uint8_t K[32], bool init_only)
{
    size_t kl = 32;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(peer.libctx, priv,
                                                   peer.propq.c_str());
    if (ctx == nullptr || EVP_PKEY_derive_init(ctx) <= 0 ||
        (!init_only && (EVP_PKEY_derive_set_peer(ctx, peerkey) <= 0 ||
                        EVP_PKEY_derive(ctx, K, &kl) <= 0))) {
        std::fprintf(stderr, "bench_kem: X25519 derive failed\n");
        std::abort();
    }
    EVP_PKEY_CTX_free(ctx);
}

enum { X_KEYGEN, X_CTX_FROM_PKEY, X_DERIVE_INIT, X_DERIVE, X_PUB_FROM,
       X_ROUNDTRIP, X_NOPS };
const char *const x25519_op_names[X_NOPS] = {
    "keygen", "ctx_from_pkey", "derive_init", "derive", "pub_from",
    "roundtrip"};

void bm_x25519(benchmark::State &st, EvpPeer peer, int op)
{
    uint8_t K[32], K2[32];
    EVP_PKEY *a = x25519_keygen(peer), *b = x25519_keygen(peer);
    EVP_PKEY *bp = evp_pub_from(peer, "X25519", b);
    switch (op) {
    case X_KEYGEN:
        mlkem_bench_ticks(st, [&] { EVP_PKEY_free(x25519_keygen(peer)); });
        break;
    case X_CTX_FROM_PKEY:
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(
                peer.libctx, a, peer.propq.c_str());
            if (ctx == nullptr)
                std::abort();
            EVP_PKEY_CTX_free(ctx);
        });
        break;
    case X_DERIVE_INIT:
        mlkem_bench_ticks(st, [&] { x25519_derive(peer, a, bp, K, true); });
        break;
    case X_DERIVE:
        mlkem_bench_ticks(st, [&] { x25519_derive(peer, a, bp, K, false); });
        break;
    case X_PUB_FROM:
        mlkem_bench_ticks(st, [&] { EVP_PKEY_free(evp_pub_from(peer, "X25519", a)); });
        break;
    default:
        /* One key exchange: each side's keygen, the other's public key as
         * received, and its derive. */
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY *k1 = x25519_keygen(peer), *k2 = x25519_keygen(peer);
            EVP_PKEY *p1 = evp_pub_from(peer, "X25519", k1);
            EVP_PKEY *p2 = evp_pub_from(peer, "X25519", k2);
            x25519_derive(peer, k1, p2, K, false);
            x25519_derive(peer, k2, p1, K2, false);
            if (std::memcmp(K, K2, 32) != 0)
                std::abort();
            EVP_PKEY_free(p2);
            EVP_PKEY_free(p1);
            EVP_PKEY_free(k2);
            EVP_PKEY_free(k1);
        }, 4);
    }
    st.SetLabel(peer.propq);
    EVP_PKEY_free(bp);
    EVP_PKEY_free(b);
    EVP_PKEY_free(a);
}

#ifdef MLKEM_X25519_NATIVE
void bm_x25519_public(benchmark::State &st, bool ours)
{
    uint8_t k[32], pub[32];
    for (int i = 0; i < 32; i++)
        k[i] = (uint8_t)(i * 7 + 1);
    if (ours) {
        mlkem_bench_ticks(st, [&] {
            mlkem_x25519_public(pub, k);
            k[0] ^= pub[0];
        });
    } else {
        mlkem_bench_ticks(st, [&] {
            EVP_PKEY *p = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, k, 32);
            if (p == nullptr)
                std::abort();
            EVP_PKEY_free(p);
            k[0]++;
        });
    }
    st.SetLabel(ours ? "curve25519/x25519.c" : "libcrypto");
}
#endif

int register_evp_peers()
{
    const char *dir = std::getenv("MLKEM_PROVIDER_DIR");
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
    if (libctx == nullptr)
        return 0;
    if (dir != nullptr)
        OSSL_PROVIDER_set_default_search_path(libctx, dir);
    OSSL_PROVIDER_load(libctx, "default");
    if (dir != nullptr && OSSL_PROVIDER_load(libctx, "mlkem") == nullptr)
        std::fprintf(stderr, "bench_kem: cannot load mlkem.so from %s\n", dir);
    for (const char *prov : {"default", "mlkem"}) {
        std::string propq = std::string("provider=") + prov;
        EVP_KEM *kem = EVP_KEM_fetch(libctx, "ML-KEM-768", propq.c_str());
        if (kem == nullptr)
            continue; /* 3.0's default provider has no ML-KEM */
        EVP_KEM_free(kem);
        for (unsigned bits : {512u, 768u, 1024u})
            for (int op = 0; op < (bits == 768 ? EVP_NOPS : 4); op++) {
                std::string name = "evp_" + std::string(prov) + "/mlkem" +
                                   std::to_string(bits) + "/" +
                                   evp_op_names[op];
                benchmark::RegisterBenchmark(
                    name.c_str(), [=](benchmark::State &st) {
                        bm_evp(st, EvpPeer{libctx, propq}, bits, op);
                    });
            }
    }
    for (const char *prov : {"default", "mlkem"}) {
        std::string propq = std::string("provider=") + prov;
        EVP_KEM *kem = EVP_KEM_fetch(libctx, "X25519MLKEM768", propq.c_str());
        if (kem == nullptr)
            continue;
        EVP_KEM_free(kem);
        for (int op = 0; op < H_NOPS; op++) {
            std::string name = "evp_" + std::string(prov) + "/x25519mlkem768/" +
                               hybrid_op_names[op];
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &st) {
                bm_hybrid(st, EvpPeer{libctx, propq}, op);
            });
        }
    }
#ifdef MLKEM_X25519_NATIVE
    benchmark::RegisterBenchmark("x25519/public_key", [](benchmark::State &st) {
        bm_x25519_public(st, true);
    });
    benchmark::RegisterBenchmark("evp_default/x25519/public_key",
                                 [](benchmark::State &st) { bm_x25519_public(st, false); });
#endif
    for (int op = 0; op < X_NOPS; op++) {
        std::string name = std::string("evp_default/x25519/") +
                           x25519_op_names[op];
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &st) {
            bm_x25519(st, EvpPeer{libctx, "provider=default"}, op);
        });
    }
    return 0;
}

const int evp_registered = register_evp_peers();

} // namespace
