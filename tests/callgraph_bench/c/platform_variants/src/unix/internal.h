#ifndef FSX_UNIX_INTERNAL_H
#define FSX_UNIX_INTERNAL_H

int fsx__translate(int sys_errno);

static inline int fsx__retry(int err) { return err == -4; }

#endif
