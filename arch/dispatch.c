/*
 * dispatch.c: the one place that chooses kernels for this CPU.
 *
 * Today only the portable backend exists; x86-64 (CPUID + XGETBV) and
 * AArch64 (getauxval HWCAP) detection arrive with the avx2/, avx512/ and
 * neon/ backends and plug in here without touching any caller.
 */
#include "arch/backend.h"

#include <string.h>

const struct mlkem_backend mlkem_backend_portable = {
    .name = "portable",
    .keccakf1600 = mlkem_keccakf1600_portable,
    .x4_init = mlkem_keccak_x4_init_portable,
    .x4_xor_bytes = mlkem_keccak_x4_xor_bytes_portable,
    .x4_extract_bytes = mlkem_keccak_x4_extract_bytes_portable,
    .x4_permute = mlkem_keccak_x4_permute_portable,
    .x8_init = mlkem_keccak_x8_init_portable,
    .x8_xor_bytes = mlkem_keccak_x8_xor_bytes_portable,
    .x8_extract_bytes = mlkem_keccak_x8_extract_bytes_portable,
    .x8_permute = mlkem_keccak_x8_permute_portable,
    .ntt = mlkem_ntt_portable,
    .invntt = mlkem_invntt_portable,
    .basemul_acc = mlkem_basemul_acc_portable,
    .rej_uniform = mlkem_rej_uniform_portable,
};

static const struct mlkem_backend *const backends[] = {
    &mlkem_backend_portable,
};

/* The choice is a pure function of the CPU, so a racy first call by two
 * threads stores the same pointer; an atomic keeps the store well defined. */
static const struct mlkem_backend *_Atomic chosen;

/* Best first; the last entry (portable) runs everywhere. */
static const struct mlkem_backend *detect(void)
{
    return backends[sizeof(backends) / sizeof(backends[0]) - 1];
}

const struct mlkem_backend *mlkem_backend(void)
{
    const struct mlkem_backend *b = chosen;
    if (b == NULL) {
        b = detect();
        chosen = b;
    }
    return b;
}

#ifdef MLKEM_TESTING
int mlkem_backend_force(const char *name)
{
    for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
        if (strcmp(backends[i]->name, name) == 0) {
            chosen = backends[i];
            return 1;
        }
    }
    return 0;
}
#endif
