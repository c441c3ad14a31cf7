/* Portable code: fsx_open and fsx_close are whichever platform's the build links. */
#include <unistd.h>

#include "fsx.h"

static int copy_fd(int in, int out) {
    char buf[4096];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            return -5;
    return n < 0 ? -5 : 0;
}

int fsx_copy(const char *from, const char *to) {
    int in = fsx_open(from, 0), out, err;
    if (in < 0)
        return in;
    out = fsx_open(to, 1);
    if (out < 0) {
        fsx_close(in);
        return out;
    }
    err = copy_fd(in, out);
    fsx_close(in);
    fsx_close(out);
    return err;
}

const char *fsx_strerror(int err) {
    switch (err) {
    case 0:
        return "ok";
    case -2:
        return "no such file";
    default:
        return "i/o error";
    }
}
