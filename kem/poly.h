/*
 * poly.h: polynomials in R_q / T_q and vectors of them, their byte encodings
 * and compression (internal to kem/).
 *
 * References
 *   [FIPS203] NIST FIPS 203: §4.2.1 (Compress_d, Decompress_d, eq. 4.7-4.8),
 *             Algorithm 5 (ByteEncode_d), Algorithm 6 (ByteDecode_d), §4.3
 *             (NTT, Algorithms 9-12), §7.2 (modulus check).
 *
 * Representation. A polynomial is int16_t[256]; a vector of k polynomials is
 * int16_t[k][256] (k <= MLKEM_MAX_K). Coefficients are congruent mod q to the
 * spec's values and bounded as stated per function ("|a| < q" means
 * -q < a < q). Values from ByteDecode_12 and the matrix sampler are in
 * [0, q). Polynomials in the NTT domain (T_q) use the spec's coefficient
 * order, so ByteEncode_12 of them is the spec's encoding.
 *
 * Backend contracts (arch/backend.h slots, portable code in kem/ntt.c and
 * kem/sampling.c):
 *   ntt(r):             in |r_i| < q; out |r_i| < 8q, r = NTT(r).
 *   invntt(r):          in any int16_t; out |r_i| < q, r = NTT^-1(r) * 2^16.
 *   basemul_acc(r,a,b,k): 1 <= k <= 4, a and b each k contiguous polys,
 *                       |a coefficient| <= q, |b coefficient| < q;
 *                       out |r_i| < q, r = sum_i a_i o b_i * 2^-16.
 *   rej_uniform(r,len,buf,buflen): buflen a multiple of 3; FIPS 203
 *                       Algorithm 7 lines 5-12 on public bytes; writes
 *                       values in [0, q), returns the count (<= len).
 */
#ifndef MLKEM_KEM_POLY_H
#define MLKEM_KEM_POLY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kem/mlkem.h"

/* Little-endian 64-bit load / store (the byte order of FIPS 203's ByteEncode
 * and of FIPS 202's lanes). On little-endian targets one memcpy, which
 * compilers turn into a single (unaligned) load or store. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MLKEM_KEM_LE 1
#else
#define MLKEM_KEM_LE 0
#endif

static inline uint64_t mlkem_load64le(const uint8_t *p)
{
    uint64_t v;
#if MLKEM_KEM_LE
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
#if MLKEM_KEM_LE
    memcpy(p, &v, 8);
#else
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* Twiddle tables (kem/ntt.c): zetas and the basemul gammas in Montgomery
 * form, each with its product with q^-1 mod 2^16. */
extern const int16_t mlkem_zetas[128];
extern const int16_t mlkem_zetas_qinv[128];
extern const int16_t mlkem_zetas_rev[128];
extern const int16_t mlkem_zetas_rev_qinv[128];
extern const int16_t mlkem_gammas[128];
extern const int16_t mlkem_gammas_qinv[128];

/* ---- Arithmetic (kem/poly.c) --------------------------------------------- */

/* r = a + b, r = a - b (no reduction: the caller keeps |a| + |b| < 2^15). */
void mlkem_poly_add(int16_t r[256], const int16_t a[256], const int16_t b[256]);
void mlkem_poly_sub(int16_t r[256], const int16_t a[256], const int16_t b[256]);
/* Barrett-reduce every coefficient: any int16_t in, [-(q-1)/2, (q-1)/2] out. */
void mlkem_poly_reduce(int16_t r[256]);
/* Barrett-reduce then map to [0, q) (the canonical representative). */
void mlkem_poly_normalize(int16_t r[256]);
/* r = r * 2^16 mod q (|r| < q out), undoing basemul_acc's 2^-16. */
void mlkem_poly_tomont(int16_t r[256]);

/* NTT then Barrett: |r_i| < q in, [-(q-1)/2, (q-1)/2] out (backend ntt). */
void mlkem_poly_ntt(int16_t r[256]);
/* backend invntt: any int16_t in, |r_i| < q out, times 2^16. */
void mlkem_poly_invntt_tomont(int16_t r[256]);
void mlkem_polyvec_ntt(int16_t (*v)[256], unsigned k);
/* r = sum_{i<k} a[i] o b[i] * 2^-16 (backend basemul_acc). */
void mlkem_polyvec_basemul_acc(int16_t r[256], const int16_t (*a)[256],
                               const int16_t (*b)[256], unsigned k);

/* ---- ByteEncode_12 / ByteDecode_12 (kem/poly.c) --------------------------- */

/* FIPS 203 Algorithm 5 with d = 12. Input |a_i| < q (any representative);
 * writes the canonical value in [0, q) of each coefficient, 384 bytes. */
void mlkem_poly_tobytes(uint8_t out[384], const int16_t a[256]);
/*
 * FIPS 203 Algorithm 6 with d = 12, without line 3's "mod q": returns the
 * raw 12-bit values in r and 0xffffffff if every value is < q, 0 otherwise
 * (the §7.2 modulus check: ByteEncode_12(ByteDecode_12(x)) = x exactly when
 * all values are < q). Constant time: the verdict is accumulated with masks
 * over all 256 values, so it is usable on secret input (dk's s); the caller
 * decides whether to branch on the verdict (see each call site).
 */
uint32_t mlkem_poly_frombytes(int16_t r[256], const uint8_t in[384]);

/* ---- Compression (kem/compress.c) ----------------------------------------- */

/* A_d of the fixed-point Compress_d (kem/compress.c). */
extern const uint32_t mlkem_compress_a[12];
/* Compress_d (eq. 4.7) of x in [0, q), d in {1, 4, 5, 10, 11}. */
uint16_t mlkem_compress_d(uint16_t x, unsigned d);
/* Decompress_d (eq. 4.8) of y in [0, 2^d), d in {1, 4, 5, 10, 11}. */
uint16_t mlkem_decompress_d(uint16_t y, unsigned d);
/* ByteEncode_d(Compress_d(a)): 32 d bytes. Input |a_i| < q. */
void mlkem_poly_compress(uint8_t *out, const int16_t a[256], unsigned d);
/* Decompress_d(ByteDecode_d(in)): values in [0, q). */
void mlkem_poly_decompress(int16_t r[256], const uint8_t *in, unsigned d);
/* Decompress_1(ByteDecode_1(m)): FIPS 203 Algorithm 14, line 20. */
void mlkem_poly_frommsg(int16_t r[256], const uint8_t m[32]);
/* ByteEncode_1(Compress_1(a)): Algorithm 15, line 7. Input |a_i| < q. */
void mlkem_poly_tomsg(uint8_t m[32], const int16_t a[256]);

#endif /* MLKEM_KEM_POLY_H */
