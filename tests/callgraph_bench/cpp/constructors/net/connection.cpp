#include "connection.h"
#include <iostream>

namespace net {

Connection::Connection(const Endpoint& endpoint) : endpoint_(endpoint), open_(true) {}

Connection::~Connection() { close(); }

bool Connection::send(const std::string& payload) {
  if (!open()) return false;
  std::cout << endpoint_.host << ":" << endpoint_.port << " <- " << payload << "\n";
  return true;
}

void Connection::close() { open_ = false; }

}  // namespace net
