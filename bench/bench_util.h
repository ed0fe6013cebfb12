/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_util.h: tick counting and backend registration for mlkem_bench.
 *
 * Ticks: rdtsc on x86-64 (the invariant TSC, not core cycles when the core
 * boosts; compare ratios on one machine), clock_gettime nanoseconds
 * elsewhere. Every benchmark times its operation in batches and reports the
 * median ticks per operation of all batches as the counter "ticks"; with
 * --benchmark_repetitions=N take the minimum of the N medians (the machine
 * is shared and noisy).
 *
 * Backends: MLKEM_BENCH_REGISTER(name, fn) registers "name/<backend>" for
 * every backend compiled in that this CPU can run (arch/dispatch.h); each
 * run installs its backend first and labels itself with the backend name.
 * mlkem_bench links the release kernel (mlkem_kernel), the same objects as
 * mlkem.so, not the MLKEM_TESTING twin with its valgrind annotations.
 */
#ifndef MLKEM_BENCH_UTIL_H
#define MLKEM_BENCH_UTIL_H

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#if !defined(__x86_64__)
#include <time.h>
#endif

extern "C" {
#include "arch/dispatch.h"
}

#ifdef MLKEM_TESTING
#error "bench/ links the release kernel (mlkem_kernel), not the testing one"
#endif

/* The tick counter. */
static inline uint64_t mlkem_bench_ticks_now()
{
#if defined(__x86_64__)
    /* rdtsc by hand: intrinsics headers belong to arch/<isa>/ only. */
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Run op() `batch` times per benchmark iteration, timing each batch; report
 * the median ticks per op as "ticks" and the ops as items. */
template <class Op>
static void mlkem_bench_ticks(benchmark::State &state, Op &&op,
                              unsigned batch = 16)
{
    std::vector<double> per_op;
    per_op.reserve(1 << 16);
    for (auto _ : state) {
        const uint64_t t0 = mlkem_bench_ticks_now();
        for (unsigned i = 0; i < batch; i++)
            op();
        const uint64_t t1 = mlkem_bench_ticks_now();
        per_op.push_back((double)(t1 - t0) / batch);
    }
    if (!per_op.empty()) {
        auto mid = per_op.begin() + (std::ptrdiff_t)(per_op.size() / 2);
        std::nth_element(per_op.begin(), mid, per_op.end());
        state.counters["ticks"] = *mid;
    }
    state.SetItemsProcessed((int64_t)state.iterations() * batch);
    state.SetLabel(mlkem_arch_current());
}

/* Register fn as "name/<backend>" for each backend this CPU can run. */
static inline int mlkem_bench_register(const char *name,
                                       void (*fn)(benchmark::State &))
{
    size_t n;
    const struct mlkem_arch_backend *const *all = mlkem_arch_backends(&n);
    for (size_t i = n; i-- > 0;) {
        const char *b = all[i]->name;
        if (!mlkem_arch_runnable(all[i]))
            continue;
        std::string full = std::string(name) + "/" + b;
        benchmark::RegisterBenchmark(full.c_str(),
                                     [fn, b](benchmark::State &st) {
                                         mlkem_arch_use(b);
                                         fn(st);
                                     });
    }
    return 0;
}

#define MLKEM_BENCH_CAT_(a, b) a##b
#define MLKEM_BENCH_CAT(a, b) MLKEM_BENCH_CAT_(a, b)
/* At file scope: MLKEM_BENCH_REGISTER("keccak/f1600", bm_keccakf1600); */
#define MLKEM_BENCH_REGISTER(name, fn)                                        \
    static const int MLKEM_BENCH_CAT(mlkem_bench_reg_, __LINE__) =            \
        mlkem_bench_register(name, fn)

#endif /* MLKEM_BENCH_UTIL_H */
