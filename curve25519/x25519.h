/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x25519.h: curve25519/, the X25519 public key of a scalar [RFC7748]
 * (x25519.c), for the key generation of X25519MLKEM768's classical half
 * (provider/hybrid_ec.c). A library of its own (mlkem_curve25519), which
 * depends on common/ and the C library only.
 *
 * Needs a 128-bit integer type (gcc and clang on every 64-bit target):
 * MLKEM_X25519_NATIVE says whether it is built; without it the hybrid
 * generates its X25519 key pairs with the default provider, as it does its
 * X448 and EC ones.
 */
#ifndef MLKEM_CURVE25519_X25519_H
#define MLKEM_CURVE25519_X25519_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__)
#define MLKEM_X25519_NATIVE 1

#define MLKEM_X25519_BYTES 32

/* out = X25519(k, 9) [RFC7748 §6.1], the public key of the private key k
 * (clamped here as §5 decodes it). Constant time in k; cannot fail (the
 * table of multiples is const data). */
void mlkem_x25519_public(uint8_t out[MLKEM_X25519_BYTES],
                         const uint8_t k[MLKEM_X25519_BYTES]);
#endif

#endif /* MLKEM_CURVE25519_X25519_H */
