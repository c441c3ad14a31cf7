#include <windows.h>

#include "internal.h"

int fsx__translate(int win_error) {
    switch (win_error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
        return -2;
    default:
        return -5;
    }
}
