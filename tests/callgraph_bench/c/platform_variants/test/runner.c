#include <stdio.h>

#include "runner.h"

static void report(const char *name, int rc) { printf("%s %s\n", rc ? "not ok" : "ok", name); }

int expect(int ok, const char *message) {
    if (!ok)
        fprintf(stderr, "  %s\n", message);
    return ok ? 0 : 1;
}

int run_test(const char *name, int (*fn)(void)) {
    int rc = fn();
    report(name, rc);
    return rc;
}
