/*
 * test_backends.c: see test_backends.h.
 */
#include "test/common/test_backends.h"

#include <stdio.h>
#include <string.h>

#include "arch/backend.h"
#include "test/common/test_util.h"

#ifndef MLKEM_TESTING
#error "test_backends.c needs the MLKEM_TESTING kernel (mlkem_core_testing)"
#endif

/* Every backend name arch/dispatch.c may know, best last so the portable
 * reference runs first and a failure there is seen before the others. */
static const char *const names[] = {"portable", "avx2", "avx512", "neon"};

int test_for_each_backend(test_backend_fn fn, void *arg)
{
    int failures = 0, ran = 0;

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        double t0;
        int f;

        if (!mlkem_backend_force(names[i])) {
            printf("SKIP %s: not available\n", names[i]);
            continue;
        }
        if (mlkem_backend() == NULL || mlkem_backend()->name == NULL ||
            strcmp(mlkem_backend()->name, names[i]) != 0) {
            test_fail("backend %s: forced, but mlkem_backend() reports %s",
                      names[i], mlkem_backend() && mlkem_backend()->name
                                    ? mlkem_backend()->name : "(null)");
            failures++;
            continue;
        }
        printf("== backend %s\n", mlkem_backend()->name);
        fflush(stdout);
        t0 = test_now();
        f = fn(names[i], arg);
        printf("== backend %s: %s (%d failure%s, %.2f s)\n", names[i],
               f == 0 ? "pass" : "FAIL", f, f == 1 ? "" : "s",
               test_now() - t0);
        fflush(stdout);
        failures += f;
        ran++;
    }
    if (ran == 0) {
        test_fail("no backend could be forced (not even portable)");
        return 1;
    }
    return failures;
}
