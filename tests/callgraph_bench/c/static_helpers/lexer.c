#include <ctype.h>
#include <stdlib.h>

#include "lexer.h"

static const char *cursor;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

static void skip_spaces(void) {
    while (*cursor && is_space(*cursor))
        cursor++;
}

static token make(tok_kind kind, long value) {
    token t;
    t.kind = kind;
    t.value = value;
    t.pos = cursor;
    return t;
}

void lexer_init(const char *src) { cursor = src; }

token lexer_next(void) {
    skip_spaces();
    if (*cursor == '\0')
        return make(TOK_END, 0);
    if (*cursor == '+') {
        cursor++;
        return make(TOK_PLUS, 0);
    }
    if (*cursor == '-') {
        cursor++;
        return make(TOK_MINUS, 0);
    }
    if (isdigit((unsigned char)*cursor)) {
        char *end;
        long v = strtol(cursor, &end, 10);
        cursor = end;
        return make(TOK_NUM, v);
    }
    return make(TOK_ERR, 0);
}
