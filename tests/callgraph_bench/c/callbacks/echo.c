#include <unistd.h>

#include "event.h"

static int echo_read(void *self, const char *buf, int n) {
    (void)self;
    return (int)write(1, buf, (size_t)n);
}

static void echo_close(void *self) { (void)self; }

static const struct handler_ops echo_ops = {echo_read, echo_close};

static void on_readable(int fd, void *arg) {
    const struct handler_ops *ops = arg;
    char buf[64];
    int n = (int)read(fd, buf, sizeof buf);
    if (n <= 0) {
        ops->on_close(NULL);
        return;
    }
    ops->on_read(NULL, buf, n);
}

int echo_attach(struct loop *l, int fd) {
    return loop_add(l, fd, on_readable, (void *)&echo_ops);
}
