#include <iostream>
#include "../config/parser.h"
#include "../util/strings.h"
#include "report.h"

using namespace text;
using cfg::parse;

namespace {
std::string banner() { return upper("settings"); }
}  // namespace

static int verbosity() { return 1; }

static void show(const cfg::Table& table) {
  report::print_line(banner());
  for (const auto& [key, value] : table) report::print_pair(key, value);
}

int main() {
  auto table = parse("name = demo\n# comment\nmode = fast\n");
  if (::verbosity() > 0) show(table);
  std::cout << cfg::get(table, "mode", "slow") << trim("  done  ") << "\n";
  return 0;
}
