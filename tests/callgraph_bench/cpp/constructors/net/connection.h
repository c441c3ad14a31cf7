#pragma once
#include <string>

namespace net {

struct Endpoint {
  std::string host;
  int port;
};

class Connection {
 public:
  explicit Connection(const Endpoint& endpoint);
  ~Connection();
  bool send(const std::string& payload);
  void close();
  bool open() const { return open_; }

 private:
  Endpoint endpoint_;
  bool open_ = false;
};

}  // namespace net
