/*
 * poly_avx2.c: the avx2 backend's NTT, NTT^-1 and basemul_acc: kem/ntt.c's
 * portable C compiled a second time with -mavx2. Its loops are written for
 * compilers' vectorizers (see the comment at the top of kem/ntt.c); with
 * AVX2 they run 16 coefficients per instruction instead of SSE2's 8. Same
 * arithmetic, same bounds, same contracts (arch/backend.h): the suites
 * compare both backends' results with the spec-literal references.
 */
#define MLKEM_NTT_FN(name) name##_avx2
#include "kem/ntt.c"
