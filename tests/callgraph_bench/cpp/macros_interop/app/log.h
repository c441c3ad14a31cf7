#pragma once
#include <string>

namespace app {
void write_log(const char* level, const std::string& message);
}  // namespace app

#define LOG_INFO(msg) ::app::write_log("info", (msg))
#define CHECK(cond)                                          \
  do {                                                       \
    if (!(cond)) ::app::write_log("fatal", #cond);           \
  } while (0)
