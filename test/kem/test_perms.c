/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_perms.c: Keccak-f[1600] permutations per operation, counted.
 *
 * The binary is linked with --wrap for the portable permutation kernels
 * (test/kem/CMakeLists.txt), so every single-state permutation and every
 * x4 / x8 call (4 / 8 permutations) is counted as the kernel really runs
 * it. The expected counts follow from FIPS 203's sizes (§4.1, §8):
 *   sponge over L input bytes at rate R: floor(L / R) + 1 permutations up
 *   to the first output block, +1 per further block;
 *   SampleNTT: max(3, blocks actually needed) per entry, where "needed" is
 *   measured with an independent SampleNTT (so the rare 4th block is
 *   counted exactly and a wasted lane would show up as a surplus).
 * ML-KEM-768: keygen 43, encaps from ek bytes 44, decaps with a parsed key
 * 17, decaps from dk bytes 53 (plus any 4th SampleNTT blocks).
 */
#include "arch/dispatch.h"
#include "kem/mlkem.h"
#include "test/kem/kem_test.h"

static unsigned long perms;
static int nested;

void __real_mlkem_keccak_f1600_portable(uint64_t s[25]);
void __real_mlkem_keccak_x4_permute_portable(mlkem_keccak_x4 *st);
void __real_mlkem_keccak_x8_permute_portable(mlkem_keccak_x8 *st);
void __wrap_mlkem_keccak_f1600_portable(uint64_t s[25]);
void __wrap_mlkem_keccak_x4_permute_portable(mlkem_keccak_x4 *st);
void __wrap_mlkem_keccak_x8_permute_portable(mlkem_keccak_x8 *st);

void __wrap_mlkem_keccak_f1600_portable(uint64_t s[25])
{
    if (!nested)
        perms++;
    __real_mlkem_keccak_f1600_portable(s);
}

void __wrap_mlkem_keccak_x4_permute_portable(mlkem_keccak_x4 *st)
{
    perms += 4;
    nested++;
    __real_mlkem_keccak_x4_permute_portable(st);
    nested--;
}

void __wrap_mlkem_keccak_x8_permute_portable(mlkem_keccak_x8 *st)
{
    perms += 8;
    nested++;
    __real_mlkem_keccak_x8_permute_portable(st);
    nested--;
}

static unsigned long sponge(size_t len, size_t rate, size_t out)
{
    return len / rate + 1 + (out > rate ? (out - 1) / rate : 0);
}

static unsigned long matrix_perms(const mlkem_params *p, const uint8_t rho[32])
{
    unsigned long n = 0;
    for (unsigned i = 0; i < p->k; i++)
        for (unsigned j = 0; j < p->k; j++) {
            int16_t a[256];
            unsigned used = kt_sample_ntt_ref(a, rho, (uint8_t)i, (uint8_t)j);
            unsigned blocks = (used + 167) / 168;
            n += blocks < 3 ? 3 : blocks;
        }
    return n;
}

static unsigned long prf_perms(const mlkem_params *p, int encrypt)
{
    if (!encrypt)
        return 2 * p->k * sponge(33, 136, 64 * p->eta1);
    return p->k * sponge(33, 136, 64 * p->eta1) +
           (p->k + 1) * sponge(33, 136, 64 * p->eta2);
}

int main(void)
{
    test_rng rng;
    static mlkem_key key;
    test_rng_init(&rng, "test_perms");

    /* The portable backend is the one whose x4 costs 4 permutations. */
    if (!mlkem_arch_use("portable"))
        test_skip("portable backend not available");

    for (unsigned v = 0; v < 3; v++) {
        const mlkem_params *p = mlkem_params_get((mlkem_variant)v);
        for (unsigned it = 0; it < 30; it++) {
            uint8_t d[32], z[32], m[32], K[32], K2[32];
            uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
            uint8_t c[MLKEM_MAX_CT_BYTES];
            unsigned long kg, en, de_key, de_bytes, set_dk;
            for (unsigned i = 0; i < 32; i++) {
                d[i] = (uint8_t)i;
                z[i] = (uint8_t)(32 + i);
                m[i] = (uint8_t)(64 + i);
            }
            if (it > 0) {
                test_rng_bytes(&rng, d, 32);
                test_rng_bytes(&rng, m, 32);
            }
            perms = 0;
            TEST_CHECK(mlkem_keygen_internal(p, ek, dk, d, z) == MLKEM_OK, "keygen");
            kg = perms;
            perms = 0;
            TEST_CHECK(mlkem_encaps_internal(p, c, K, ek, p->ek_bytes, m) == MLKEM_OK,
                  "encaps");
            en = perms;
            perms = 0;
            mlkem_key_init(&key, p);
            TEST_CHECK(mlkem_key_set_dk(&key, dk, p->dk_bytes) == MLKEM_OK, "set_dk");
            set_dk = perms;
            perms = 0;
            TEST_CHECK(mlkem_key_decaps(&key, K2, c, p->ct_bytes) == MLKEM_OK,
                  "decaps");
            de_key = perms;
            perms = 0;
            TEST_CHECK(mlkem_decaps_internal(p, K2, c, p->ct_bytes, dk, p->dk_bytes) ==
                      MLKEM_OK,
                  "decaps bytes");
            de_bytes = perms;
            mlkem_key_cleanse(&key);

            const uint8_t *rho = ek + 384 * p->k;
            const unsigned long mat = matrix_perms(p, rho);
            const unsigned long h = sponge(p->ek_bytes, 136, 32);
            const unsigned long g = 1;
            const unsigned long j = sponge(32 + p->ct_bytes, 136, 32);
            const unsigned long want_kg = g + mat + prf_perms(p, 0) + h;
            const unsigned long want_en = h + mat + g + prf_perms(p, 1);
            const unsigned long want_de = g + j + prf_perms(p, 1);
            TEST_CHECK(kg == want_kg, "%s keygen: %lu permutations, want %lu",
                  p->name, kg, want_kg);
            TEST_CHECK(en == want_en, "%s encaps: %lu permutations, want %lu",
                  p->name, en, want_en);
            TEST_CHECK(set_dk == h + mat, "%s set_dk: %lu, want %lu", p->name,
                  set_dk, h + mat);
            TEST_CHECK(de_key == want_de, "%s decaps (key): %lu, want %lu", p->name,
                  de_key, want_de);
            TEST_CHECK(de_bytes == h + mat + want_de,
                  "%s decaps (bytes): %lu, want %lu", p->name, de_bytes,
                  h + mat + want_de);
            if (it == 0)
                printf("%s: keygen %lu, encaps %lu, decaps (key) %lu, decaps "
                       "(bytes) %lu permutations (matrix %lu)\n",
                       p->name, kg, en, de_key, de_bytes, mat);
        }
    }
    /* The table of the performance notes, for the KAT seed (no 4th block). */
    return test_finish("test_perms");
}
