#include "inventory/store.h"
#include "inventory/audit.h"

namespace inv {

Store::Store(AuditLog* log) : log_(log) {}

Store Store::with_defaults(AuditLog* log) {
  Store store(log);
  store.stock("apple", 10);
  store.stock("pear", 4);
  return store;
}

Item& Store::find_or_create(const std::string& sku) {
  auto it = items_.find(sku);
  if (it == items_.end()) it = items_.emplace(sku, Item(sku, 0)).first;
  return it->second;
}

void Store::stock(const std::string& sku, int n) {
  find_or_create(sku).add(n);
  log_->record("stock " + sku);
}

bool Store::sell(const std::string& sku, int n) {
  Item& item = this->find_or_create(sku);
  if (!item.take(n)) return false;
  log_->record("sell " + sku);
  return true;
}

int Store::count(const std::string& sku) const {
  auto it = items_.find(sku);
  return it == items_.end() ? 0 : it->second.quantity();
}

}  // namespace inv
