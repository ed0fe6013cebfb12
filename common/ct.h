/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ct.h: constant-time helpers (compare, select, conditional move), the
 * valgrind secret annotations, and a cleanse that the compiler cannot
 * remove. Used by keccak/, kem/ and arch/.
 *
 * References
 *   [FIPS203] NIST FIPS 203, §3.3 (destruction of intermediate values) and
 *             Algorithm 18, lines 9-11 (implicit rejection, which must not
 *             reveal whether c' = c).
 *
 * Why a value barrier. The helpers below turn a secret condition into an
 * all-zeros / all-ones mask and then use only AND / OR / XOR. A compiler
 * that can see the mask is 0 or 0xff may "optimise" the masking back into a
 * branch or a conditional jump (clang has done this for cmov-style code).
 * mlkem_ct_barrier_*() returns its argument unchanged, but through an empty
 * asm statement that claims to modify it, so the optimiser no longer knows
 * the value's range and must keep the arithmetic. Without GNU asm the
 * fallback XORs with a volatile zero, which has the same effect at the cost
 * of one memory load.
 *
 * Valgrind. A test build with MLKEM_CT_VALGRIND maps MLKEM_CT_SECRET(p, n)
 * to "undefined" and MLKEM_CT_DECLASSIFY(p, n) to "defined", so memcheck
 * reports any branch or memory index that depends on secret bytes
 * (test/kem/test_ct.c marks d, z, m and dk's secret parts). The kernel
 * declassifies exactly the values that are public by definition although
 * computed from secrets: rho (part of ek), the one-bit verdict of the s
 * modulus check (it is the error code), and the PCT outcome. Release
 * builds compile both to nothing.
 */
#ifndef MLKEM_COMMON_CT_H
#define MLKEM_COMMON_CT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/compiler.h"

/* The MLKEM_TESTING kernel (mlkem_kernel_testing) carries the annotations
 * whenever valgrind's header is available; outside valgrind they cost a few
 * instructions. Release builds never include them. */
#if !defined(MLKEM_CT_VALGRIND) && defined(MLKEM_TESTING) && \
    defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#define MLKEM_CT_VALGRIND 1
#endif
#endif

#if defined(MLKEM_CT_VALGRIND)
#include <valgrind/memcheck.h>
#define MLKEM_CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define MLKEM_CT_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define MLKEM_CT_SECRET(p, n) ((void)(p), (void)(n))
#define MLKEM_CT_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

#if defined(__GNUC__) || defined(__clang__)
static inline uint32_t mlkem_ct_barrier_u32(uint32_t x)
{
    __asm__("" : "+r"(x));
    return x;
}
static inline uint8_t mlkem_ct_barrier_u8(uint8_t x)
{
    __asm__("" : "+r"(x));
    return x;
}
#else
/* One per translation unit; never written, so always zero. */
static volatile uint32_t mlkem_ct_opt_blocker;
static inline uint32_t mlkem_ct_barrier_u32(uint32_t x)
{
    return x ^ mlkem_ct_opt_blocker;
}
static inline uint8_t mlkem_ct_barrier_u8(uint8_t x)
{
    return (uint8_t)(x ^ (uint8_t)mlkem_ct_opt_blocker);
}
#endif

/* 0xffffffff if x != 0, else 0. (x | -x) has its top bit set exactly when
 * x != 0. */
static inline uint32_t mlkem_ct_nonzero_mask_u32(uint32_t x)
{
    x = mlkem_ct_barrier_u32(x);
    return (uint32_t)0 - ((x | ((uint32_t)0 - x)) >> 31);
}

/* 0xffffffff if a < b, else 0, for a, b < 2^31: a - b underflows to a value
 * with the top bit set exactly when a < b. */
static inline uint32_t mlkem_ct_lt_mask_u32(uint32_t a, uint32_t b)
{
    return (uint32_t)0 - (mlkem_ct_barrier_u32(a - b) >> 31);
}

/* 0 if the len bytes at a and b are equal, 1 otherwise; time depends on len
 * only. Implements the comparison c != c' of FIPS 203 Algorithm 18, line 9. */
static inline uint8_t mlkem_ct_memneq(const uint8_t *a, const uint8_t *b,
                                      size_t len)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= (uint8_t)(a[i] ^ b[i]);
    return (uint8_t)(mlkem_ct_nonzero_mask_u32(acc) & 1u);
}

/* If cond (0 or 1) is 1, copy len bytes from src to dst; otherwise leave dst
 * unchanged. Both are read and written either way. */
static inline void mlkem_ct_cmov(uint8_t *dst, const uint8_t *src, size_t len,
                                 uint8_t cond)
{
    uint8_t mask = (uint8_t)(0u - (uint8_t)mlkem_ct_barrier_u8(cond));
    for (size_t i = 0; i < len; i++)
        dst[i] ^= (uint8_t)(mask & (dst[i] ^ src[i]));
}

/* Constant-time select of a word: a if mask is all ones, b if zero. */
static inline uint32_t mlkem_ct_select_u32(uint32_t a, uint32_t b,
                                           uint32_t mask)
{
    mask = mlkem_ct_barrier_u32(mask);
    return b ^ (mask & (a ^ b));
}

/* Wipe len bytes at p (FIPS 203 §3.3). memset followed by an asm statement
 * that "reads" the memory, so the store cannot be removed as dead. */
static inline void mlkem_cleanse(void *p, size_t len)
{
#if defined(__GNUC__) || defined(__clang__)
    memset(p, 0, len);
    /*@ assigns \nothing; */ /* its template is empty (docs/proofs.md) */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (len--)
        *v++ = 0;
#endif
}

/* Zero 1 KiB of the stack just below the caller's frame, where the
 * functions it has just called had theirs. Compiled code spills registers
 * into stack slots and red zones that no wipe names: a Keccak permutation
 * written in C or NEON intrinsics spills lanes of its last round, which are
 * the squeezed output (PRF bytes, G's K and r, J's K-bar); gcc 12 spilled
 * decoded coefficients of s from ByteDecode_12. The scans of
 * test/hardening/stack_secrets.c found both. Called once after a batch of
 * such calls (kem/lanes.c, kem/mlkem.c), not after each: 1 KiB is more
 * than the deepest of those frames (8 KiB under AddressSanitizer, whose
 * frames are several times larger). */
#if defined(__SANITIZE_ADDRESS__)
#define MLKEM_STACK_SCRUB_BYTES 8192 /* AddressSanitizer's redzones widen
                                       every frame several times over */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLKEM_STACK_SCRUB_BYTES 8192
#endif
#endif
#ifndef MLKEM_STACK_SCRUB_BYTES
#define MLKEM_STACK_SCRUB_BYTES 1024
#endif
static MLKEM_NOINLINE MLKEM_UNUSED void mlkem_stack_scrub(void)
{
    uint8_t buf[MLKEM_STACK_SCRUB_BYTES];
    mlkem_cleanse(buf, sizeof(buf));
}

#endif /* MLKEM_COMMON_CT_H */
