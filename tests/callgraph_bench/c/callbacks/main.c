#include "event.h"

int echo_attach(struct loop *l, int fd);

static int twice(int x) { return 2 * x; }

static int apply(int (*fn)(int), int x) { return fn(x); }

int main(void) {
    struct loop *l = loop_new();
    int (*op)(int) = twice;
    echo_attach(l, 0);
    loop_run_once(l);
    loop_free(l);
    return apply(op, op(1)) == 4 ? 0 : 1;
}
