/* An older tool kept in the repository: its own allocator, not mem.h's macro. */
#include <stdlib.h>

void *mem_alloc(size_t n) { return calloc(1, n); }

int legacy_main(void) {
    char *p = mem_alloc(4);
    free(p);
    return 0;
}
