#ifndef CALC_PARSER_H
#define CALC_PARSER_H

int parse_expr(const char *src, long *out);
const char *parse_error(void);

#endif
