#include <stdio.h>
#include <stdlib.h>

#include "../common/log.h"
#include "util.h"

void usage(void) { fputs("usage: server [PORT]\n", stderr); }

int parse_port(const char *text, int fallback) {
    long port;
    if (text == NULL)
        return fallback;
    port = strtol(text, NULL, 10);
    if (port <= 0 || port > 65535) {
        log_error("port out of range: %s", text);
        return fallback;
    }
    return (int)port;
}
