#ifndef CLI_ARGS_H
#define CLI_ARGS_H

void usage(void);
int parse_port(const char *text);

#endif
