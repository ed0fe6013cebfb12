/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_backends.h: run a test body once per kernel backend.
 *
 * Every backend compiled into this build (arch/dispatch.h) is installed in
 * turn, the portable one first so a failure of the reference is seen
 * before the others; one this CPU cannot run is reported as
 * "SKIP <name>: this CPU cannot run it" and the others still run. A new
 * backend is picked up without touching the tests.
 */
#ifndef MLKEM_TEST_BACKENDS_H
#define MLKEM_TEST_BACKENDS_H

/* The body: checks with TEST_CHECK (test/common/test_util.h) and returns
 * the number of failures it found (0 = pass): test_failure_count() after
 * minus before. */
typedef int (*test_backend_fn)(const char *backend, void *arg);

/* Install each runnable backend and run fn under it, printing
 * "== backend <name>" and the elapsed time. Returns the total number of
 * failures, or 1 if not even the portable backend ran (every one of them
 * also counted by test_finish). The backend chosen
 * at load time is installed again at the end. */
int test_for_each_backend(test_backend_fn fn, void *arg);

#endif /* MLKEM_TEST_BACKENDS_H */
