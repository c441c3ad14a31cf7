#ifndef CHECKSUM_H
#define CHECKSUM_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

unsigned crc_update(unsigned crc, const unsigned char* data, size_t len);
unsigned crc_of(const char* text);

#ifdef __cplusplus
}
#endif

#endif
