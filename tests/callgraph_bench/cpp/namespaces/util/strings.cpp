#include "strings.h"
#include <cctype>

namespace text {

namespace {
char to_upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }
}  // namespace

std::string trim(const std::string& s) {
  std::size_t begin = 0;
  while (begin < s.size() && detail::is_space(s[begin])) ++begin;
  std::size_t end = s.size();
  while (end > begin && detail::is_space(s[end - 1])) --end;
  return s.substr(begin, end - begin);
}

std::string trim(const char* s) { return trim(std::string(s)); }

std::string upper(const std::string& s) {
  std::string out;
  for (char c : s) out.push_back(to_upper(c));
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace text
