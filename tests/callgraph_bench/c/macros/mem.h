#ifndef MEM_H
#define MEM_H

#include <stddef.h>

void *mem_alloc_at(size_t n, const char *file, int line);
void mem_free(void *p);

#define mem_alloc(n) mem_alloc_at((n), __FILE__, __LINE__)
#define MEM_NEW(type) ((type *)mem_alloc(sizeof(type)))

#endif
