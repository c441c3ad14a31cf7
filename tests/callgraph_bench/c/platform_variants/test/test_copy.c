#include "../include/fsx.h"
#include "runner.h"

static int test_copy_missing(void) {
    int err = fsx_copy("/nonexistent", "/tmp/fsx-out");
    return expect(err < 0, fsx_strerror(err));
}

int main(void) { return run_test("copy_missing", test_copy_missing); }
