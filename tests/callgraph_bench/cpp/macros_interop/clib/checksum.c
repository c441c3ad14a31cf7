#include "checksum.h"
#include <string.h>

static unsigned crc_step(unsigned crc, unsigned char byte) {
  crc ^= byte;
  for (int i = 0; i < 8; ++i) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  return crc;
}

unsigned crc_update(unsigned crc, const unsigned char* data, size_t len) {
  for (size_t i = 0; i < len; ++i) crc = crc_step(crc, data[i]);
  return crc;
}

unsigned crc_of(const char* text) {
  return ~crc_update(0xFFFFFFFFu, (const unsigned char*)text, strlen(text));
}
