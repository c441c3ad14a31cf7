#pragma once
#include <map>
#include <string>
#include "inventory/item.h"

namespace inv {

class AuditLog;

class Store {
 public:
  explicit Store(AuditLog* log);
  static Store with_defaults(AuditLog* log);
  void stock(const std::string& sku, int n);
  bool sell(const std::string& sku, int n);
  int count(const std::string& sku) const;

 private:
  Item& find_or_create(const std::string& sku);
  std::map<std::string, Item> items_;
  AuditLog* log_;
};

}  // namespace inv
