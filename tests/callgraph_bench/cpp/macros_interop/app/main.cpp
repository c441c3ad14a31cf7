#include <cstring>
#include <iostream>
#include "../clib/checksum.h"
#include "events.h"
#include "log.h"

namespace {

void print_checksum(const std::string& payload) {
  std::cout << payload << " -> " << crc_of(payload.c_str()) << "\n";
}

int quiet(const char* s) { return static_cast<int>(std::strlen(s)); }

int loud(const char* s) {
  app::write_log("loud", s);
  return 0;
}

}  // namespace

int main() {
  app::EventBus bus;
  bus.on("save", print_checksum);
  bus.on("save", [](const std::string& payload) { app::write_log("saved", payload); });
  bus.emit("save", "report.txt");
  LOG_INFO("done");
  unsigned seed = crc_update(0, nullptr, 0);
  int (*direct)(const char*) = quiet;
  std::cout << seed << direct("abc") << bus.listeners("save") << "\n";
  return 0;
}
