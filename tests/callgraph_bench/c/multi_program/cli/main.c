#include "../common/log.h"
#include "lib/args.h"

static int run_client(const char *host, int port) {
    log_info("connecting to %s:%d", host, port);
    return 0;
}

int main(int argc, char **argv) {
    int port;
    if (argc != 3) {
        usage();
        return 2;
    }
    port = parse_port(argv[2]);
    if (port < 0) {
        log_error("bad port %s", argv[2]);
        return 2;
    }
    return run_client(argv[1], port);
}
