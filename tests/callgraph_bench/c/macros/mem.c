#include <stdio.h>
#include <stdlib.h>

#include "mem.h"

static size_t live;

static void note(const char *file, int line, size_t n) {
    if (getenv("MEM_TRACE"))
        fprintf(stderr, "%s:%d: %zu bytes, %zu live\n", file, line, n, live);
}

void *mem_alloc_at(size_t n, const char *file, int line) {
    void *p = malloc(n);
    if (p) {
        live++;
        note(file, line, n);
    }
    return p;
}

void mem_free(void *p) {
    if (p)
        live--;
    free(p);
}
