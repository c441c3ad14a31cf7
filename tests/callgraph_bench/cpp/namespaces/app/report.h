#pragma once
#include <string>

namespace report {

void print_line(const std::string& line);
void print_pair(const std::string& key, const std::string& value);

}  // namespace report
