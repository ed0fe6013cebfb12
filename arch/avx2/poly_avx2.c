/*
 * poly_avx2.c: the avx2 backend's NTT, NTT^-1, multiplication cache and
 * MultiplyNTTs: the portable kernels' template (kem/ntt_template.h)
 * instantiated a second time in a file compiled with -mavx2. Its loops are
 * written for compilers' vectorizers (see the template's comment); with
 * AVX2 they run 16 coefficients per instruction instead of SSE2's 8. Same
 * arithmetic, same bounds, same contracts (kem/poly_kernels.h): the slot
 * test compares every slot with the portable one, and the vector suites
 * run on this backend.
 */
#include "arch/x86_64.h"

#define MLKEM_NTT_FN(name) name##_avx2
#include "kem/ntt_template.h"
