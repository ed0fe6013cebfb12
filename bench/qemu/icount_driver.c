/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icount_driver.c: the program whose instructions bench/qemu/icount.sh
 * counts (with insn_plugin.c under qemu-user): each ML-KEM operation of
 * the kernel, run REPS times between two phase markers.
 *
 * Usage: icount_driver [BITS [REPS]]   (default 768 and 4)
 *        icount_driver list            the backends compiled in, and
 *                                      whether this CPU runs them
 * The backend is the load-time choice (arch/dispatch.c), so MLKEM_BACKEND
 * forces one. Phases (each op once as a warm-up outside every phase, then
 * REPS times inside its own):
 *   keygen      mlkem_keygen_internal(d, z)           byte forms
 *   encaps      mlkem_encaps_internal(ek, m)
 *   decaps      mlkem_decaps_internal(dk, c)
 *   key_keygen  mlkem_key_generate(d, z)              held-key forms
 *   key_ek      mlkem_key_set_ek(ek)  (parse + §7.2 check)
 *   key_encaps  mlkem_key_encaps(m)
 *   key_dk      mlkem_key_set_dk(dk)  (parse + §7.3 checks)
 *   key_decaps  mlkem_key_decaps(c)
 * The inputs are fixed (d, z, m are counters), so every backend computes
 * the same bytes: stdout gets the backend's name and a digest line (the
 * shared secrets and the first bytes of ek and c) that the script compares
 * across backends. Exit 1 if an operation fails or the secrets differ.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/dispatch.h"
#include "kem/mlkem.h"

/* Markers (bench/qemu/insn_plugin.c): each a distinct function that the
 * compiler may neither inline nor merge with another (noipa; with clang
 * noinline, and each stores its own id, so no two are identical), named
 * icount_mark_<phase>. */
volatile unsigned icount_phase_id;
#if defined(__clang__)
#define MARK_ATTR __attribute__((noinline)) /* clang has no noipa */
#else
#define MARK_ATTR __attribute__((noipa))
#endif
#define MARK(name, id)                                                        \
    MARK_ATTR void icount_mark_##name(void);                                  \
    MARK_ATTR void icount_mark_##name(void)                                   \
    {                                                                         \
        icount_phase_id = (id);                                               \
    }
MARK(idle, 0)
MARK(keygen, 1)
MARK(encaps, 2)
MARK(decaps, 3)
MARK(key_keygen, 4)
MARK(key_ek, 5)
MARK(key_encaps, 6)
MARK(key_dk, 7)
MARK(key_decaps, 8)

static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
static uint8_t ct[MLKEM_MAX_CT_BYTES], k_enc[32], k_dec[32], k_key[32];
static uint8_t ct2[MLKEM_MAX_CT_BYTES], k_enc2[32];
static mlkem_key key_pub, key_priv, key_gen;

static void fail(const char *what)
{
    fprintf(stderr, "icount_driver: %s failed\n", what);
    exit(1);
}

/* Run STMT once, then REPS times in phase NAME. */
#define PHASE(name, stmt)                                                     \
    do {                                                                      \
        if ((stmt) != MLKEM_OK)                                               \
            fail(#name);                                                      \
        icount_mark_##name();                                                 \
        for (unsigned r_ = 0; r_ < reps; r_++)                                \
            if ((stmt) != MLKEM_OK)                                           \
                fail(#name);                                                  \
        icount_mark_idle();                                                   \
    } while (0)

static void hex(const char *label, const uint8_t *b, size_t n)
{
    printf(" %s=", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "list") == 0) {
        size_t n;
        const struct mlkem_arch_backend *const *b = mlkem_arch_backends(&n);
        for (size_t i = 0; i < n; i++)
            printf("%s %s\n", b[i]->name,
                   mlkem_arch_runnable(b[i]) ? "runnable" : "not-runnable");
        return 0;
    }
    const unsigned bits = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 768;
    const unsigned reps = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 4;
    const mlkem_params *p = mlkem_params_by_bits(bits);
    uint8_t d[32], z[32], m[32];

    if (p == NULL || reps == 0) {
        fprintf(stderr, "usage: icount_driver [512|768|1024 [REPS>0]]\n");
        return 2;
    }
    for (unsigned i = 0; i < 32; i++) {
        d[i] = (uint8_t)i;
        z[i] = (uint8_t)(0x40 + i);
        m[i] = (uint8_t)(0x80 + i);
    }
    mlkem_key_init(&key_pub, p);
    mlkem_key_init(&key_priv, p);
    mlkem_key_init(&key_gen, p);

    PHASE(keygen, mlkem_keygen_internal(p, ek, dk, d, z));
    PHASE(encaps, mlkem_encaps_internal(p, ct, k_enc, ek, p->ek_bytes, m));
    PHASE(decaps, mlkem_decaps_internal(p, k_dec, ct, p->ct_bytes, dk,
                                        p->dk_bytes));
    PHASE(key_keygen, mlkem_key_generate(&key_gen, d, z));
    PHASE(key_ek, mlkem_key_set_ek(&key_pub, ek, p->ek_bytes));
    PHASE(key_encaps, mlkem_key_encaps(&key_pub, ct2, k_enc2, m));
    PHASE(key_dk, mlkem_key_set_dk(&key_priv, dk, p->dk_bytes));
    PHASE(key_decaps, mlkem_key_decaps(&key_priv, k_key, ct, p->ct_bytes));

    if (memcmp(k_enc, k_dec, 32) != 0 || memcmp(k_enc, k_enc2, 32) != 0 ||
        memcmp(k_enc, k_key, 32) != 0 ||
        memcmp(ct, ct2, p->ct_bytes) != 0)
        fail("the shared-secret check");
    printf("backend %s\n", mlkem_backend_name());
    printf("digest %u", bits);
    hex("K", k_enc, 32);
    hex("ek", ek, 16);
    hex("c", ct, 16);
    printf("\n");
    mlkem_key_cleanse(&key_pub);
    mlkem_key_cleanse(&key_priv);
    mlkem_key_cleanse(&key_gen);
    return 0;
}
