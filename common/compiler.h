/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compiler.h: the compiler attributes the kernel uses, in one place.
 *
 * Everything in common/ is header-only and depends on nothing but the C
 * library: keccak/, kem/, arch/ and provider/ may all include it.
 *
 *   MLKEM_ALWAYS_INLINE  force inlining of a helper whose constant arguments
 *                        must propagate (a bit width d, a count k);
 *   MLKEM_MUST_CHECK     the result of this function must be checked;
 *   MLKEM_ALIGN(n)       n-byte alignment of a variable or member (C11
 *                        _Alignas; alignas in C++ for bench/);
 *   MLKEM_LITTLE_ENDIAN  1 when the target stores integers little-endian
 *                        (the byte order of FIPS 202 lanes and of FIPS 203's
 *                        ByteEncode), so loads can be one memcpy.
 */
#ifndef MLKEM_COMMON_COMPILER_H
#define MLKEM_COMMON_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define MLKEM_ALWAYS_INLINE inline __attribute__((always_inline))
#define MLKEM_NOINLINE __attribute__((noinline))
#define MLKEM_UNUSED __attribute__((unused))
#define MLKEM_MUST_CHECK __attribute__((warn_unused_result))
#else
#define MLKEM_ALWAYS_INLINE inline
#define MLKEM_NOINLINE
#define MLKEM_UNUSED
#define MLKEM_MUST_CHECK
#endif

#ifdef __cplusplus
#define MLKEM_ALIGN(n) alignas(n)
#else
#define MLKEM_ALIGN(n) _Alignas(n)
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MLKEM_LITTLE_ENDIAN 1
#else
#define MLKEM_LITTLE_ENDIAN 0
#endif

#endif /* MLKEM_COMMON_COMPILER_H */
