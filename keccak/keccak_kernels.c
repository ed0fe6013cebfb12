/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keccak_kernels.c: the portable kernel set and the set in use.
 *
 * The pointer starts at the portable set, so keccak/ works on its own (a
 * program that links keccak/ without arch/ hashes correctly, portably).
 * arch/dispatch.c installs this CPU's set at load time. The pointer is
 * atomic because tests and benchmarks switch sets while other code may
 * read it; relaxed order suffices: a set is constant data, fully built
 * before its address is stored.
 */
#include "keccak/keccak_kernels.h"

#include <stdatomic.h>

const struct mlkem_keccak_kernels mlkem_keccak_kernels_portable = {
    .name = "portable",
    .f1600 = mlkem_keccak_f1600_portable,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_portable,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_portable,
    .x4_clear_lane = mlkem_keccak_x4_clear_lane_portable,
    .x4_permute = mlkem_keccak_x4_permute_portable,
    .x4_permute_lanes = mlkem_keccak_x4_permute_lanes_portable,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_portable,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_portable,
    .x8_clear_lane = mlkem_keccak_x8_clear_lane_portable,
    .x8_permute = mlkem_keccak_x8_permute_portable,
    .x4_min = 0,
    .x8_min = 0,
};

static const struct mlkem_keccak_kernels *_Atomic active =
    &mlkem_keccak_kernels_portable;

const struct mlkem_keccak_kernels *mlkem_keccak_kernels(void)
{
    return atomic_load_explicit(&active, memory_order_relaxed);
}

void mlkem_keccak_kernels_install(const struct mlkem_keccak_kernels *k)
{
    atomic_store_explicit(&active, k, memory_order_relaxed);
}
