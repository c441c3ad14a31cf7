#include <memory>
#include "../net/connection.h"
#include "../net/pool.h"
#include "client.h"

int main() {
  net::Endpoint endpoint{"localhost", 8080};
  net::Pool pool(endpoint, 2);
  auto client = std::make_unique<RetryingClient>(pool, 3);
  client->post_with_retry("hello");
  Client plain{pool};
  plain.post("plain");
  auto direct = net::Connection(endpoint);
  direct.send("direct");
  std::unique_ptr<net::Connection> owned(new net::Connection(endpoint));
  owned->send("owned");
  owned.reset();
  pool.drain();
  return 0;
}
