#include <stdarg.h>
#include <stdio.h>

#include "log.h"

static void emit(FILE *to, const char *level, const char *fmt, va_list ap) {
    fprintf(to, "[%s] ", level);
    vfprintf(to, fmt, ap);
    fputc('\n', to);
}

void log_info(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit(stdout, "info", fmt, ap);
    va_end(ap);
}

void log_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit(stderr, "error", fmt, ap);
    va_end(ap);
}
