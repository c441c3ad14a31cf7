#ifndef FSX_H
#define FSX_H

#ifdef __cplusplus
extern "C" {
#endif

int fsx_open(const char *path, int flags);
int fsx_close(int fd);
int fsx_copy(const char *from, const char *to);
const char *fsx_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif
