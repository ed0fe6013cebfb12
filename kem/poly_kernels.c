/* SPDX-License-Identifier: Apache-2.0 */
/*
 * poly_kernels.c: the portable polynomial kernel set and the set in use
 * (kem/poly_kernels.h). The pointer starts at the portable set, so kem/
 * works on its own; arch/dispatch.c installs this CPU's set at load time.
 * Relaxed atomics suffice: a set is constant data.
 */
#include "kem/poly_kernels.h"

#include <stdatomic.h>

const struct mlkem_poly_kernels mlkem_poly_kernels_portable = {
    .name = "portable",
    .ntt = mlkem_ntt_portable,
    .ntt_inv = mlkem_ntt_inv_portable,
    .ntt_pack = mlkem_ntt_pack_portable,
    .mulcache = mlkem_mulcache_portable,
    .multiply_ntts_acc = mlkem_multiply_ntts_acc_portable,
    .poly_reduce = mlkem_poly_reduce_portable,
    .poly_tomont = mlkem_poly_tomont_portable,
    .byte_encode_12 = mlkem_byte_encode_12_portable,
    .byte_decode_12 = mlkem_byte_decode_12_portable,
    .byte_encode_compress = mlkem_byte_encode_compress_portable,
    .decompress_byte_decode = mlkem_decompress_byte_decode_portable,
    .sample_poly_cbd = mlkem_sample_poly_cbd_portable,
    .sample_ntt_rej = mlkem_sample_ntt_rej_portable,
    .sample_ntt_x4 = mlkem_sample_ntt_x4_portable,
};

static const struct mlkem_poly_kernels *_Atomic active =
    &mlkem_poly_kernels_portable;

const struct mlkem_poly_kernels *mlkem_poly_kernels(void)
{
    return atomic_load_explicit(&active, memory_order_relaxed);
}

void mlkem_poly_kernels_install(const struct mlkem_poly_kernels *k)
{
    atomic_store_explicit(&active, k, memory_order_relaxed);
}
