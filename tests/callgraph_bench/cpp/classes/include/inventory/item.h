#pragma once
#include <string>

namespace inv {

class Item {
 public:
  Item(std::string sku, int quantity);
  const std::string& sku() const { return sku_; }
  int quantity() const { return quantity_; }
  void add(int n);
  bool take(int n);
  bool empty() const { return quantity() == 0; }

 private:
  std::string sku_;
  int quantity_;
};

}  // namespace inv
