/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_poly.cc: the polynomial kernels (kem/poly_kernels.h) of each
 * backend in rdtsc ticks per call: forward and inverse NTT, the
 * multiplication cache, MultiplyNTTs accumulated over a vector of k = 3
 * polynomials (one row of Â^T·ŝ for ML-KEM-768), the encodings and
 * compressions ML-KEM-768 uses, CBD, and SampleNTT's rejection step over
 * 504 bytes (three SHAKE128 blocks, the usual amount per matrix entry).
 */
#include <cstring>

#include "bench/bench_util.h"

extern "C" {
#include "kem/poly_kernels.h"
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
        mlkem_poly_kernels()->ntt(r);
    });
    benchmark::DoNotOptimize(r);
}

static void bm_invntt(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    fill(r, 256);
    mlkem_bench_ticks(state, [&] { mlkem_poly_kernels()->ntt_inv(r); });
    benchmark::DoNotOptimize(r);
}

static void bm_mulcache(benchmark::State &state)
{
    alignas(32) int16_t b[256], c[128];
    fill(b, 256);
    mlkem_bench_ticks(state, [&] { mlkem_poly_kernels()->mulcache(c, b); });
    benchmark::DoNotOptimize(c);
}

static void bm_multiply_ntts_acc3(benchmark::State &state)
{
    alignas(32) int16_t a[3 * 256], b[3 * 256], bc[3 * 128], r[256];
    fill(a, 3 * 256);
    fill(b, 3 * 256);
    for (unsigned i = 0; i < 3; i++)
        mlkem_poly_kernels()->mulcache(bc + 128 * i, b + 256 * i);
    mlkem_bench_ticks(state, [&] {
        mlkem_poly_kernels()->multiply_ntts_acc(r, a, b, bc, 3);
    });
    benchmark::DoNotOptimize(r);
}

static void bm_byte_encode_12(benchmark::State &state)
{
    alignas(32) int16_t a[256];
    uint8_t out[384];
    fill(a, 256);
    mlkem_bench_ticks(state, [&] {
        mlkem_poly_kernels()->byte_encode_12(out, a);
        a[0] ^= out[0] & 1;
    });
    benchmark::DoNotOptimize(out);
}

static void bm_byte_decode_12(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    uint8_t in[384];
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 29u + 3u);
    mlkem_bench_ticks(state, [&] {
        uint32_t ok = mlkem_poly_kernels()->byte_decode_12(r, in);
        in[0] ^= (uint8_t)(ok & 1);
    });
    benchmark::DoNotOptimize(r);
}

/* ML-KEM-768's compressions: d = 10 (u), 4 (v), 1 (the message). */
template <unsigned D> static void bm_compress(benchmark::State &state)
{
    alignas(32) int16_t a[256];
    uint8_t out[32 * 11];
    fill(a, 256);
    mlkem_bench_ticks(state, [&] {
        mlkem_poly_kernels()->byte_encode_compress(out, a, D);
        a[0] ^= out[0] & 1;
    });
    benchmark::DoNotOptimize(out);
}

template <unsigned D> static void bm_decompress(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    uint8_t in[32 * 11];
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 29u + 3u);
    mlkem_bench_ticks(state, [&] {
        mlkem_poly_kernels()->decompress_byte_decode(r, in, D);
        in[0] ^= (uint8_t)(r[0] & 1);
    });
    benchmark::DoNotOptimize(r);
}

static void bm_cbd2(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    uint8_t buf[128];
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 73u + 5u);
    mlkem_bench_ticks(state, [&] {
        mlkem_poly_kernels()->sample_poly_cbd(r, buf, 2);
        buf[0] ^= (uint8_t)r[0];
    });
    benchmark::DoNotOptimize(r);
}

static void bm_rej_uniform(benchmark::State &state)
{
    alignas(32) int16_t r[256];
    uint8_t buf[504];
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 73u + 5u);
    mlkem_bench_ticks(state, [&] {
        unsigned n =
            mlkem_poly_kernels()->sample_ntt_rej(r, 256, buf, sizeof(buf));
        buf[0] ^= (uint8_t)n;
    });
    benchmark::DoNotOptimize(r);
}

MLKEM_BENCH_REGISTER("poly/ntt", bm_ntt);
MLKEM_BENCH_REGISTER("poly/ntt_inv", bm_invntt);
MLKEM_BENCH_REGISTER("poly/mulcache", bm_mulcache);
MLKEM_BENCH_REGISTER("poly/multiply_ntts_acc3", bm_multiply_ntts_acc3);
MLKEM_BENCH_REGISTER("poly/byte_encode_12", bm_byte_encode_12);
MLKEM_BENCH_REGISTER("poly/byte_decode_12", bm_byte_decode_12);
MLKEM_BENCH_REGISTER("poly/compress_d10", bm_compress<10>);
MLKEM_BENCH_REGISTER("poly/compress_d4", bm_compress<4>);
MLKEM_BENCH_REGISTER("poly/compress_d1", bm_compress<1>);
MLKEM_BENCH_REGISTER("poly/decompress_d10", bm_decompress<10>);
MLKEM_BENCH_REGISTER("poly/decompress_d4", bm_decompress<4>);
MLKEM_BENCH_REGISTER("poly/decompress_d1", bm_decompress<1>);
MLKEM_BENCH_REGISTER("poly/cbd2", bm_cbd2);
MLKEM_BENCH_REGISTER("poly/sample_ntt_rej504", bm_rej_uniform);
