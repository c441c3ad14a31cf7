#include <stdio.h>

#include "lexer.h"
#include "parser.h"

static char message[128];
static token current;

static int fail(const char *what) {
    snprintf(message, sizeof message, "parse error: %s", what);
    return -1;
}

static void advance(void) { current = lexer_next(); }

static int term(long *out) {
    if (current.kind == TOK_MINUS) {
        advance();
        if (term(out) < 0)
            return -1;
        *out = -*out;
        return 0;
    }
    if (current.kind != TOK_NUM)
        return fail("number expected");
    *out = current.value;
    advance();
    return 0;
}

int parse_expr(const char *src, long *out) {
    long total, rhs;
    lexer_init(src);
    advance();
    if (term(&total) < 0)
        return -1;
    while (current.kind == TOK_PLUS || current.kind == TOK_MINUS) {
        int plus = current.kind == TOK_PLUS;
        advance();
        if (term(&rhs) < 0)
            return -1;
        total = plus ? total + rhs : total - rhs;
    }
    if (current.kind != TOK_END)
        return fail("trailing input");
    *out = total;
    return 0;
}

const char *parse_error(void) { return message; }
