/*
 * poly.c: arithmetic on polynomials and vectors, and ByteEncode_12 /
 * ByteDecode_12 (the only encoding of uncompressed coefficients).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithms 5-6 (ByteEncode_d, ByteDecode_d),
 *             §4.3 (NTT-domain arithmetic), §7.2 (modulus check).
 *
 * The NTT, its inverse and the NTT-domain product are reached through
 * mlkem_backend() once per polynomial (or per row), so architecture backends
 * replace them without touching this file.
 */
#include "kem/poly.h"

#include "arch/backend.h"
#include "kem/ct.h"
#include "kem/reduce.h"

void mlkem_poly_add(int16_t r[256], const int16_t a[256], const int16_t b[256])
{
    for (unsigned i = 0; i < 256; i++)
        r[i] = (int16_t)(a[i] + b[i]);
}

void mlkem_poly_sub(int16_t r[256], const int16_t a[256], const int16_t b[256])
{
    for (unsigned i = 0; i < 256; i++)
        r[i] = (int16_t)(a[i] - b[i]);
}

void mlkem_poly_reduce(int16_t r[256])
{
    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_barrett_reduce(r[i]);
}

void mlkem_poly_normalize(int16_t r[256])
{
    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_caddq(mlkem_barrett_reduce(r[i]));
}

void mlkem_poly_tomont(int16_t r[256])
{
    /* fqmul(x, 2^32 mod q) = x * 2^32 * 2^-16 = x * 2^16; |x * 1353| <=
     * 2^15 * 1353 < q * 2^15, so any int16_t input is allowed. */
    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_fqmul_pre(r[i], MLKEM_MONT2, MLKEM_MONT2_QINV);
}

void mlkem_poly_ntt(int16_t r[256])
{
    mlkem_backend()->ntt(r);
    mlkem_poly_reduce(r);
}

void mlkem_poly_invntt_tomont(int16_t r[256])
{
    mlkem_backend()->invntt(r);
}

void mlkem_polyvec_ntt(int16_t (*v)[256], unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        mlkem_poly_ntt(v[i]);
}

void mlkem_polyvec_basemul_acc(int16_t r[256], const int16_t (*a)[256],
                               const int16_t (*b)[256], unsigned k)
{
    mlkem_backend()->basemul_acc(r, &a[0][0], &b[0][0], k);
}

/* Implements FIPS 203, Algorithm 5 (ByteEncode_12): two 12-bit values per
 * three bytes, little-endian bit order (the spec's bit array read 8 bits per
 * byte, least significant first). */
void mlkem_poly_tobytes(uint8_t out[384], const int16_t a[256])
{
    for (unsigned i = 0; i < 128; i++) {
        uint16_t t0 = (uint16_t)mlkem_caddq(a[2 * i]);
        uint16_t t1 = (uint16_t)mlkem_caddq(a[2 * i + 1]);
        out[3 * i + 0] = (uint8_t)t0;
        out[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
        out[3 * i + 2] = (uint8_t)(t1 >> 4);
    }
}

/* Implements FIPS 203, Algorithm 6 (ByteDecode_12) lines 1-4 without the
 * final "mod q", and returns the §7.2 verdict (every value < q) computed
 * without branches: q - 1 - v is negative exactly when v >= q, so OR-ing
 * those differences collects a set sign bit for any unreduced value. The
 * loop is plain arithmetic (vectorizable); the barrier sits on the result. */
uint32_t mlkem_poly_frombytes(int16_t r[256], const uint8_t in[384])
{
    int32_t bad = 0;
    for (unsigned i = 0; i < 128; i++) {
        int32_t t0 = in[3 * i] | ((in[3 * i + 1] & 0x0f) << 8);
        int32_t t1 = (in[3 * i + 1] >> 4) | (in[3 * i + 2] << 4);
        bad |= (MLKEM_Q - 1 - t0) | (MLKEM_Q - 1 - t1);
        r[2 * i] = (int16_t)t0;
        r[2 * i + 1] = (int16_t)t1;
    }
    /* all ones if the sign bit of bad is clear */
    return (mlkem_ct_barrier_u32((uint32_t)bad) >> 31) - 1u;
}
