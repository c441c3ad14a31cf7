#pragma once
#include <memory>
#include <vector>
#include "connection.h"

namespace net {

class Pool {
 public:
  Pool(Endpoint endpoint, int size);
  std::shared_ptr<Connection> acquire();
  void drain();

 private:
  Endpoint endpoint_;
  std::vector<std::shared_ptr<Connection>> idle_;
};

}  // namespace net
