/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prelude.h: included first in every file Frama-C parses (proof/eva.sh).
 * What it changes is part of the model docs/proofs.md lists:
 *   - C11 _Alignas, which Frama-C 25 does not parse, is defined away
 *     (alignment changes no value or bound that the analysis checks);
 *   - the kernel-set pointers (keccak/keccak_kernels.c, kem/poly_kernels.c)
 *     are read and written as plain pointers: Frama-C's libc models an
 *     atomic load as returning any value, and the analysis is of one
 *     thread, in which a relaxed atomic load returns the last store.
 */
#define _Alignas(x)
#include <stdatomic.h>
#undef atomic_load_explicit
#define atomic_load_explicit(obj, order) (*(obj))
