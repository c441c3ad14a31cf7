#include <string.h>

#include "../common/log.h"
#include "util.h"

static int serve(int port) {
    if (port < 1024) {
        log_error("port %d needs privileges", port);
        return 1;
    }
    log_info("listening on %d", port);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "-h") == 0) {
        usage();
        return 0;
    }
    return serve(parse_port(argc > 1 ? argv[1] : NULL, 8080));
}
