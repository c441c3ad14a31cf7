#include "parser.h"
#include <sstream>
#include "../util/strings.h"

namespace cfg {

static bool is_comment(const std::string& line) {
  return text::starts_with(line, "#") || text::starts_with(line, ";");
}

static std::pair<std::string, std::string> split(const std::string& line) {
  auto eq = line.find('=');
  return {text::trim(line.substr(0, eq)), text::trim(line.substr(eq + 1))};
}

Table parse(const std::string& input) {
  Table table;
  std::istringstream in(input);
  std::string line;
  while (std::getline(in, line)) {
    line = text::trim(line);
    if (line.empty() || is_comment(line)) continue;
    auto kv = split(line);
    table[text::upper(kv.first)] = kv.second;
  }
  return table;
}

std::string get(const Table& table, const std::string& key, const std::string& fallback) {
  auto it = table.find(text::upper(key));
  return it == table.end() ? fallback : it->second;
}

}  // namespace cfg
