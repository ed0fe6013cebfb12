/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_backends.c: see test_backends.h.
 */
#include "test/common/test_backends.h"

#include <stdio.h>
#include <string.h>

#include "arch/dispatch.h"
#include "test/common/test_util.h"

int test_for_each_backend(test_backend_fn fn, void *arg)
{
    size_t n;
    const struct mlkem_arch_backend *const *all = mlkem_arch_backends(&n);
    int failures = 0, ran = 0;

    /* The table is best first with portable last: run it backwards. */
    for (size_t i = n; i-- > 0;) {
        const char *name = all[i]->name;
        double t0;
        int f;

        if (!mlkem_arch_use(name)) {
            printf("SKIP %s: this CPU cannot run it\n", name);
            continue;
        }
        if (strcmp(mlkem_arch_current(), name) != 0 ||
            strcmp(mlkem_keccak_kernels()->name, name) != 0) {
            TEST_FAIL("backend %s: installed, but kem/ reports %s and "
                      "keccak/ %s",
                      name, mlkem_arch_current(), mlkem_keccak_kernels()->name);
            failures++;
            continue;
        }
        printf("== backend %s\n", name);
        fflush(stdout);
        t0 = test_now();
        f = fn(name, arg);
        printf("== backend %s: %s (%d failure%s, %.2f s)\n", name,
               f == 0 ? "pass" : "FAIL", f, f == 1 ? "" : "s",
               test_now() - t0);
        fflush(stdout);
        failures += f;
        ran++;
    }
    if (!TEST_CHECK(mlkem_arch_use(mlkem_arch_detect()->name),
                    "the load-time backend %s could not be installed again",
                    mlkem_arch_detect()->name))
        failures++;
    if (ran == 0) {
        TEST_FAIL("no backend could be installed (not even portable)");
        return 1;
    }
    return failures;
}
