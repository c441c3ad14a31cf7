#pragma once
#include <string>

namespace text {

std::string trim(const std::string& s);
std::string trim(const char* s);
std::string upper(const std::string& s);
bool starts_with(const std::string& s, const std::string& prefix);

namespace detail {
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }
}  // namespace detail

}  // namespace text
