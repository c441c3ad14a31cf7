#include <io.h>
#include <windows.h>

#include "fsx.h"
#include "internal.h"

int fsx_open(const char *path, int flags) {
    HANDLE h = CreateFileA(path, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return fsx__translate((int)GetLastError());
    return _open_osfhandle((intptr_t)h, flags);
}

int fsx_close(int fd) { return _close(fd) < 0 ? fsx__translate((int)GetLastError()) : 0; }
