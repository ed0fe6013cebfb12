/*
 * keccak_p1600.c: the single-state Keccak-f[1600] permutation.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.2 (step mappings theta, rho, pi, chi, iota),
 *             §3.3 (Algorithm 7, KECCAK-p[b, n_r]), §3.4 (Keccak-f = n_r 24).
 *
 * Straightforward version: one round per loop iteration on the 25 lanes.
 */
#include "keccak/keccak.h"

#include "arch/backend.h"

/* Round constants RC[i_r] of iota (FIPS 202 §3.2.5, Algorithm 6, built from
 * rc(t) of Algorithm 5); test/keccak recomputes them from the LFSR. */
static const uint64_t keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL,
    0x8000000080008000ULL, 0x000000000000808BULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008AULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800AULL, 0x800000008000000AULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho offsets of lane x + 5y (FIPS 202 §3.2.2, Algorithm 2, mod 64). */
static const unsigned keccak_rho[25] = {
    0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
    25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14,
};

static inline uint64_t rol64(uint64_t x, unsigned n)
{
    return (x << n) | (x >> ((64 - n) & 63));
}

void mlkem_keccakf1600_portable(uint64_t s[25])
{
    uint64_t c[5], d[5], b[25];

    for (unsigned r = 0; r < 24; r++) {
        /* theta (Algorithm 1): column parities. */
        for (unsigned x = 0; x < 5; x++)
            c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
        for (unsigned x = 0; x < 5; x++)
            d[x] = c[(x + 4) % 5] ^ rol64(c[(x + 1) % 5], 1);
        /* theta, rho (Algorithm 2) and pi (Algorithm 3): lane (x,y) moves
         * to (y, 2x + 3y). */
        for (unsigned y = 0; y < 5; y++)
            for (unsigned x = 0; x < 5; x++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] =
                    rol64(s[x + 5 * y] ^ d[x], keccak_rho[x + 5 * y]);
        /* chi (Algorithm 4). */
        for (unsigned y = 0; y < 5; y++)
            for (unsigned x = 0; x < 5; x++)
                s[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] &
                                               b[(x + 2) % 5 + 5 * y]);
        /* iota (Algorithm 6). */
        s[0] ^= keccak_rc[r];
    }
}

void mlkem_keccakf1600(uint64_t s[25])
{
    mlkem_backend()->keccakf1600(s);
}
