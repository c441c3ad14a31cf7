#ifndef TABLE_H
#define TABLE_H

#define TABLE_SIZE 64

struct entry {
    const char *key;
    int value;
    struct entry *next;
};

struct table {
    struct entry *slots[TABLE_SIZE];
};

struct table *table_new(void);
unsigned table_hash(const char *key);
int table_put(struct table *t, const char *key, int value);
int table_get(const struct table *t, const char *key, int *out);
void table_free(struct table *t);

#endif
