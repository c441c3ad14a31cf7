#include <string.h>

#include "mem.h"
#include "table.h"

#define HASH_STEP(h, c) (((h) << 5) + (h) + (unsigned char)(c))
#define table_slot(t, key) (&(t)->slots[table_hash(key) % TABLE_SIZE])

struct table *table_new(void) {
    struct table *t = MEM_NEW(struct table);
    if (t)
        memset(t, 0, sizeof *t);
    return t;
}

unsigned table_hash(const char *key) {
    unsigned h = 5381;
    while (*key)
        h = HASH_STEP(h, *key++);
    return h;
}

int table_put(struct table *t, const char *key, int value) {
    struct entry **slot = table_slot(t, key);
    struct entry *e = mem_alloc(sizeof *e);
    if (!e)
        return -1;
    e->key = key;
    e->value = value;
    e->next = *slot;
    *slot = e;
    return 0;
}

int table_get(const struct table *t, const char *key, int *out) {
    const struct entry *e = t->slots[table_hash(key) % TABLE_SIZE];
    for (; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            *out = e->value;
            return 1;
        }
    return 0;
}

void table_free(struct table *t) {
    int i;
    for (i = 0; i < TABLE_SIZE; i++) {
        struct entry *e = t->slots[i];
        while (e) {
            struct entry *next = e->next;
            mem_free(e);
            e = next;
        }
    }
    mem_free(t);
}
