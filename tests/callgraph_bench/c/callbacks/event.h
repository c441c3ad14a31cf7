#ifndef EVENT_H
#define EVENT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*event_cb)(int fd, void *arg);

struct handler_ops {
    int (*on_read)(void *self, const char *buf, int n);
    void (*on_close)(void *self);
};

struct loop;

struct loop *loop_new(void);
int loop_add(struct loop *l, int fd, event_cb cb, void *arg);
void loop_run_once(struct loop *l);
void loop_free(struct loop *l);

#ifdef __cplusplus
}
#endif

#endif
