#pragma once
#include <string>
#include "../net/pool.h"

class Client {
 public:
  explicit Client(net::Pool& pool) : pool_(pool) {}
  bool post(const std::string& body);

 private:
  net::Pool& pool_;
};

class RetryingClient : public Client {
 public:
  RetryingClient(net::Pool& pool, int attempts) : Client(pool), attempts_(attempts) {}
  bool post_with_retry(const std::string& body);

 private:
  int attempts_;
};
