#include <stdio.h>

#include "parser.h"

/* not parser.c's fail: each file's static helper is its own */
static int fail(const char *what) {
    fprintf(stderr, "calc: %s\n", what);
    return 1;
}

int main(int argc, char **argv) {
    long value;
    if (argc < 2)
        return fail("usage: calc EXPR");
    if (parse_expr(argv[1], &value) != 0)
        return fail(parse_error());
    printf("%ld\n", value);
    return 0;
}
