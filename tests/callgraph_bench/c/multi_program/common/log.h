#ifndef COMMON_LOG_H
#define COMMON_LOG_H

void log_info(const char *fmt, ...);
void log_error(const char *fmt, ...);

#endif
