#ifndef CALC_LEXER_H
#define CALC_LEXER_H

typedef enum { TOK_NUM, TOK_PLUS, TOK_MINUS, TOK_END, TOK_ERR } tok_kind;

typedef struct {
    tok_kind kind;
    long value;
    const char *pos;
} token;

void lexer_init(const char *src);
token lexer_next(void);

#endif
