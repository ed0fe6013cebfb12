/*
 * bench_poly.cc: the polynomial kernels of the backend table
 * (arch/backend.h) in rdtsc ticks per call: forward and inverse NTT, the
 * NTT-domain multiply-accumulate of a vector of k = 3 polynomials (one row
 * of Â^T·ŝ for ML-KEM-768) and SampleNTT's rejection step over 504 bytes
 * (three SHAKE128 blocks, the usual amount per matrix entry).
 */
#include <cstring>

#include "bench/bench_util.h"

extern "C" {
#include "arch/backend.h"
}

static void fill(int16_t *r, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        r[i] = (int16_t)((i * 1337u + 11u) % 3329u);
}

static void bm_ntt(benchmark::State &state)
{
    alignas(32) int16_t src[256], r[256];
    fill(src, 256);
    mlkem_bench_ticks(state, [&] {
        std::memcpy(r, src, sizeof(r)); /* inputs within |a| < q */
        mlkem_backend()->ntt(r);
    });
    benchmark::DoNotOptimize(r);
}

static void bm_invntt(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    fill(r, 256);
    mlkem_bench_ticks(state, [&] { mlkem_backend()->invntt(r); });
    benchmark::DoNotOptimize(r);
}

static void bm_basemul_acc3(benchmark::State &state)
{
    alignas(32) int16_t a[3 * 256], b[3 * 256], r[256];
    fill(a, 3 * 256);
    fill(b, 3 * 256);
    mlkem_bench_ticks(state, [&] { mlkem_backend()->basemul_acc(r, a, b, 3); });
    benchmark::DoNotOptimize(r);
}

static void bm_rej_uniform(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    uint8_t buf[504];
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 73u + 5u);
    mlkem_bench_ticks(state, [&] {
        unsigned n = mlkem_backend()->rej_uniform(r, 256, buf, sizeof(buf));
        buf[0] ^= (uint8_t)n;
    });
    benchmark::DoNotOptimize(r);
}

MLKEM_BENCH_REGISTER("poly/ntt", bm_ntt);
MLKEM_BENCH_REGISTER("poly/invntt", bm_invntt);
MLKEM_BENCH_REGISTER("poly/basemul_acc3", bm_basemul_acc3);
MLKEM_BENCH_REGISTER("poly/rej_uniform504", bm_rej_uniform);
