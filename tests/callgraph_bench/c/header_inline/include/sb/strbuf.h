#ifndef SB_STRBUF_H
#define SB_STRBUF_H

#include <stddef.h>
#include <string.h>

typedef struct strbuf {
    char *buf;
    size_t len;
    size_t cap;
} strbuf;

int sb_grow(strbuf *sb, size_t extra);
void sb_release(strbuf *sb);

static inline size_t sb_avail(const strbuf *sb) { return sb->cap - sb->len; }

static inline int sb_addch(strbuf *sb, char c) {
    if (sb_avail(sb) < 2 && sb_grow(sb, 1) < 0)
        return -1;
    sb->buf[sb->len++] = c;
    sb->buf[sb->len] = '\0';
    return 0;
}

static inline int sb_adds(strbuf *sb, const char *s) {
    size_t n = strlen(s);
    if (sb_avail(sb) < n + 1 && sb_grow(sb, n) < 0)
        return -1;
    memcpy(sb->buf + sb->len, s, n + 1);
    sb->len += n;
    return 0;
}

#endif
