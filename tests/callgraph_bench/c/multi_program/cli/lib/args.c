#include <stdio.h>
#include <stdlib.h>

#include "args.h"

void usage(void) { fputs("usage: client HOST PORT\n", stderr); }

int parse_port(const char *text) {
    char *end;
    long port = strtol(text, &end, 10);
    if (*end != '\0' || port <= 0 || port > 65535) {
        usage();
        return -1;
    }
    return (int)port;
}
