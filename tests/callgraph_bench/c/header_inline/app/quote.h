#ifndef APP_QUOTE_H
#define APP_QUOTE_H

struct strbuf;

int quote_into(struct strbuf *out, const char *s);

#endif
