#include "internal.h"

int fsx__translate(int sys_errno) { return -sys_errno; }
