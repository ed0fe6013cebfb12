/*
 * dispatch.c: the one place that chooses kernels for this CPU.
 *
 * x86-64: CPUID says what the CPU implements and XGETBV (XCR0) says which
 * register state the OS saves on context switches; a backend is used only
 * when both hold (Intel SDM vol. 1 §13.3 / §15.2: "detection of AVX-512"
 * checks OSXSAVE, then XCR0 bits 1-2 for AVX and 5-7 for AVX-512).
 * Other architectures get the portable backend until their backends land
 * (AArch64: getauxval(AT_HWCAP), arch/neon/).
 *
 * The environment variable MLKEM_BACKEND ("portable", "avx2", "avx512")
 * selects a lower backend than the best one the CPU can run (for
 * benchmarks and for running the whole suite on each backend); a name the
 * CPU cannot run, or an unknown one, is ignored. It is read with
 * secure_getenv, so a setuid program ignores it.
 */
#define _GNU_SOURCE /* secure_getenv */
#include "arch/backend.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(MLKEM_HAVE_X86_BACKENDS)
#include <cpuid.h>

#include "arch/x86_64.h"
#define MLKEM_X86 1
#else
#define MLKEM_X86 0
#endif

const struct mlkem_backend mlkem_backend_portable = {
    .name = "portable",
    .keccakf1600 = mlkem_keccakf1600_portable,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_portable,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_portable,
    .x4_permute = mlkem_keccak_x4_permute_portable,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_portable,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_portable,
    .x8_permute = mlkem_keccak_x8_permute_portable,
    .x4_min = 4,
    .x8_min = 0,
    .ntt = mlkem_ntt_portable,
    .invntt = mlkem_invntt_portable,
    .basemul_acc = mlkem_basemul_acc_portable,
    .rej_uniform = mlkem_rej_uniform_portable,
};

#if MLKEM_X86
/* Interleaved x4 / x8 states (arch/keccak_simd.h); init is a plain zeroing
 * in every layout. A vector x4 call costs less than two single
 * permutations, so two streams already gain.
 * avx2 takes five or more streams as one x8 group: two x4 permutations,
 * the same work as two x4 groups, and so the x8 path of kem/sampling.c
 * runs on every AVX2 machine too.
 * avx512 keeps ML-KEM's streams in 256-bit registers (x4 with AVX-512VL,
 * x8_min 0): on the AVX-512 Xeon the 512-bit x8 permutation (875 ticks)
 * saves only ~290 ticks over two 256-bit x4 ones (581 each), about 0.1% of
 * a TLS handshake, while 512-bit instructions can lower an Intel core's
 * clock for all the code around them (certificates, X25519, the record
 * layer). The x8 slots still hold the 512-bit kernel, tested with the rest
 * (keccak_x8_* callers get it).
 * The slots both backends share: the BMI single state, the zeroing inits,
 * the -mavx2 polynomial kernels. */
#define X86_COMMON_SLOTS                                                      \
    .keccakf1600 = mlkem_keccakf1600_bmi,                                     \
    .x4_init = mlkem_keccak_x4_init_portable,                                 \
    .x8_init = mlkem_keccak_x8_init_portable,                                 \
    .ntt = mlkem_ntt_avx2,                                                    \
    .invntt = mlkem_invntt_avx2,                                              \
    .basemul_acc = mlkem_basemul_acc_avx2,                                    \
    .rej_uniform = mlkem_rej_uniform_portable

static const struct mlkem_backend backend_avx2 = {
    .name = "avx2",
    X86_COMMON_SLOTS,
    .x4_min = 2,
    .x8_min = 5,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_avx2,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_avx2,
    .x4_permute = mlkem_keccak_x4_permute_avx2,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_avx2,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_avx2,
    .x8_permute = mlkem_keccak_x8_permute_avx2,
};

/* The x4 layout is avx2's (same byte functions), permuted with AVX-512VL. */
static const struct mlkem_backend backend_avx512 = {
    .name = "avx512",
    X86_COMMON_SLOTS,
    .x4_min = 2,
    .x8_min = 0,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_avx2,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_avx2,
    .x4_permute = mlkem_keccak_x4_permute_avx512,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_avx512,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_avx512,
    .x8_permute = mlkem_keccak_x8_permute_avx512,
};

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

unsigned mlkem_x86_cpu(void)
{
    unsigned a, b, c, d, f = 0;
    uint64_t xcr0;

    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    /* ECX bit 27 OSXSAVE (XGETBV usable), bit 28 AVX. */
    if (!(c & (1u << 27)) || !(c & (1u << 28)))
        return 0;
    xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) /* SSE and AVX (YMM) state */
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    /* EBX bit 5 AVX2, bit 3 BMI1, bit 8 BMI2. */
    if ((b & (1u << 5)) && (b & (1u << 3)) && (b & (1u << 8)))
        f |= MLKEM_X86_AVX2;
    /* EBX bit 16 AVX512F, bit 31 AVX512VL; XCR0 bits 5-7: opmask, upper
     * halves of ZMM0-15, ZMM16-31. */
    if ((f & MLKEM_X86_AVX2) && (b & (1u << 16)) && (b & (1u << 31)) &&
        (xcr0 & 0xe0) == 0xe0)
        f |= MLKEM_X86_AVX512;
    return f;
}
#endif /* MLKEM_X86 */

/* Best first; the last entry (portable) runs everywhere. */
static const struct mlkem_backend *const backends[] = {
#if MLKEM_X86
    &backend_avx512,
    &backend_avx2,
#endif
    &mlkem_backend_portable,
};
#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

static int runnable(const struct mlkem_backend *b)
{
#if MLKEM_X86
    if (b == &backend_avx512)
        return (mlkem_x86_cpu() & MLKEM_X86_AVX512) != 0;
    if (b == &backend_avx2)
        return (mlkem_x86_cpu() & MLKEM_X86_AVX2) != 0;
#endif
    return b == &mlkem_backend_portable;
}

static const struct mlkem_backend *by_name(const char *name)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        if (strcmp(backends[i]->name, name) == 0 && runnable(backends[i]))
            return backends[i];
    return NULL;
}

/* The choice is a pure function of the CPU and the environment, so a racy
 * first call by two threads stores the same pointer; an atomic keeps the
 * store well defined. */
static const struct mlkem_backend *_Atomic chosen;

static const struct mlkem_backend *detect(void)
{
    const char *env = secure_getenv("MLKEM_BACKEND");
    const struct mlkem_backend *b = env != NULL ? by_name(env) : NULL;

    if (b != NULL)
        return b;
    for (size_t i = 0; i < NBACKENDS; i++)
        if (runnable(backends[i]))
            return backends[i];
    return &mlkem_backend_portable;
}

const struct mlkem_backend *mlkem_backend(void)
{
    const struct mlkem_backend *b = chosen;
    if (b == NULL) {
        b = detect();
        chosen = b;
    }
    return b;
}

#ifdef MLKEM_TESTING
int mlkem_backend_force(const char *name)
{
    const struct mlkem_backend *b = by_name(name);

    if (b == NULL)
        return 0;
    chosen = b;
    return 1;
}
#endif
