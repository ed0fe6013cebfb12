/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dispatch.h: the CPU backends and the one place that chooses among them.
 *
 * A backend is a name, a Keccak kernel set (keccak/keccak_kernels.h) and a
 * polynomial kernel set (kem/poly_kernels.h): arch/ implements the slots
 * that keccak/ and kem/ declare, and installs one backend's sets at load
 * time (an ELF constructor in arch/dispatch.c, before the provider's
 * OSSL_provider_init runs). keccak/ and kem/ never look at the CPU and
 * never call into arch/: the dependencies point one way, common <- keccak
 * <- kem <- arch.
 *
 * Choice: the best backend the CPU can run (CPUID + XGETBV on x86-64,
 * getauxval(AT_HWCAP) on AArch64), unless the environment variable
 * MLKEM_BACKEND names another runnable one ("portable", "avx2", ...; read
 * with secure_getenv, so setuid programs ignore it). An unknown or
 * unrunnable name is ignored.
 *
 * Tests and benchmarks switch backends with mlkem_arch_use() between
 * operations (never while another thread runs one).
 */
#ifndef MLKEM_ARCH_DISPATCH_H
#define MLKEM_ARCH_DISPATCH_H

#include <stddef.h>

#include "keccak/keccak_kernels.h"
#include "kem/poly_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mlkem_arch_backend {
    const char *name; /* "portable", "avx2", "avx512", "neon", "neon-sha3" */
    const struct mlkem_keccak_kernels *keccak;
    const struct mlkem_poly_kernels *poly;
    /* The CPU features it runs on: bits of mlkem_arch_cpu_features()
     * (MLKEM_X86_* in arch/x86_64.h, MLKEM_AARCH64_* in arch/aarch64.h);
     * 0 for the portable backend. */
    unsigned needs;
    /* Installed in its place on a CPU that also has variant->needs (the
     * same name and kernels, a vendor's grouping), or NULL. Not listed by
     * mlkem_arch_backends(). */
    const struct mlkem_arch_backend *variant;
    /* Features without which it runs only when named (MLKEM_BACKEND,
     * mlkem_arch_use): the load-time choice passes it over on a CPU that
     * lacks any of them. 0 for most backends. */
    unsigned prefers;
};

/* This CPU's features (and the OS's support for their register state),
 * read once, on first use, and cached. */
unsigned mlkem_arch_cpu_features(void);
#ifdef MLKEM_TESTING
/* How many times the CPU was read (1 after any use). */
unsigned mlkem_arch_cpu_reads(void);
#endif

/* The backends compiled into this build, best first; the last one is the
 * portable backend, which runs everywhere. *n gets the count. */
const struct mlkem_arch_backend *const *mlkem_arch_backends(size_t *n);
/* 1 if this CPU (and OS) can run b: it has every feature in b->needs. */
int mlkem_arch_runnable(const struct mlkem_arch_backend *b);
/* The backend the load-time choice made (CPU and MLKEM_BACKEND). */
const struct mlkem_arch_backend *mlkem_arch_detect(void);
/* Install backend `name`: 1, or 0 (nothing changed) if it is not compiled
 * in or this CPU cannot run it. */
int mlkem_arch_use(const char *name);
/* The installed backend's name. */
const char *mlkem_arch_current(void);

#ifdef __cplusplus
}
#endif

#endif /* MLKEM_ARCH_DISPATCH_H */
