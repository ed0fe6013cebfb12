/* SPDX-License-Identifier: Apache-2.0 */
/*
 * slots.c: the Eva driver of the portable polynomial slots
 * (kem/poly_kernels.h), each called once with every input its contract
 * allows: every coefficient any value of its range (Frama_C_interval),
 * every byte any value (Frama_C_make_unknown), every d, eta and k the
 * kernel uses (the rejection sampler: drivers/sampler.c). After each call the
 * output bounds of the contract are asserted per coefficient. The ACSL
 * requires of kem/reduce.h are checked at every call inside.
 */
#include <stdint.h>

#include "__fc_builtin.h"
#include "kem/mlkem.h"
#include "kem/poly.h"
#include "kem/poly_kernels.h"

#define Q MLKEM_Q

static void coeffs(int16_t *r, unsigned n, int lo, int hi)
{
    for (unsigned i = 0; i < n; i++)
        r[i] = (int16_t)Frama_C_interval(lo, hi);
}

static void bytes(uint8_t *p, size_t n)
{
    Frama_C_make_unknown((char *)p, n);
}

/* A macro, so that each call site has its own assertion to report. */
#define check(r, n, lo, hi)                                                   \
    for (unsigned i_ = 0; i_ < (n); i_++) {                                   \
        /*@ assert bound: (lo) <= (r)[i_] <= (hi); */                         \
    }

static int16_t a[4][256], b[4][256], bc[4][128], r[256];
static uint8_t buf[3 * 64], out[384];

int main(void)
{
    /* ntt: |r_i| < q in, |r_i| < 8q out. */
    coeffs(r, 256, -(Q - 1), Q - 1);
    mlkem_ntt_portable(r);
    check(r, 256, -(8 * Q - 1), 8 * Q - 1);
    /* ntt_inv: any int16_t in, |r_i| < q out. */
    coeffs(r, 256, -32768, 32767);
    mlkem_ntt_inv_portable(r);
    check(r, 256, -(Q - 1), Q - 1);
    /* poly_reduce, poly_tomont: any int16_t in, |r_i| < q out. */
    coeffs(r, 256, -32768, 32767);
    mlkem_poly_reduce_portable(r);
    check(r, 256, -(Q - 1) / 2, (Q - 1) / 2);
    coeffs(r, 256, -32768, 32767);
    mlkem_poly_tomont_portable(r);
    check(r, 256, -(Q - 1), Q - 1);
    /* mulcache: |b_i| < q in, |c_p| < q out. */
    coeffs(&b[0][0], 4 * 256, -(Q - 1), Q - 1);
    for (unsigned i = 0; i < 4; i++)
        mlkem_mulcache_portable(bc[i], b[i]);
    check(&bc[0][0], 4 * 128, -(Q - 1), Q - 1);
    /* multiply_ntts_acc: |a| <= q, |b| < q (bc its cache), k = 1 .. 4;
     * |r_i| < q out (the Montgomery reduction's, drivers/reduce.c). */
    coeffs(&a[0][0], 4 * 256, -Q, Q);
    for (unsigned k = 1; k <= 4; k++) {
        mlkem_multiply_ntts_acc_portable(r, &a[0][0], &b[0][0], &bc[0][0], k);
        check(r, 256, -(Q - 1), Q - 1);
    }
    /* byte_encode_12: |a_i| < q in; byte_decode_12: any bytes in, raw
     * 12-bit values out. */
    coeffs(r, 256, -(Q - 1), Q - 1);
    mlkem_byte_encode_12_portable(out, r);
    bytes(out, 384);
    uint32_t ok = mlkem_byte_decode_12_portable(r, out);
    check(r, 256, 0, 4095);
    /* byte_encode_compress: |a_i| < q in, 32 d bytes out;
     * decompress_byte_decode: any bytes in, [0, q) out. */
    static const unsigned ds[5] = {1, 4, 5, 10, 11};
    for (unsigned i = 0; i < 5; i++) {
        coeffs(r, 256, -(Q - 1), Q - 1);
        mlkem_byte_encode_compress_portable(out, r, ds[i]);
        bytes(out, 32 * ds[i]);
        mlkem_decompress_byte_decode_portable(r, out, ds[i]);
        check(r, 256, 0, Q - 1);
    }
    /* sample_poly_cbd: any 64 eta bytes, eta = 2, 3; out [-eta, eta]. */
    for (unsigned eta = 2; eta <= 3; eta++) {
        bytes(buf, 64 * eta);
        mlkem_sample_poly_cbd_portable(r, buf, eta);
        check(r, 256, -(int)eta, (int)eta);
    }
    Frama_C_show_each_proof_end(ok);
    return 0;
}
