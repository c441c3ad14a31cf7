#include "events.h"
#include "log.h"

namespace app {

void EventBus::on(const std::string& topic, Handler handler) {
  LOG_INFO("subscribe " + topic);
  handlers_[topic].push_back(std::move(handler));
}

void EventBus::emit(const std::string& topic, const std::string& payload) const {
  auto it = handlers_.find(topic);
  if (it == handlers_.end()) return;
  CHECK(listeners(topic) > 0);
  for (const auto& handler : it->second) handler(payload);
}

std::size_t EventBus::listeners(const std::string& topic) const {
  auto it = handlers_.find(topic);
  return it == handlers_.end() ? 0 : it->second.size();
}

}  // namespace app
