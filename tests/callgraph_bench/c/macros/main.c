#include <stdio.h>

#include "table.h"

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "check failed: %s\n", #cond);                                  \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main(void) {
    struct table *t = table_new();
    int v = 0;
    CHECK(t != NULL);
    CHECK(table_put(t, "a", 1) == 0);
    CHECK(table_get(t, "a", &v) && v == 1);
    table_free(t);
    return 0;
}
