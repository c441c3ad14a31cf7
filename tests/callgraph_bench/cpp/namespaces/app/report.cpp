#include "report.h"
#include <iostream>
#include "../util/strings.h"

namespace report {

namespace {
std::string banner() { return "--"; }
}  // namespace

void print_line(const std::string& line) { std::cout << banner() << ' ' << line << '\n'; }

void print_pair(const std::string& key, const std::string& value) {
  print_line(text::trim(key) + " = " + value);
}

}  // namespace report
