/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_keccak.cc: Keccak-f[1600] single state, x4 and x8 permutations, and
 * SHAKE128 of one block (168 bytes in, 168 bytes out), per backend.
 */
#include <cstring>

#include "bench/bench_util.h"

extern "C" {
#include "keccak/keccak.h"
}

static void bm_keccakf1600(benchmark::State &state)
{
    uint64_t s[25] = {0};
    mlkem_bench_ticks(state, [&] { mlkem_keccak_f1600(s); });
    benchmark::DoNotOptimize(s);
}

static void bm_keccak_x4_permute(benchmark::State &state)
{
    mlkem_keccak_x4 st;
    mlkem_keccak_x4_init(&st);
    mlkem_bench_ticks(state, [&] { mlkem_keccak_x4_permute(&st); });
    benchmark::DoNotOptimize(st);
}

static void bm_keccak_x8_permute(benchmark::State &state)
{
    mlkem_keccak_x8 st;
    mlkem_keccak_x8_init(&st);
    mlkem_bench_ticks(state, [&] { mlkem_keccak_x8_permute(&st); });
    benchmark::DoNotOptimize(st);
}

static void bm_shake128_168(benchmark::State &state)
{
    uint8_t in[MLKEM_SHAKE128_RATE], out[MLKEM_SHAKE128_RATE];
    std::memset(in, 0x5c, sizeof(in));
    mlkem_bench_ticks(state, [&] {
        mlkem_shake128(out, sizeof(out), in, sizeof(in));
        in[0] ^= out[0];
    });
    benchmark::DoNotOptimize(out);
}

MLKEM_BENCH_REGISTER("keccak/f1600", bm_keccakf1600);
MLKEM_BENCH_REGISTER("keccak/x4_permute", bm_keccak_x4_permute);
MLKEM_BENCH_REGISTER("keccak/x8_permute", bm_keccak_x8_permute);
MLKEM_BENCH_REGISTER("keccak/shake128_168", bm_shake128_168);
