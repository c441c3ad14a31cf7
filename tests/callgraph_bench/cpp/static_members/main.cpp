#include <iostream>
#include "plugins/greeter.h"
#include "plugins/registry.h"

namespace pc = plug::core;

int main() {
  plug::Greeter::install();
  auto& registry = pc::Registry::instance();
  if (pc::Plugin* plugin = registry.find("GREETER")) std::cout << plugin->banner() << "\n";
  plug::Greeter greeter;
  std::cout << greeter.greet("World") << " " << registry.size() << "\n";
  return 0;
}
