/* SPDX-License-Identifier: Apache-2.0 */
/*
 * poly_kernels.h: the replaceable polynomial kernels ("slots") of the
 * ML-KEM kernel, their portable implementations, and the set in use.
 *
 * kem/ owns these types; arch/ implements them for a CPU (arch/avx2/,
 * arch/avx512/, arch/neon/) and installs one set at load time
 * (arch/dispatch.c), together with a Keccak set (keccak/keccak_kernels.h).
 * Until then, and on CPUs without a better set, the portable kernels run.
 * kem/ never looks at the CPU; it calls a slot once per polynomial (or per
 * row), never per coefficient.
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithms 5-12, §4.2.1 (Compress_d,
 *             Decompress_d), §7.2 (modulus check).
 *   [MLKN]    mlkem-native, mlkem/src/native/api.h: the shape of a backend
 *             interface with a portable fallback and a backend-defined
 *             NTT-domain order.
 *
 * Representation: a polynomial is int16_t[256] with coefficients congruent
 * mod q to the spec's; "|a| < B" means -B < a < B; "canonical" means in
 * [0, q). Secrets pass through most slots: every slot but sample_ntt_rej
 * must be constant time (no branch, index or division on coefficients).
 *
 * NTT-domain order. A set may keep NTT-domain polynomials (T_q) in its own
 * coefficient order, e.g. the one its vector NTT produces without final
 * shuffles. Everything that crosses the byte boundary converts: ntt, ntt_inv
 * and multiply_ntts_acc work in the set's order, byte_encode_12 /
 * byte_decode_12 (which in ML-KEM only ever encode T_q elements: t-hat in
 * ek, s-hat in dk) write and read the spec's byte order, and ntt_pack turns
 * a polynomial sampled in the spec's order (SampleNTT) into the set's order.
 * The portable set uses the spec's order and its ntt_pack does nothing.
 * Element-wise operations (add, reduce, tomont, normalize) do not care.
 *
 * Slot contracts (test/arch/test_slots.c checks every set against the
 * portable one on edge inputs; test/kem checks the portable set against
 * the spec):
 *   ntt(r)                   Algorithm 9: in |r_i| < q, out |r_i| < 8q.
 *   ntt_inv(r)               Algorithm 10 times 2^16 (the Montgomery factor
 *                            that cancels multiply_ntts_acc's 2^-16): in any
 *                            int16_t, out |r_i| < q.
 *   ntt_pack(r)              spec order -> set order, values unchanged.
 *   mulcache(c, b)           c (128 int16_t) caches what multiply_ntts_acc
 *                            needs of b besides b itself (the portable set:
 *                            c[p] = b[2p+1] * gamma_p, Montgomery, |.| < q);
 *                            in |b_i| < q. The layout is the set's own.
 *   multiply_ntts_acc(r, a, b, bc, k)
 *                            Algorithms 11 + 12 summed over k <= 4 terms:
 *                            r = sum_i a_i o b_i * 2^-16; a, b are k
 *                            contiguous polynomials, bc their k caches;
 *                            in |a| <= q, |b| < q; out |r_i| < q.
 *   poly_reduce(r)           any int16_t in, congruent out with |r_i| < q
 *                            (the portable Barrett: |r_i| <= (q-1)/2).
 *   poly_tomont(r)           r * 2^16 mod q: any int16_t in, |r_i| < q out.
 *   byte_encode_12(out, a)   Algorithm 5, d = 12, of the canonical value of
 *                            each coefficient; in |a_i| < q (set order),
 *                            out 384 bytes (spec order).
 *   byte_decode_12(r, in)    Algorithm 6, d = 12, without line 3's mod q:
 *                            raw 12-bit values (set order) and 0xffffffff if
 *                            all are < q, else 0 (the §7.2 check), computed
 *                            without branches (used on dk's secret s).
 *   byte_encode_compress(out, a, d)
 *                            ByteEncode_d(Compress_d(a)), d in {1, 4, 5, 10,
 *                            11}; in |a_i| < q; out 32 d bytes.
 *   decompress_byte_decode(r, in, d)
 *                            Decompress_d(ByteDecode_d(in)), same d;
 *                            out canonical.
 *   sample_poly_cbd(r, buf, eta)
 *                            Algorithm 8 on 64 eta bytes, eta in {2, 3};
 *                            out in [-eta, eta].
 *   sample_ntt_rej(r, len, buf, buflen)
 *                            Algorithm 7 lines 5-12 on public bytes (buflen
 *                            a multiple of 3): writes accepted values (in
 *                            [0, q), spec order) to r[0..], at most len, and
 *                            returns how many; writes nothing at r[len..]
 *                            (r[count..len) may be overwritten).
 *   sample_ntt_x4(st, lanes, r, ctr)
 *                            sample_ntt_rej on the first 168 bytes (one
 *                            SHAKE128 block) of each state l in the bit mask
 *                            `lanes` (bits 0-3) of the x4 Keccak state st,
 *                            appending to r[l] at ctr[l] (< 256), at most
 *                            256 values in all, and advancing ctr[l]; writes
 *                            nothing at r[l][256..]. st is in the layout of
 *                            the Keccak set installed with this set (one
 *                            backend installs both, arch/dispatch.c), so a
 *                            vector set may read its lanes straight from
 *                            the state instead of copying the bytes out.
 *                            Public data only. NULL means the portable one
 *                            (extract_bytes, then this set's
 *                            sample_ntt_rej), so a set need not have it.
 */
#ifndef MLKEM_KEM_POLY_KERNELS_H
#define MLKEM_KEM_POLY_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mlkem_poly_kernels {
    const char *name; /* the backend's name: "portable", "avx2", ... */

    void (*ntt)(int16_t r[256]);
    void (*ntt_inv)(int16_t r[256]);
    void (*ntt_pack)(int16_t r[256]);
    void (*mulcache)(int16_t c[128], const int16_t b[256]);
    void (*multiply_ntts_acc)(int16_t r[256], const int16_t *a,
                              const int16_t *b, const int16_t *bc,
                              unsigned k);
    void (*poly_reduce)(int16_t r[256]);
    void (*poly_tomont)(int16_t r[256]);
    void (*byte_encode_12)(uint8_t out[384], const int16_t a[256]);
    uint32_t (*byte_decode_12)(int16_t r[256], const uint8_t in[384]);
    void (*byte_encode_compress)(uint8_t *out, const int16_t a[256],
                                 unsigned d);
    void (*decompress_byte_decode)(int16_t r[256], const uint8_t *in,
                                   unsigned d);
    void (*sample_poly_cbd)(int16_t r[256], const uint8_t *buf, unsigned eta);
    unsigned (*sample_ntt_rej)(int16_t *r, unsigned len, const uint8_t *buf,
                               size_t buflen);
    void (*sample_ntt_x4)(const mlkem_keccak_x4 *st, unsigned lanes,
                          int16_t *const r[4], unsigned ctr[4]);
};

/* The portable set (kem/ntt.c, kem/poly.c, kem/compress.c,
 * kem/sampling.c): always available, the reference of every test. */
extern const struct mlkem_poly_kernels mlkem_poly_kernels_portable;

void mlkem_ntt_portable(int16_t r[256]);
void mlkem_ntt_inv_portable(int16_t r[256]);
void mlkem_ntt_pack_portable(int16_t r[256]);
void mlkem_mulcache_portable(int16_t c[128], const int16_t b[256]);
void mlkem_multiply_ntts_acc_portable(int16_t r[256], const int16_t *a,
                                      const int16_t *b, const int16_t *bc,
                                      unsigned k);
void mlkem_poly_reduce_portable(int16_t r[256]);
void mlkem_poly_tomont_portable(int16_t r[256]);
void mlkem_byte_encode_12_portable(uint8_t out[384], const int16_t a[256]);
uint32_t mlkem_byte_decode_12_portable(int16_t r[256], const uint8_t in[384]);
void mlkem_byte_encode_compress_portable(uint8_t *out, const int16_t a[256],
                                         unsigned d);
void mlkem_decompress_byte_decode_portable(int16_t r[256], const uint8_t *in,
                                           unsigned d);
void mlkem_sample_poly_cbd_portable(int16_t r[256], const uint8_t *buf,
                                    unsigned eta);
unsigned mlkem_sample_ntt_rej_portable(int16_t *r, unsigned len,
                                       const uint8_t *buf, size_t buflen);
void mlkem_sample_ntt_x4_portable(const mlkem_keccak_x4 *st, unsigned lanes,
                                  int16_t *const r[4], unsigned ctr[4]);

/* The set in use (the portable one until arch/ installs another). */
const struct mlkem_poly_kernels *mlkem_poly_kernels(void);
/* Install a set. arch/dispatch.c does this once at load time; tests and
 * benchmarks switch sets between operations only (a parsed key keeps its
 * NTT-domain polynomials in the order of the set that parsed it). */
void mlkem_poly_kernels_install(const struct mlkem_poly_kernels *k);

#ifdef __cplusplus
}
#endif

#endif /* MLKEM_KEM_POLY_KERNELS_H */
