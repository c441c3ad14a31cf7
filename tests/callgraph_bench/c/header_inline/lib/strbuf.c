#include <stdlib.h>

#include "sb/strbuf.h"

int sb_grow(strbuf *sb, size_t extra) {
    size_t want = sb->len + extra + 1;
    char *p;
    if (want <= sb->cap)
        return 0;
    if (want < 2 * sb->cap)
        want = 2 * sb->cap;
    p = realloc(sb->buf, want);
    if (!p)
        return -1;
    sb->buf = p;
    sb->cap = want;
    return 0;
}

void sb_release(strbuf *sb) {
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}
