#include <iostream>
#include "inventory/audit.h"
#include "inventory/store.h"

int main() {
  inv::AuditLog log;
  inv::Store store = inv::Store::with_defaults(&log);
  store.sell("apple", 3);
  if (!store.sell("pear", 9)) std::cout << "not enough pears\n";
  std::cout << store.count("apple") << " apples, " << log.size() << " records\n";
  for (const auto& line : log.entries()) std::cout << line << "\n";
  inv::Item spare("plum", 2);
  spare.add(1);
  std::cout << spare.sku() << (spare.empty() ? " gone" : " left") << "\n";
  return 0;
}
