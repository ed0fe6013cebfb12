/*
 * backend.h: the table of replaceable kernels, one per CPU backend.
 *
 * arch/dispatch.c is the only place that looks at the CPU. It picks one
 * `const struct mlkem_backend *` once (cached) and every caller in kem/ and
 * keccak/ reaches the kernels through mlkem_backend(). The portable table
 * fills every slot from kem/ and keccak/; an architecture table starts as a
 * copy of it and overrides only what it accelerates, so no slot is ever NULL
 * and a half-finished backend still runs (mlkem-native's FALLBACK idea,
 * XKCP's "-on1" parallel fallbacks).
 *
 * Keccak slots swap as one set: a backend owns the memory layout of its
 * keccak_x4 / keccak_x8 states (it may interleave lanes), so its xor/extract
 * functions and its permutations must come from the same backend.
 *
 * Dispatch is per permutation or per polynomial, never per coefficient.
 *
 * Coefficient contracts (all int16_t, q = 3329):
 *   ntt:          in |a_i| < q             out |a_i| < 8q (unreduced)
 *   invntt:       in |a_i| < 8q? no: any int16_t    out |a_i| < q, times the
 *                 Montgomery factor 2^16 (as in the reference implementation)
 *   basemul_acc:  see kem/poly.h (mlkem_polyvec_basemul_acc_montgomery)
 *   rej_uniform:  public input (SHAKE128 output of rho); writes values in
 *                 [0, q) and returns how many were written (<= len)
 * kem/poly.h documents each contract next to the portable function.
 */
#ifndef MLKEM_ARCH_BACKEND_H
#define MLKEM_ARCH_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak.h"

struct mlkem_backend {
    const char *name; /* "portable", "avx2", "avx512", "neon" */

    /* Keccak (SnP + PlSnP), swapped as one set. */
    void (*keccakf1600)(uint64_t s[25]);
    void (*x4_init)(keccak_x4 *st);
    void (*x4_xor_bytes)(keccak_x4 *st, unsigned lane, unsigned offset,
                         const uint8_t *in, size_t len);
    void (*x4_extract_bytes)(const keccak_x4 *st, unsigned lane,
                             unsigned offset, uint8_t *out, size_t len);
    void (*x4_permute)(keccak_x4 *st);
    void (*x8_init)(keccak_x8 *st);
    void (*x8_xor_bytes)(keccak_x8 *st, unsigned lane, unsigned offset,
                         const uint8_t *in, size_t len);
    void (*x8_extract_bytes)(const keccak_x8 *st, unsigned lane,
                             unsigned offset, uint8_t *out, size_t len);
    void (*x8_permute)(keccak_x8 *st);
    /* How kem/sampling.c groups independent SHAKE streams (matrix entries,
     * PRF outputs): a group of at least x8_min streams goes through one x8
     * call (0: never), then groups of at least x4_min through x4 calls
     * (unused lanes are permuted for nothing), the rest through single
     * sponges. Portable: x4_min 4, x8_min 0 (a portable x4 costs four
     * permutations, so a lane is never wasted). */
    unsigned char x4_min;
    unsigned char x8_min;

    /* Polynomial arithmetic (kem/poly.h gives the contracts). */
    void (*ntt)(int16_t r[256]);
    void (*invntt)(int16_t r[256]);
    void (*basemul_acc)(int16_t r[256], const int16_t *a, const int16_t *b,
                        unsigned k);
    unsigned (*rej_uniform)(int16_t *r, unsigned len, const uint8_t *buf,
                            size_t buflen);
};

/* The backend chosen for this CPU (detected once, cached). */
const struct mlkem_backend *mlkem_backend(void);

/* The portable table: always available, the reference for every test. */
extern const struct mlkem_backend mlkem_backend_portable;

/* Portable kernels (defined in keccak/ and kem/). */
void mlkem_keccakf1600_portable(uint64_t s[25]);
void mlkem_keccak_x4_init_portable(keccak_x4 *st);
void mlkem_keccak_x4_xor_bytes_portable(keccak_x4 *st, unsigned lane,
                                        unsigned offset, const uint8_t *in,
                                        size_t len);
void mlkem_keccak_x4_extract_bytes_portable(const keccak_x4 *st, unsigned lane,
                                            unsigned offset, uint8_t *out,
                                            size_t len);
void mlkem_keccak_x4_permute_portable(keccak_x4 *st);
void mlkem_keccak_x8_init_portable(keccak_x8 *st);
void mlkem_keccak_x8_xor_bytes_portable(keccak_x8 *st, unsigned lane,
                                        unsigned offset, const uint8_t *in,
                                        size_t len);
void mlkem_keccak_x8_extract_bytes_portable(const keccak_x8 *st, unsigned lane,
                                            unsigned offset, uint8_t *out,
                                            size_t len);
void mlkem_keccak_x8_permute_portable(keccak_x8 *st);

void mlkem_ntt_portable(int16_t r[256]);
void mlkem_invntt_portable(int16_t r[256]);
void mlkem_basemul_acc_portable(int16_t r[256], const int16_t *a,
                                const int16_t *b, unsigned k);
unsigned mlkem_rej_uniform_portable(int16_t *r, unsigned len,
                                    const uint8_t *buf, size_t buflen);

#ifdef MLKEM_TESTING
/* Tests may force a backend by name ("portable", ...). Returns 0 if the name
 * is unknown or the CPU cannot run it. Not built into release binaries. */
int mlkem_backend_force(const char *name);
#endif

#endif /* MLKEM_ARCH_BACKEND_H */
