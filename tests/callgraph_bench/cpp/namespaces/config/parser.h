#pragma once
#include <map>
#include <string>

namespace cfg {

using Table = std::map<std::string, std::string>;

Table parse(const std::string& text);
std::string get(const Table& table, const std::string& key, const std::string& fallback);

}  // namespace cfg
