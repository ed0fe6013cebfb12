/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bytes.h: little-endian loads and stores, the byte order of FIPS 202's
 * lanes (Appendix B.1: byte i of a lane is bits 8i .. 8i + 7) and of FIPS
 * 203's ByteEncode_d (Algorithm 5: bit j of the bit string is bit j mod 8 of
 * byte j / 8). On little-endian targets a load or store is one memcpy,
 * which compilers turn into a single unaligned access; elsewhere it is
 * assembled byte by byte.
 */
#ifndef MLKEM_COMMON_BYTES_H
#define MLKEM_COMMON_BYTES_H

#include <stdint.h>
#include <string.h>

#include "common/compiler.h"

static inline uint64_t mlkem_load64le(const uint8_t *p)
{
    uint64_t v;
#if MLKEM_LITTLE_ENDIAN
    memcpy(&v, p, 8);
#else
    v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
#endif
    return v;
}

static inline void mlkem_store64le(uint8_t *p, uint64_t v)
{
#if MLKEM_LITTLE_ENDIAN
    memcpy(p, &v, 8);
#else
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* Three bytes, least significant first. */
static inline uint32_t mlkem_load24le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16);
}

#endif /* MLKEM_COMMON_BYTES_H */
