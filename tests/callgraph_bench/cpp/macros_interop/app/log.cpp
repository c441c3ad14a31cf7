#include "log.h"
#include <cstdio>

namespace app {

static std::string stamp() { return "[t]"; }

void write_log(const char* level, const std::string& message) {
  std::printf("%s %s %s\n", stamp().c_str(), level, message.c_str());
}

}  // namespace app
