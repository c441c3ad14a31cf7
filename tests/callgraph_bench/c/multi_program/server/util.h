#ifndef SERVER_UTIL_H
#define SERVER_UTIL_H

void usage(void);
int parse_port(const char *text, int fallback);

#endif
