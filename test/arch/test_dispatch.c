/*
 * test_dispatch.c: arch/dispatch.c chooses what the CPU can run, the best
 * of it by default, and honours MLKEM_BACKEND.
 *
 * The CPU's features are read independently of dispatch.c's CPUID code,
 * from the kernel's /proc/cpuinfo flags (which the kernel also clears when
 * the OS does not enable the register state): avx2 needs avx2, bmi1, bmi2;
 * avx512 needs avx512f and avx512vl. The same binary is registered three
 * times (test/arch/CMakeLists.txt): with no MLKEM_BACKEND, with
 * MLKEM_BACKEND=portable, and with an unknown name (ignored).
 *
 * Usage: arch_test_dispatch [EXPECTED]   EXPECTED: "best" (default) or a
 * backend name the first mlkem_backend() call must return.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/backend.h"
#include "test/common/test_util.h"

#define CHECK TEST_CHECK

#if defined(__x86_64__)
#include "arch/x86_64.h"

/* 1 if /proc/cpuinfo's first "flags" line lists every flag in `want`
 * (space separated), 0 if not, -1 if the file cannot be read. */
static int cpu_flags_have(const char *want)
{
    static char line[8192];
    FILE *f = fopen("/proc/cpuinfo", "r");
    int found = 0;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "flags", 5) == 0) {
            found = 1;
            break;
        }
    }
    fclose(f);
    if (!found)
        return -1;
    char w[256];
    snprintf(w, sizeof(w), "%s", want);
    for (char *save = NULL, *t = strtok_r(w, " ", &save); t != NULL;
         t = strtok_r(NULL, " ", &save)) {
        char pat[64];
        snprintf(pat, sizeof(pat), " %s", t);
        const char *p = line;
        int ok = 0;
        while ((p = strstr(p, pat)) != NULL) {
            const char e = p[strlen(pat)];
            if (e == ' ' || e == '\n' || e == '\0') {
                ok = 1;
                break;
            }
            p += strlen(pat);
        }
        if (!ok)
            return 0;
    }
    return 1;
}
#endif

int main(int argc, char **argv)
{
    const char *expected = argc > 1 ? argv[1] : "best";
    const char *best = "portable";
    int have_avx2 = 0, have_avx512 = 0;

#if defined(__x86_64__)
    have_avx2 = cpu_flags_have("avx2 bmi1 bmi2");
    have_avx512 = cpu_flags_have("avx2 bmi1 bmi2 avx512f avx512vl");
    if (have_avx2 < 0 || have_avx512 < 0)
        test_skip("/proc/cpuinfo has no flags line");
    {
        const unsigned f = mlkem_x86_cpu();
        CHECK(!!(f & MLKEM_X86_AVX2) == have_avx2,
              "CPUID+XGETBV says avx2=%d, /proc/cpuinfo says %d",
              !!(f & MLKEM_X86_AVX2), have_avx2);
        CHECK(!!(f & MLKEM_X86_AVX512) == have_avx512,
              "CPUID+XGETBV says avx512=%d, /proc/cpuinfo says %d",
              !!(f & MLKEM_X86_AVX512), have_avx512);
    }
    best = have_avx512 ? "avx512" : have_avx2 ? "avx2" : "portable";
#endif
    printf("CPU: avx2 %s, avx512 %s; best backend %s\n",
           have_avx2 ? "yes" : "no", have_avx512 ? "yes" : "no", best);

    /* The first call detects (and reads MLKEM_BACKEND). */
    const char *got = mlkem_backend()->name;
    const char *want = strcmp(expected, "best") == 0 ? best : expected;
    printf("MLKEM_BACKEND=%s: chosen %s\n",
           getenv("MLKEM_BACKEND") ? getenv("MLKEM_BACKEND") : "(unset)", got);
    CHECK(strcmp(got, want) == 0, "chosen backend %s, want %s", got, want);

    /* Forcing: exactly the runnable ones. */
    CHECK(mlkem_backend_force("portable") == 1, "portable not forceable");
    CHECK(mlkem_backend_force("avx2") == have_avx2, "force avx2 != %d",
          have_avx2);
    CHECK(mlkem_backend_force("avx512") == have_avx512, "force avx512 != %d",
          have_avx512);
    CHECK(mlkem_backend_force("neon") == 0, "neon forceable on this CPU");
    CHECK(mlkem_backend_force("bogus") == 0, "unknown name accepted");

    /* Every table is complete: no NULL slot, sane grouping policy. */
    const char *names[] = {"portable", "avx2", "avx512"};
    for (unsigned i = 0; i < 3; i++) {
        if (!mlkem_backend_force(names[i]))
            continue;
        const struct mlkem_backend *b = mlkem_backend();
        CHECK(b->keccakf1600 && b->x4_init && b->x4_xor_bytes &&
                  b->x4_extract_bytes && b->x4_permute && b->x8_init &&
                  b->x8_xor_bytes && b->x8_extract_bytes && b->x8_permute &&
                  b->ntt && b->invntt && b->basemul_acc && b->rej_uniform,
              "%s: a NULL slot", names[i]);
        CHECK(b->x4_min >= 1 && b->x4_min <= 4, "%s: x4_min %u", names[i],
              b->x4_min);
        CHECK(b->x8_min == 0 || (b->x8_min > 4 && b->x8_min <= 8),
              "%s: x8_min %u", names[i], b->x8_min);
    }
    return test_finish("arch_dispatch");
}
