#include <stdlib.h>

#include "event.h"

struct watcher {
    int fd;
    event_cb cb;
    void *arg;
};

struct loop {
    struct watcher w[16];
    int n;
};

struct loop *loop_new(void) { return calloc(1, sizeof(struct loop)); }

int loop_add(struct loop *l, int fd, event_cb cb, void *arg) {
    if (l->n == 16)
        return -1;
    l->w[l->n].fd = fd;
    l->w[l->n].cb = cb;
    l->w[l->n].arg = arg;
    l->n++;
    return 0;
}

void loop_run_once(struct loop *l) {
    int i;
    for (i = 0; i < l->n; i++)
        l->w[i].cb(l->w[i].fd, l->w[i].arg);
}

void loop_free(struct loop *l) { free(l); }
