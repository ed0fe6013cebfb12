/* SPDX-License-Identifier: Apache-2.0 */
/*
 * poly.c: arithmetic on polynomials and vectors, the portable Barrett,
 * Montgomery and ByteEncode_12 / ByteDecode_12 kernels, and the calls into
 * the installed kernel set (kem/poly_kernels.h).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithms 5-6 (ByteEncode_d, ByteDecode_d),
 *             §4.3 (NTT-domain arithmetic), §7.2 (modulus check).
 */
#include "kem/poly.h"

#include "common/bytes.h"
#include "common/ct.h"
#include "kem/reduce.h"

/* ---- Element-wise -------------------------------------------------------- */

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

void mlkem_poly_normalize(int16_t r[256])
{
    /* The set's reduction (|r_i| < q), then the conditional add: the one
     * value in [0, q). Portable's reduction is the same Barrett, fused
     * here into one pass. */
    if (mlkem_poly_kernels() == &mlkem_poly_kernels_portable) {
        for (unsigned i = 0; i < 256; i++)
            r[i] = mlkem_caddq(mlkem_barrett_reduce(r[i]));
        return;
    }
    mlkem_poly_reduce(r);
    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_caddq(r[i]);
}

/* ---- Portable kernels ---------------------------------------------------- */

void mlkem_poly_reduce_portable(int16_t r[256])
{
    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_barrett_reduce(r[i]);
}

void mlkem_poly_tomont_portable(int16_t r[256])
{
    /* fqmul(x, 2^32 mod q) = x * 2^32 * 2^-16 = x * 2^16; |x * 1353| <=
     * 2^15 * 1353 < q * 2^15, so any int16_t input is allowed. */
    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_fqmul_pre(r[i], MLKEM_MONT2, MLKEM_MONT2_QINV);
}

/* The portable set keeps T_q in the spec's order. */
void mlkem_ntt_pack_portable(int16_t r[256])
{
    (void)r;
}

/*
 * ByteEncode_12 / ByteDecode_12 word layout: 16 values of 12 bits fill
 * exactly three 64-bit little-endian words (192 bits = 24 bytes). Value j
 * occupies bits 12j .. 12j + 11 of the 192-bit string; values 5 and 10
 * straddle a word boundary (bits 60-71 and 120-131).
 */

/* Implements FIPS 203, Algorithm 5 (ByteEncode_12): two 12-bit values per
 * three bytes, little-endian bit order (the spec's bit array read 8 bits per
 * byte, least significant first), written 24 bytes at a time. The
 * canonical representatives are formed first in a vectorizable loop; they
 * are secret when s is encoded (dk), so the buffer is wiped. */
void mlkem_byte_encode_12_portable(uint8_t out[384], const int16_t a[256])
{
    uint16_t t[256];
    for (unsigned i = 0; i < 256; i++)
        t[i] = (uint16_t)mlkem_caddq(a[i]);
    for (unsigned g = 0; g < 16; g++) {
        const uint16_t *v = t + 16 * g;
        uint64_t w0 = (uint64_t)v[0] | ((uint64_t)v[1] << 12) |
                      ((uint64_t)v[2] << 24) | ((uint64_t)v[3] << 36) |
                      ((uint64_t)v[4] << 48) | ((uint64_t)v[5] << 60);
        uint64_t w1 = ((uint64_t)v[5] >> 4) | ((uint64_t)v[6] << 8) |
                      ((uint64_t)v[7] << 20) | ((uint64_t)v[8] << 32) |
                      ((uint64_t)v[9] << 44) | ((uint64_t)v[10] << 56);
        uint64_t w2 = ((uint64_t)v[10] >> 8) | ((uint64_t)v[11] << 4) |
                      ((uint64_t)v[12] << 16) | ((uint64_t)v[13] << 28) |
                      ((uint64_t)v[14] << 40) | ((uint64_t)v[15] << 52);
        mlkem_store64le(out + 24 * g, w0);
        mlkem_store64le(out + 24 * g + 8, w1);
        mlkem_store64le(out + 24 * g + 16, w2);
    }
    mlkem_cleanse(t, sizeof(t));
}

/* Implements FIPS 203, Algorithm 6 (ByteDecode_12) lines 1-4 without the
 * final "mod q", and returns the §7.2 verdict (every value < q) computed
 * without branches: q - 1 - v is negative exactly when v >= q, so OR-ing
 * those differences collects a set sign bit for any unreduced value. The
 * bytes are read 24 at a time as three words; the check is a separate
 * vectorizable loop; the barrier sits on the result. */
uint32_t mlkem_byte_decode_12_portable(int16_t r[256],
                                       const uint8_t in[384])
{
    int32_t bad = 0;
    for (unsigned g = 0; g < 16; g++) {
        const uint64_t w0 = mlkem_load64le(in + 24 * g);
        const uint64_t w1 = mlkem_load64le(in + 24 * g + 8);
        const uint64_t w2 = mlkem_load64le(in + 24 * g + 16);
        int16_t *v = r + 16 * g;
        v[0] = (int16_t)(w0 & 0xfff);
        v[1] = (int16_t)((w0 >> 12) & 0xfff);
        v[2] = (int16_t)((w0 >> 24) & 0xfff);
        v[3] = (int16_t)((w0 >> 36) & 0xfff);
        v[4] = (int16_t)((w0 >> 48) & 0xfff);
        v[5] = (int16_t)(((w0 >> 60) | (w1 << 4)) & 0xfff);
        v[6] = (int16_t)((w1 >> 8) & 0xfff);
        v[7] = (int16_t)((w1 >> 20) & 0xfff);
        v[8] = (int16_t)((w1 >> 32) & 0xfff);
        v[9] = (int16_t)((w1 >> 44) & 0xfff);
        v[10] = (int16_t)(((w1 >> 56) | (w2 << 8)) & 0xfff);
        v[11] = (int16_t)((w2 >> 4) & 0xfff);
        v[12] = (int16_t)((w2 >> 16) & 0xfff);
        v[13] = (int16_t)((w2 >> 28) & 0xfff);
        v[14] = (int16_t)((w2 >> 40) & 0xfff);
        v[15] = (int16_t)(w2 >> 52);
    }
    for (unsigned i = 0; i < 256; i++)
        bad |= MLKEM_Q - 1 - (int32_t)r[i];
    /* all ones if the sign bit of bad is clear */
    return (mlkem_ct_barrier_u32((uint32_t)bad) >> 31) - 1u;
}

/* ---- Through the installed kernel set ------------------------------------ */

void mlkem_poly_reduce(int16_t r[256])
{
    mlkem_poly_kernels()->poly_reduce(r);
}

void mlkem_poly_tomont(int16_t r[256])
{
    mlkem_poly_kernels()->poly_tomont(r);
}

void mlkem_poly_ntt(int16_t r[256])
{
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();
    pk->ntt(r);
    pk->poly_reduce(r);
}

void mlkem_polyvec_ntt(int16_t (*v)[256], unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        mlkem_poly_ntt(v[i]);
}

void mlkem_polyvec_ntt_lazy(int16_t (*v)[256], unsigned k)
{
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();

    for (unsigned i = 0; i < k; i++)
        pk->ntt(v[i]);
}

void mlkem_poly_ntt_inv_tomont(int16_t r[256])
{
    mlkem_poly_kernels()->ntt_inv(r);
}

void mlkem_polyvec_mulcache(int16_t (*c)[128], const int16_t (*b)[256],
                            unsigned k)
{
    const struct mlkem_poly_kernels *pk = mlkem_poly_kernels();
    for (unsigned i = 0; i < k; i++)
        pk->mulcache(c[i], b[i]);
}

void mlkem_polyvec_multiply_ntts_acc(int16_t r[256], const int16_t (*a)[256],
                                     const int16_t (*b)[256],
                                     const int16_t (*bc)[128], unsigned k)
{
    mlkem_poly_kernels()->multiply_ntts_acc(r, &a[0][0], &b[0][0], &bc[0][0],
                                            k);
}

void mlkem_byte_encode_12(uint8_t out[384], const int16_t a[256])
{
    mlkem_poly_kernels()->byte_encode_12(out, a);
}

uint32_t mlkem_byte_decode_12(int16_t r[256], const uint8_t in[384])
{
    return mlkem_poly_kernels()->byte_decode_12(r, in);
}

void mlkem_byte_encode_compress(uint8_t *out, const int16_t a[256],
                                unsigned d)
{
    mlkem_poly_kernels()->byte_encode_compress(out, a, d);
}

void mlkem_decompress_byte_decode(int16_t r[256], const uint8_t *in,
                                  unsigned d)
{
    mlkem_poly_kernels()->decompress_byte_decode(r, in, d);
}
