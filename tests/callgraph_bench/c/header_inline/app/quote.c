#include "sb/strbuf.h"
#include "quote.h"

static int needs_escape(char c) { return c == '"' || c == '\\'; }

int quote_into(strbuf *out, const char *s) {
    if (sb_addch(out, '"') < 0)
        return -1;
    for (; *s; s++) {
        if (needs_escape(*s) && sb_addch(out, '\\') < 0)
            return -1;
        if (sb_addch(out, *s) < 0)
            return -1;
    }
    return sb_addch(out, '"');
}
