/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_main.cc: the main of mlkem_bench. The bench_*.cc files register
 * their benchmarks at static-initialisation time (MLKEM_BENCH_REGISTER in
 * bench_util.h); this prints the backend the CPU would pick and runs them.
 */
#include <cstdio>

#include "bench/bench_util.h"

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::AddCustomContext("mlkem_ticks",
#if defined(__x86_64__)
                                "rdtsc"
#else
                                "clock_gettime ns"
#endif
    );
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
