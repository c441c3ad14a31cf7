#include "pool.h"

namespace net {

Pool::Pool(Endpoint endpoint, int size) : endpoint_(endpoint) {
  for (int i = 0; i < size; ++i) idle_.push_back(std::make_shared<Connection>(endpoint_));
}

std::shared_ptr<Connection> Pool::acquire() {
  if (idle_.empty()) return std::make_shared<Connection>(endpoint_);
  auto conn = idle_.back();
  idle_.pop_back();
  return conn;
}

void Pool::drain() {
  for (auto& conn : idle_) conn->close();
  idle_.clear();
}

}  // namespace net
