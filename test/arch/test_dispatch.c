/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dispatch.c: arch/dispatch.c chooses what the CPU can run, the best
 * of it by default, and honours MLKEM_BACKEND.
 *
 * The CPU's features are read independently of dispatch.c's detection:
 *   x86-64: from the kernel's /proc/cpuinfo flags (which the kernel also
 *     clears when the OS does not enable the register state): avx2 needs
 *     avx2, bmi1, bmi2, popcnt; avx512 needs avx512f and avx512vl;
 *     avx512-vbmi2 also avx512bw, avx512vbmi and avx512_vbmi2 (and its
 *     Keccak grouping differs on GenuineIntel CPUs: the vendor_id line).
 *   AArch64: /proc/cpuinfo is no witness under qemu-user (it shows the
 *     host's), so the hardware capabilities are read raw from
 *     /proc/self/auxv (not through getauxval) and the SHA3 extension is
 *     also probed by executing an EOR3 instruction under a SIGILL handler;
 *     the three (auxv, probe, dispatch.c) must agree. With --cpu sha3 or
 *     --cpu nosha3 the test also states which case the CPU must be (the
 *     cross build runs it under qemu's "max" model, which has SHA3, and
 *     under "cortex-a72", which does not), so both HWCAP cases are proven,
 *     not just whichever the machine offers.
 * The same binary is registered several times (test/arch/CMakeLists.txt):
 * with no MLKEM_BACKEND, with MLKEM_BACKEND=portable (and on AArch64 neon
 * and neon-sha3), and with an unknown or unrunnable name (ignored).
 *
 * Usage: arch_test_dispatch [EXPECTED] [--cpu sha3|nosha3]
 *   EXPECTED: "best" (default) or the name of the backend the load-time
 *   choice must have installed.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, sigaction, sigsetjmp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/dispatch.h"
#include "kem/mlkem.h"
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
/* 1 if /proc/cpuinfo's first "vendor_id" line names `vendor`. */
static int cpu_vendor_is(const char *vendor)
{
    char line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    int is = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "vendor_id", 9) == 0) {
            is = strstr(line, vendor) != NULL;
            break;
        }
    }
    fclose(f);
    return is;
}
#endif

#if defined(__aarch64__)
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>

#include "arch/aarch64.h"

/* AT_HWCAP from the raw auxiliary vector, or -1 if unreadable. */
static long long auxv_hwcap(void)
{
    uint64_t kv[2];
    long long hw = -1;
    FILE *f = fopen("/proc/self/auxv", "rb");

    if (f == NULL)
        return -1;
    while (fread(kv, sizeof(kv), 1, f) == 1 && kv[0] != 0 /* AT_NULL */)
        if (kv[0] == 16 /* AT_HWCAP */)
            hw = (long long)kv[1];
    fclose(f);
    return hw;
}

static sigjmp_buf probe_env;

static void on_sigill(int sig)
{
    (void)sig;
    siglongjmp(probe_env, 1);
}

/* 1 if EOR3 (FEAT_SHA3) executes, 0 if it raises SIGILL. The instruction
 * is emitted as a raw word (EOR3 V0.16B, V0.16B, V0.16B, V0.16B), so this
 * file needs no target flag. */
static int probe_sha3(void)
{
    struct sigaction sa, old;
    volatile int ok = 0;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigill;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, &old);
    if (sigsetjmp(probe_env, 1) == 0) {
        __asm__ volatile(".inst 0xce000000" ::: "v0");
        ok = 1;
    }
    sigaction(SIGILL, &old, NULL);
    return ok;
}
#endif

int main(int argc, char **argv)
{
    const char *expected = "best", *cpu = NULL;
    const char *best = "portable";
    int have_avx2 = 0, have_avx512 = 0, have_vbmi2 = 0, have_neon = 0;
    int have_sha3 = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cpu") == 0 && i + 1 < argc)
            cpu = argv[++i];
        else
            expected = argv[i];
    }

#if defined(__x86_64__)
    have_avx2 = cpu_flags_have("avx2 bmi1 bmi2 popcnt");
    have_avx512 = cpu_flags_have("avx2 bmi1 bmi2 popcnt avx512f avx512vl");
    have_vbmi2 = cpu_flags_have("avx2 bmi1 bmi2 popcnt avx512f avx512vl "
                                "avx512bw avx512vbmi avx512_vbmi2");
    if (have_avx2 < 0 || have_avx512 < 0 || have_vbmi2 < 0)
        test_skip("/proc/cpuinfo has no flags line");
    {
        const unsigned f = mlkem_arch_cpu_features();
        TEST_CHECK(!!(f & MLKEM_X86_AVX2) == have_avx2,
              "CPUID+XGETBV says avx2=%d, /proc/cpuinfo says %d",
              !!(f & MLKEM_X86_AVX2), have_avx2);
        TEST_CHECK(!!(f & MLKEM_X86_AVX512) == have_avx512,
              "CPUID+XGETBV says avx512=%d, /proc/cpuinfo says %d",
              !!(f & MLKEM_X86_AVX512), have_avx512);
        TEST_CHECK(!!(f & MLKEM_X86_VBMI2) == have_vbmi2,
              "CPUID+XGETBV says avx512-vbmi2=%d, /proc/cpuinfo says %d",
              !!(f & MLKEM_X86_VBMI2), have_vbmi2);
        if (have_avx2) {
            const int intel = cpu_vendor_is("GenuineIntel");
            TEST_CHECK(!!(f & MLKEM_X86_INTEL) == intel,
                  "CPUID says Intel=%d, /proc/cpuinfo says %d",
                  !!(f & MLKEM_X86_INTEL), intel);
        }
    }
    best = have_vbmi2    ? "avx512-vbmi2"
           : have_avx512 ? "avx512"
           : have_avx2   ? "avx2"
                         : "portable";
    printf("CPU: avx2 %s, avx512 %s, avx512-vbmi2 %s; best backend %s\n",
           have_avx2 ? "yes" : "no", have_avx512 ? "yes" : "no",
           have_vbmi2 ? "yes" : "no", best);
#elif defined(__aarch64__)
    {
        const long long hw = auxv_hwcap();
        const int probe = probe_sha3();
        if (hw < 0)
            test_skip("/proc/self/auxv unreadable");
        have_neon = (hw & (1 << 1)) != 0;  /* HWCAP_ASIMD */
        have_sha3 = (hw & (1 << 17)) != 0; /* HWCAP_SHA3 */
        printf("CPU: AT_HWCAP %#llx: asimd %s, sha3 %s; EOR3 %s\n", hw,
               have_neon ? "yes" : "no", have_sha3 ? "yes" : "no",
               probe ? "executes" : "raises SIGILL");
        TEST_CHECK(probe == have_sha3,
                   "EOR3 %s but AT_HWCAP says sha3=%d",
                   probe ? "executes" : "faults", have_sha3);
#if defined(MLKEM_HAVE_NEON)
        const unsigned f = mlkem_arch_cpu_features();
        TEST_CHECK(!!(f & MLKEM_AARCH64_NEON) == have_neon,
                   "dispatch says neon=%d, auxv says %d",
                   !!(f & MLKEM_AARCH64_NEON), have_neon);
        TEST_CHECK(!!(f & MLKEM_AARCH64_SHA3) == (have_neon && have_sha3),
                   "dispatch says sha3=%d, auxv says %d",
                   !!(f & MLKEM_AARCH64_SHA3), have_sha3);
        best = have_neon && have_sha3 ? "neon-sha3"
               : have_neon            ? "neon"
                                      : "portable";
#else
        have_neon = have_sha3 = 0; /* built without arch/neon/ */
#endif
    }
    printf("best backend %s\n", best);
#endif
    if (cpu != NULL) {
        TEST_CHECK(strcmp(cpu, "sha3") == 0 || strcmp(cpu, "nosha3") == 0,
                   "--cpu %s: want sha3 or nosha3", cpu);
        TEST_CHECK(have_sha3 == (strcmp(cpu, "sha3") == 0),
                   "this CPU has sha3=%d, the test was registered for %s "
                   "(QEMU_CPU=%s)",
                   have_sha3, cpu,
                   getenv("QEMU_CPU") ? getenv("QEMU_CPU") : "(unset)");
    }

    /* The load-time constructor installed it (reading MLKEM_BACKEND);
     * keccak/ and kem/ must agree. */
    const char *got = mlkem_arch_current();
    const char *want = strcmp(expected, "best") == 0 ? best : expected;
    printf("MLKEM_BACKEND=%s: chosen %s\n",
           getenv("MLKEM_BACKEND") ? getenv("MLKEM_BACKEND") : "(unset)", got);
    TEST_CHECK(strcmp(got, want) == 0, "chosen backend %s, want %s", got, want);
    TEST_CHECK(strcmp(mlkem_keccak_kernels()->name, want) == 0,
          "keccak/ runs %s, want %s", mlkem_keccak_kernels()->name, want);
    TEST_CHECK(strcmp(mlkem_arch_detect()->name, want) == 0,
          "mlkem_arch_detect() says %s, want %s", mlkem_arch_detect()->name,
          want);
    TEST_CHECK(strcmp(mlkem_backend_name(), want) == 0,
          "mlkem_backend_name() says %s, want %s", mlkem_backend_name(), want);

    /* Installing: exactly the runnable ones. */
    TEST_CHECK(mlkem_arch_use("portable") == 1, "portable not installable");
    TEST_CHECK(mlkem_arch_use("avx2") == have_avx2, "use avx2 != %d", have_avx2);
    TEST_CHECK(mlkem_arch_use("avx512") == have_avx512, "use avx512 != %d",
          have_avx512);
    TEST_CHECK(mlkem_arch_use("avx512-vbmi2") == have_vbmi2,
          "use avx512-vbmi2 != %d", have_vbmi2);
#if defined(__x86_64__)
    /* avx512-vbmi2's Keccak grouping follows the vendor (arch/dispatch.c:
     * x8 for batches of five or more streams on GenuineIntel only). */
    if (have_vbmi2) {
        const int intel = cpu_vendor_is("GenuineIntel");
        TEST_CHECK(mlkem_keccak_kernels()->x8_min == (intel ? 5 : 0),
              "avx512-vbmi2 on %s: x8_min %u", intel ? "Intel" : "non-Intel",
              mlkem_keccak_kernels()->x8_min);
    }
#endif
    TEST_CHECK(mlkem_arch_use("neon") == have_neon, "use neon != %d",
               have_neon);
    TEST_CHECK(mlkem_arch_use("neon-sha3") == (have_neon && have_sha3),
               "use neon-sha3 != %d", have_neon && have_sha3);
    TEST_CHECK(mlkem_arch_use("bogus") == 0, "unknown name accepted");

    /* Every table is complete: its sets carry its name, no NULL slot, a
     * sane grouping policy; so is every variant; what a backend needs is
     * what runnable() says (a table lookup). */
    size_t n;
    const struct mlkem_arch_backend *const *all = mlkem_arch_backends(&n);
    TEST_CHECK(n >= 1 && strcmp(all[n - 1]->name, "portable") == 0,
          "the last backend is not portable");
    TEST_CHECK(all[n - 1]->needs == 0 && all[n - 1]->variant == NULL,
          "portable needs %#x", all[n - 1]->needs);
    const unsigned features = mlkem_arch_cpu_features();
    for (size_t i = 0; i < 2 * n; i++) {
        const struct mlkem_arch_backend *b =
            i < n ? all[i] : all[i - n]->variant;
        if (b == NULL)
            continue;
        const struct mlkem_keccak_kernels *kk = b->keccak;
        const struct mlkem_poly_kernels *pk = b->poly;
        TEST_CHECK(strcmp(kk->name, b->name) == 0 && strcmp(pk->name, b->name) == 0,
              "%s: sets named %s / %s", b->name, kk->name, pk->name);
        TEST_CHECK(kk->f1600 && kk->x4_init && kk->x4_xor_bytes &&
                  kk->x4_extract_bytes && kk->x4_permute && kk->x4_permute_lanes &&
                  kk->x4_clear_lane && kk->x8_init && kk->x8_xor_bytes &&
                  kk->x8_extract_bytes && kk->x8_permute && kk->x8_clear_lane,
              "%s: a NULL Keccak slot", b->name);
        TEST_CHECK(pk->ntt && pk->ntt_inv && pk->ntt_pack && pk->mulcache &&
                  pk->multiply_ntts_acc && pk->poly_reduce &&
                  pk->poly_tomont && pk->byte_encode_12 &&
                  pk->byte_decode_12 && pk->byte_encode_compress &&
                  pk->decompress_byte_decode && pk->sample_poly_cbd &&
                  pk->sample_ntt_rej && pk->sample_ntt_x4,
              "%s: a NULL polynomial slot", b->name);
        /* x4_min 0 (never lanes) is the portable set's, whose x4 call is
         * four single permutations; a vector set uses lanes from 1 to 4
         * streams on. */
        if (kk == &mlkem_keccak_kernels_portable)
            TEST_CHECK(kk->x4_min == 0, "%s: x4_min %u", b->name, kk->x4_min);
        else
            TEST_CHECK(kk->x4_min >= 1 && kk->x4_min <= 4, "%s: x4_min %u",
                  b->name, kk->x4_min);
        TEST_CHECK(kk->x8_min == 0 || (kk->x8_min > 4 && kk->x8_min <= 8),
              "%s: x8_min %u", b->name, kk->x8_min);
        TEST_CHECK(mlkem_arch_runnable(b) == ((features & b->needs) == b->needs),
              "%s: runnable %d, needs %#x, CPU %#x", b->name,
              mlkem_arch_runnable(b), b->needs, features);
        if (i >= n) /* a variant needs more than the entry it replaces */
            TEST_CHECK(strcmp(b->name, all[i - n]->name) == 0 &&
                           (b->needs & all[i - n]->needs) == all[i - n]->needs &&
                           b->needs != all[i - n]->needs &&
                           b->variant == NULL,
                  "%s: variant needs %#x, entry %#x", b->name, b->needs,
                  all[i - n]->needs);
    }
    /* The CPU was read once (at load time), however often it is asked. */
    for (int i = 0; i < 3; i++)
        (void)mlkem_arch_runnable(all[0]);
    TEST_CHECK(mlkem_arch_cpu_reads() == 1, "the CPU was read %u times",
          mlkem_arch_cpu_reads());
    return test_finish("arch_dispatch");
}
