#include "client.h"

bool Client::post(const std::string& body) {
  auto conn = pool_.acquire();
  return conn->send(body);
}

bool RetryingClient::post_with_retry(const std::string& body) {
  for (int i = 0; i < attempts_; ++i) {
    if (post(body)) return true;
  }
  return false;
}
