/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dispatch.c: the one place that looks at the CPU and chooses kernels.
 *
 * x86-64: CPUID says what the CPU implements and XGETBV (XCR0) says which
 * register state the OS saves on context switches; a backend is used only
 * when both hold (Intel SDM vol. 1 §13.3 / §15.2: "detection of AVX-512"
 * checks OSXSAVE, then XCR0 bits 1-2 for AVX and 5-7 for AVX-512).
 * AArch64 (little-endian): Advanced SIMD is baseline, the SHA3 extension
 * is reported by the kernel in getauxval(AT_HWCAP) & HWCAP_SHA3 (the
 * kernel sets it from ID_AA64ISAR0_EL1, which it also sanitises across
 * cores). Big-endian AArch64, 32-bit Arm and other architectures get the
 * portable backend.
 *
 * The CPU is read once, on first use, and the answer cached (as BLAKE3's
 * blake3_dispatch.c does): mlkem_arch_cpu_features().
 *
 * The backends' tables are here too: each names the slot implementations
 * that arch/<isa>/ provides (arch/x86_64.h, arch/aarch64.h list them) and
 * takes the portable kernel for every slot it does not accelerate, so no
 * slot is ever empty and a half-finished backend still runs. Each entry
 * also says which CPU features it needs and, optionally, a variant for a
 * CPU that has more (a vendor's grouping of the same kernels): whether a
 * backend runs, which table is installed and the list of backends are
 * lookups in these entries, not code per backend.
 *
 * Installation happens once at load time, in a constructor (run by the
 * dynamic loader when mlkem.so is loaded, or before main in a program):
 * keccak/ and kem/ start with their portable sets and never call back into
 * arch/. See arch/dispatch.h for MLKEM_BACKEND.
 */
#define _GNU_SOURCE /* secure_getenv */
#include "arch/dispatch.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(MLKEM_HAVE_AVX2) || defined(MLKEM_HAVE_AVX512))
#include <cpuid.h>

#include "arch/x86_64.h"
#define MLKEM_X86 1
#else
#define MLKEM_X86 0
#endif

#if defined(__aarch64__) && !defined(__AARCH64EB__) && defined(MLKEM_HAVE_NEON)
#include <sys/auxv.h>

#include "arch/aarch64.h"
#define MLKEM_AARCH64 1
#else
#define MLKEM_AARCH64 0
#endif

static const struct mlkem_arch_backend backend_portable = {
    .name = "portable",
    .keccak = &mlkem_keccak_kernels_portable,
    .poly = &mlkem_poly_kernels_portable,
    .needs = 0,
};

/* x4_permute_lanes for a set whose x4 call is one register-parallel
 * permutation of all four states: the mask changes nothing. */
#define X4_PERMUTE_ALL_LANES(fn)                                              \
    static void fn##_lanes(mlkem_keccak_x4 *st, unsigned lanes)               \
    {                                                                         \
        (void)lanes;                                                          \
        fn(st);                                                               \
    }

#if MLKEM_X86
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static unsigned cpu_detect(void)
{
    unsigned a, b, c, d, f = 0;
    uint64_t xcr0;

    /* Leaf 0: the vendor string in EBX, EDX, ECX ("Genu" "ineI" "ntel"). */
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    if (b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu)
        f |= MLKEM_X86_INTEL;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    /* ECX bit 27 OSXSAVE (XGETBV usable), bit 28 AVX, bit 23 POPCNT. */
    if (!(c & (1u << 27)) || !(c & (1u << 28)) || !(c & (1u << 23)))
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
    /* EBX bit 30 AVX512BW; ECX bit 1 AVX512_VBMI, bit 6 AVX512_VBMI2. */
    if ((f & MLKEM_X86_AVX512) && (b & (1u << 30)) && (c & (1u << 1)) &&
        (c & (1u << 6)))
        f |= MLKEM_X86_VBMI2;
    if (!(f & MLKEM_X86_AVX2))
        f = 0; /* the vendor alone chooses nothing */
    return f;
}

/* The polynomial slots both x86 backends share: arch/avx2/ (AVX2
 * intrinsics, the avx2 NTT-domain order), the portable rest. */
#define X86_POLY_SLOTS                                                        \
    .ntt = mlkem_ntt_avx2, .ntt_inv = mlkem_ntt_inv_avx2,                     \
    .ntt_pack = mlkem_ntt_pack_avx2, .mulcache = mlkem_mulcache_avx2,         \
    .multiply_ntts_acc = mlkem_multiply_ntts_acc_avx2,                        \
    .poly_reduce = mlkem_poly_reduce_avx2,                                    \
    .poly_tomont = mlkem_poly_tomont_avx2,                                    \
    .byte_encode_12 = mlkem_byte_encode_12_avx2,                              \
    .byte_decode_12 = mlkem_byte_decode_12_avx2,                              \
    .byte_encode_compress = mlkem_byte_encode_compress_avx2,                  \
    .decompress_byte_decode = mlkem_decompress_byte_decode_avx2,              \
    .sample_poly_cbd = mlkem_sample_poly_cbd_avx2
#endif

#if MLKEM_X86 && defined(MLKEM_HAVE_AVX2)
/* Four interleaved states per x4 (arch/keccak_simd.h), x8 as two such
 * groups; init is a plain zeroing in every layout. A vector x4 call costs
 * less than two single permutations, so two streams already gain; five or
 * more streams go as one x8 group (two x4 permutations, the same work as
 * two x4 groups). The single state is the BMI round. */
X4_PERMUTE_ALL_LANES(mlkem_keccak_x4_permute_avx2)
static const struct mlkem_keccak_kernels keccak_avx2 = {
    .name = "avx2",
    .f1600 = mlkem_keccak_f1600_bmi,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_avx2,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_avx2,
    .x4_permute = mlkem_keccak_x4_permute_avx2,
    .x4_permute_lanes = mlkem_keccak_x4_permute_avx2_lanes,
    .x4_clear_lane = mlkem_keccak_x4_clear_lane_avx2,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_avx2,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_avx2,
    .x8_permute = mlkem_keccak_x8_permute_avx2,
    .x8_clear_lane = mlkem_keccak_x8_clear_lane_avx2,
    .x4_min = 2,
    .x8_min = 5,
};
static const struct mlkem_poly_kernels poly_avx2 = {
    .name = "avx2",
    X86_POLY_SLOTS,
    .sample_ntt_rej = mlkem_sample_ntt_rej_avx2,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_avx2,
};
static const struct mlkem_arch_backend backend_avx2 = {
    .name = "avx2",
    .keccak = &keccak_avx2,
    .poly = &poly_avx2,
    .needs = MLKEM_X86_AVX2,
};
#endif

#if MLKEM_X86 && defined(MLKEM_HAVE_AVX512)
/* The AVX-512 backends' Keccak: the x4 layout is avx2's (same byte
 * functions), permuted with AVX-512VL on 256-bit registers; the x8 slots
 * hold the 512-bit kernel. x4_min 1: one x4 VL call is faster than any
 * single state, so even a lone stream takes a lane. x8 states only where
 * an x8 call is cheaper than two x4 calls per state and eight independent
 * blocks are at hand: encapsulation's PRF batch on Intel (x8_min 5, the
 * vendor variant of avx512-vbmi2); never on AMD's double-pumped 512-bit
 * units (x8_min 0). The measurements behind these numbers are in
 * docs/performance.md ("The AVX-512 grouping"). */
X4_PERMUTE_ALL_LANES(mlkem_keccak_x4_permute_avx512)
#define X86_KECCAK_AVX512(nm, x8min)                                          \
    {                                                                         \
        .name = nm, .f1600 = mlkem_keccak_f1600_bmi,                          \
        .x4_init = mlkem_keccak_x4_init_portable,                             \
        .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_avx2,                       \
        .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_avx2,               \
        .x4_permute = mlkem_keccak_x4_permute_avx512,                         \
        .x4_permute_lanes = mlkem_keccak_x4_permute_avx512_lanes,             \
        .x4_clear_lane = mlkem_keccak_x4_clear_lane_avx2,                     \
        .x8_init = mlkem_keccak_x8_init_portable,                             \
        .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_avx512,                     \
        .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_avx512,             \
        .x8_permute = mlkem_keccak_x8_permute_avx512,                         \
        .x8_clear_lane = mlkem_keccak_x8_clear_lane_avx512, .x4_min = 1,      \
        .x8_min = (x8min),                                                    \
    }
static const struct mlkem_keccak_kernels keccak_avx512 =
    X86_KECCAK_AVX512("avx512", 0);
static const struct mlkem_keccak_kernels keccak_avx512_vbmi2 =
    X86_KECCAK_AVX512("avx512-vbmi2", 0);
static const struct mlkem_keccak_kernels keccak_avx512_vbmi2_intel =
    X86_KECCAK_AVX512("avx512-vbmi2", 5);

/* avx512: the avx2 polynomial slots. avx512-vbmi2: SampleNTT with
 * vpermb / vpcompressw, fused with the x4 state (arch/avx512/
 * sampling_vbmi2.c). */
static const struct mlkem_poly_kernels poly_avx512 = {
    .name = "avx512",
    X86_POLY_SLOTS,
    .sample_ntt_rej = mlkem_sample_ntt_rej_avx2,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_avx2,
};
static const struct mlkem_poly_kernels poly_avx512_vbmi2 = {
    .name = "avx512-vbmi2",
    X86_POLY_SLOTS,
    .sample_ntt_rej = mlkem_sample_ntt_rej_vbmi2,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_vbmi2,
};
static const struct mlkem_arch_backend backend_avx512 = {
    .name = "avx512",
    .keccak = &keccak_avx512,
    .poly = &poly_avx512,
    .needs = MLKEM_X86_AVX2 | MLKEM_X86_AVX512,
};
/* One name, two Keccak groupings: the entry listed (and tested by the
 * suites on any CPU that runs it) and its variant for GenuineIntel CPUs,
 * installed in its place there. */
static const struct mlkem_arch_backend backend_avx512_vbmi2_intel = {
    .name = "avx512-vbmi2",
    .keccak = &keccak_avx512_vbmi2_intel,
    .poly = &poly_avx512_vbmi2,
    .needs = MLKEM_X86_AVX2 | MLKEM_X86_AVX512 | MLKEM_X86_VBMI2 |
             MLKEM_X86_INTEL,
};
static const struct mlkem_arch_backend backend_avx512_vbmi2 = {
    .name = "avx512-vbmi2",
    .keccak = &keccak_avx512_vbmi2,
    .poly = &poly_avx512_vbmi2,
    .needs = MLKEM_X86_AVX2 | MLKEM_X86_AVX512 | MLKEM_X86_VBMI2,
    .variant = &backend_avx512_vbmi2_intel,
};
#endif

#if MLKEM_AARCH64
/* Bits of AT_HWCAP (Linux arch/arm64/include/uapi/asm/hwcap.h), in case
 * the C library's <sys/auxv.h> predates them. */
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1UL << 1)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1UL << 17)
#endif

static int midr_fast_sha3(void); /* below, beside its table */

static unsigned cpu_detect(void)
{
    const unsigned long hw = getauxval(AT_HWCAP);
    unsigned f = 0;

    if (hw & HWCAP_ASIMD)
        f |= MLKEM_AARCH64_NEON;
    if ((f & MLKEM_AARCH64_NEON) && (hw & HWCAP_SHA3))
        f |= MLKEM_AARCH64_SHA3;
    if ((f & MLKEM_AARCH64_SHA3) && midr_fast_sha3())
        f |= MLKEM_AARCH64_FAST_SHA3;
    return f;
}

/* The polynomial slots the AArch64 backends share (arch/neon/poly_neon.c,
 * codec_neon.c), T_q in the spec's order. Each table adds its own SampleNTT
 * on x4 states (arch/neon/sampling_neon.c), which reads its state layout. */
#define AARCH64_POLY_SLOTS                                                    \
    .ntt = mlkem_ntt_neon, .ntt_inv = mlkem_ntt_inv_neon,                     \
    .ntt_pack = mlkem_ntt_pack_portable, .mulcache = mlkem_mulcache_neon,     \
    .multiply_ntts_acc = mlkem_multiply_ntts_acc_neon,                        \
    .poly_reduce = mlkem_poly_reduce_neon,                                    \
    .poly_tomont = mlkem_poly_tomont_neon,                                    \
    .byte_encode_12 = mlkem_byte_encode_12_neon,                              \
    .byte_decode_12 = mlkem_byte_decode_12_neon,                              \
    .byte_encode_compress = mlkem_byte_encode_compress_neon,                  \
    .decompress_byte_decode = mlkem_decompress_byte_decode_neon,              \
    .sample_poly_cbd = mlkem_sample_poly_cbd_neon,                            \
    .sample_ntt_rej = mlkem_sample_ntt_rej_neon

/* Keccak on AArch64 (arch/aarch64.h, keccak_x4_neon.c). One state: the
 * portable C, which on AArch64 compiles to a scalar permutation whose
 * rotations fold into EOR/BIC operands (the single-state choice of
 * mlkem-native on Arm's cores). x4: two states in NEON beside two scalar
 * states, one loop (the hybrid of ePrint 2022/1243): it costs about as
 * much as two single permutations when the vector and integer pipes
 * overlap, never more than four, so groups of three or four streams gain
 * and a pair gains nothing (x4_min 3); an x8 is two x4 groups, the same
 * work as two x4 calls (x8_min 0). */
X4_PERMUTE_ALL_LANES(mlkem_keccak_x4_permute_neon)
static const struct mlkem_keccak_kernels keccak_neon = {
    .name = "neon",
    .f1600 = mlkem_keccak_f1600_scalar,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_neon,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_neon,
    .x4_permute = mlkem_keccak_x4_permute_neon,
    .x4_permute_lanes = mlkem_keccak_x4_permute_neon_lanes,
    .x4_clear_lane = mlkem_keccak_x4_clear_lane_neon,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_neon,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_neon,
    .x8_permute = mlkem_keccak_x8_permute_neon,
    .x8_clear_lane = mlkem_keccak_x8_clear_lane_neon,
    .x4_min = 3,
    .x8_min = 0,
};
static const struct mlkem_poly_kernels poly_neon = {
    .name = "neon",
    AARCH64_POLY_SLOTS,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_neon,
};
static const struct mlkem_arch_backend backend_neon = {
    .name = "neon",
    .keccak = &keccak_neon,
    .poly = &poly_neon,
    .needs = MLKEM_AARCH64_NEON,
};

/* With the SHA3 instructions (keccak_sha3.c): the x4 layout and byte
 * functions of neon, the vector pair's rounds in EOR3 / RAX1 / XAR / BCAX,
 * and the single state in SHA3 instructions too (64 instructions a round
 * instead of the scalar ~100; on cores that run SHA3 instructions on every
 * vector pipe, such as Apple's, that is the faster single state; on cores
 * with SHA3 on one pipe only the scalar f1600 may win: not yet measured,
 * docs/aarch64.md). */
X4_PERMUTE_ALL_LANES(mlkem_keccak_x4_permute_sha3)
static const struct mlkem_keccak_kernels keccak_neon_sha3 = {
    .name = "neon-sha3",
    .f1600 = mlkem_keccak_f1600_sha3,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_neon,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_neon,
    .x4_permute = mlkem_keccak_x4_permute_sha3,
    .x4_permute_lanes = mlkem_keccak_x4_permute_sha3_lanes,
    .x4_clear_lane = mlkem_keccak_x4_clear_lane_neon,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_neon,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_neon,
    .x8_permute = mlkem_keccak_x8_permute_sha3,
    .x8_clear_lane = mlkem_keccak_x8_clear_lane_neon,
    .x4_min = 3,
    .x8_min = 0,
};
static const struct mlkem_poly_kernels poly_neon_sha3 = {
    .name = "neon-sha3",
    AARCH64_POLY_SLOTS,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_neon,
};
static const struct mlkem_arch_backend backend_neon_sha3 = {
    .name = "neon-sha3",
    .keccak = &keccak_neon_sha3,
    .poly = &poly_neon_sha3,
    .needs = MLKEM_AARCH64_NEON | MLKEM_AARCH64_SHA3,
};

/*
 * neon-sha3x2 (keccak_sha3x2.c, sampling_neon.c): every state in NEON
 * registers with the SHA3 instructions, two at a time (an x4 call is two x2
 * permutations, an x8 four); the single state in SHA3 instructions too.
 * x4_min 2: its x4_permute_lanes permutes only the pairs that hold a busy
 * lane, so two streams cost one x2 call (1,874 instructions) where two
 * single states cost 3,796 (x1 1,898); one stream stays on a single state
 * (x4_min 1 measured 301,814 instructions ML-KEM-768 K+E+D against 298,421
 * for 2; x4_min 3 gave 302,308). It runs wherever
 * neon-sha3 runs (MLKEM_BACKEND forces it, every suite tests it), but is
 * the default only on the cores below, which issue EOR3 / RAX1 / XAR / BCAX
 * on every vector pipe, so the pure-vector permutation outruns the hybrid,
 * which is bound by its scalar half there. Elsewhere (Neoverse N1/N2/V1/V2,
 * Graviton 2-4, Ampere) the SHA3 instructions issue on one or two pipes
 * and the hybrid of neon-sha3 stays the choice.
 *
 * MIDR_EL1 (implementer bits 31:24, part number bits 15:4), read with MRS
 * when the kernel reports HWCAP_CPUID (it then emulates EL0 reads of the
 * ID registers; Linux Documentation/arch/arm64/cpu-feature-registers.rst).
 * On a big.LITTLE system the value is the MIDR of the core the thread ran
 * on at load time; the choice is a matter of speed only, never of
 * correctness.
 *
 *   implementer    part       core              why
 *   0x61 Apple     any        M1 and later      mlkem-native v2.0.0
 *       (fips202/native/aarch64/auto.h) picks its SHA3-only x1/x2 kernels
 *       for every Apple core; [HYBRID] (ePrint 2022/1243) §5 measures the
 *       SHA3-only 2-way permutation ahead of the hybrids on Apple M1
 *   0x41 Arm       0xd82      Cortex-X4         mlkem-native v2.0.0 auto.h:
 *                  0xd83      Neoverse V3AE     Arm cores "prior to
 *                  0xd84      Neoverse V3       Cortex-X4" lack SHA3 on all
 *                  0xd85      Cortex-X925       vector units; V3/V3AE are
 *       the X4's server derivatives, X925 its successor (part numbers:
 *       Linux arch/arm64/include/asm/cputype.h)
 * Measured here only as instructions (docs/aarch64.md): 0.66x neon-sha3's
 * K+E+D under qemu; cycles on these cores are still to confirm
 * (docs/aarch64.md says what to run).
 */
static const struct mlkem_keccak_kernels keccak_neon_sha3x2 = {
    .name = "neon-sha3x2",
    .f1600 = mlkem_keccak_f1600_sha3,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_sha3x2,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_sha3x2,
    .x4_permute = mlkem_keccak_x4_permute_sha3x2,
    .x4_permute_lanes = mlkem_keccak_x4_permute_lanes_sha3x2,
    .x4_pairs = 1,
    .x4_clear_lane = mlkem_keccak_x4_clear_lane_sha3x2,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_sha3x2,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_sha3x2,
    .x8_permute = mlkem_keccak_x8_permute_sha3x2,
    .x8_clear_lane = mlkem_keccak_x8_clear_lane_sha3x2,
    .x4_min = 2,
    .x8_min = 0,
};
static const struct mlkem_poly_kernels poly_neon_sha3x2 = {
    .name = "neon-sha3x2",
    AARCH64_POLY_SLOTS,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_sha3x2,
};
static const struct mlkem_arch_backend backend_neon_sha3x2 = {
    .name = "neon-sha3x2",
    .keccak = &keccak_neon_sha3x2,
    .poly = &poly_neon_sha3x2,
    .needs = MLKEM_AARCH64_NEON | MLKEM_AARCH64_SHA3,
    .prefers = MLKEM_AARCH64_FAST_SHA3,
};

#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif

/* The cores of the table above. */
static const struct {
    unsigned implementer, part; /* part 0xfff: any */
} fast_sha3_cores[] = {
    {0x61, 0xfff}, /* Apple */
    {0x41, 0xd82}, /* Cortex-X4 */
    {0x41, 0xd83}, /* Neoverse V3AE */
    {0x41, 0xd84}, /* Neoverse V3 */
    {0x41, 0xd85}, /* Cortex-X925 */
};

static int midr_fast_sha3(void)
{
    uint64_t midr;

    if (!(getauxval(AT_HWCAP) & HWCAP_CPUID))
        return 0;
    __asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
    const unsigned impl = (unsigned)(midr >> 24) & 0xff;
    const unsigned part = (unsigned)(midr >> 4) & 0xfff;
    for (size_t i = 0; i < sizeof(fast_sha3_cores) / sizeof(fast_sha3_cores[0]);
         i++)
        if (fast_sha3_cores[i].implementer == impl &&
            (fast_sha3_cores[i].part == 0xfff || fast_sha3_cores[i].part == part))
            return 1;
    return 0;
}
#endif

/* Best first; the last entry (portable) runs everywhere. */
static const struct mlkem_arch_backend *const backends[] = {
#if MLKEM_X86 && defined(MLKEM_HAVE_AVX512)
    &backend_avx512_vbmi2,
    &backend_avx512,
#endif
#if MLKEM_X86 && defined(MLKEM_HAVE_AVX2)
    &backend_avx2,
#endif
#if MLKEM_AARCH64
    &backend_neon_sha3x2,
    &backend_neon_sha3,
    &backend_neon,
#endif
    &backend_portable,
};
#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct mlkem_arch_backend *const *mlkem_arch_backends(size_t *n)
{
    *n = NBACKENDS;
    return backends;
}

#if !MLKEM_X86 && !MLKEM_AARCH64
static unsigned cpu_detect(void)
{
    return 0; /* only the portable backend is compiled in */
}
#endif

/* Not yet read: no feature set has this bit (BLAKE3's UNDEFINED). */
#define CPU_UNREAD 0x80000000u

static _Atomic unsigned cpu_features = CPU_UNREAD;
#ifdef MLKEM_TESTING
static _Atomic unsigned cpu_reads;
unsigned mlkem_arch_cpu_reads(void)
{
    return atomic_load_explicit(&cpu_reads, memory_order_relaxed);
}
#endif

/* Relaxed order suffices: every thread that reads the CPU computes the
 * same value, and the value is all that is shared. */
unsigned mlkem_arch_cpu_features(void)
{
    unsigned f = atomic_load_explicit(&cpu_features, memory_order_relaxed);

    if (f == CPU_UNREAD) {
        f = cpu_detect();
#ifdef MLKEM_TESTING
        atomic_fetch_add_explicit(&cpu_reads, 1, memory_order_relaxed);
#endif
        atomic_store_explicit(&cpu_features, f, memory_order_relaxed);
    }
    return f;
}

int mlkem_arch_runnable(const struct mlkem_arch_backend *b)
{
    return (mlkem_arch_cpu_features() & b->needs) == b->needs;
}

/* The table to install for a runnable backend on this CPU: its variant
 * if the CPU has what that needs too. */
static const struct mlkem_arch_backend *tuned(const struct mlkem_arch_backend *b)
{
    return b->variant != NULL && mlkem_arch_runnable(b->variant) ? b->variant
                                                                 : b;
}

/* 1 if b is chosen without being named: this CPU also has what b prefers
 * (neon-sha3x2 only on the cores of its table). */
static int by_default(const struct mlkem_arch_backend *b)
{
    return (mlkem_arch_cpu_features() & b->prefers) == b->prefers;
}

static const struct mlkem_arch_backend *by_name(const char *name)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        if (strcmp(backends[i]->name, name) == 0 &&
            mlkem_arch_runnable(backends[i]))
            return tuned(backends[i]);
    return NULL;
}

const struct mlkem_arch_backend *mlkem_arch_detect(void)
{
    const char *env = secure_getenv("MLKEM_BACKEND");
    const struct mlkem_arch_backend *b = env != NULL ? by_name(env) : NULL;

    if (b != NULL)
        return b;
    for (size_t i = 0; i < NBACKENDS; i++)
        if (mlkem_arch_runnable(backends[i]) && by_default(backends[i]))
            return tuned(backends[i]);
    return &backend_portable;
}

static void install(const struct mlkem_arch_backend *b)
{
    mlkem_keccak_kernels_install(b->keccak);
    mlkem_poly_kernels_install(b->poly);
}

int mlkem_arch_use(const char *name)
{
    const struct mlkem_arch_backend *b = by_name(name);

    if (b == NULL)
        return 0;
    install(b);
    return 1;
}

const char *mlkem_arch_current(void)
{
    return mlkem_poly_kernels()->name;
}

/* Load time: the dynamic loader runs this when mlkem.so is mapped (before
 * OSSL_provider_init), a program before main. The choice is a pure
 * function of the CPU and the environment. */
__attribute__((constructor)) static void mlkem_arch_init(void)
{
    install(mlkem_arch_detect());
}
