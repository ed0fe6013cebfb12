/*
 * test_backends.h: run a test body once per kernel backend.
 *
 * Needs the MLKEM_TESTING build of the kernel (link mlkem_core_testing),
 * whose arch/dispatch.c offers mlkem_backend_force(). Every known backend
 * name is tried in turn; one the build or the CPU cannot run is reported as
 * "SKIP <name>: not available" and the others still run. Today only
 * "portable" exists.
 */
#ifndef MLKEM_TEST_BACKENDS_H
#define MLKEM_TEST_BACKENDS_H

/* The body: returns the number of failures it found (0 = pass). */
typedef int (*test_backend_fn)(const char *backend, void *arg);

/* Force each available backend and run fn under it, printing
 * "== backend <name>" and the elapsed time. Returns the total number of
 * failures, or 1 if no backend at all could be forced. */
int test_for_each_backend(test_backend_fn fn, void *arg);

#endif /* MLKEM_TEST_BACKENDS_H */
