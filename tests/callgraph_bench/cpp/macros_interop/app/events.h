#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace app {

using Handler = std::function<void(const std::string&)>;

class EventBus {
 public:
  void on(const std::string& topic, Handler handler);
  void emit(const std::string& topic, const std::string& payload) const;
  std::size_t listeners(const std::string& topic) const;

 private:
  std::map<std::string, std::vector<Handler>> handlers_;
};

}  // namespace app
