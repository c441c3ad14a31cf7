#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fsx.h"
#include "internal.h"

int fsx_open(const char *path, int flags) {
    int fd;
    do
        fd = open(path, flags);
    while (fd < 0 && fsx__retry(-errno));
    return fd < 0 ? fsx__translate(errno) : fd;
}

int fsx_close(int fd) { return close(fd) < 0 ? fsx__translate(errno) : 0; }
