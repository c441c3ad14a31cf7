#include "inventory/item.h"
#include <utility>

namespace inv {

Item::Item(std::string sku, int quantity) : sku_(std::move(sku)), quantity_(quantity) {}

void Item::add(int n) { quantity_ += n; }

bool Item::take(int n) {
  if (n > quantity()) return false;
  quantity_ -= n;
  return true;
}

}  // namespace inv
