#include "registry.h"
#include <algorithm>
#include <cctype>

namespace plug::core {

std::string normalize(const std::string& name) {
  std::string out = name;
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

void Registry::add(std::unique_ptr<Plugin> plugin) {
  auto key = normalize(plugin->name());
  plugins_[key] = std::move(plugin);
}

Plugin* Registry::find(const std::string& name) const {
  auto it = plugins_.find(normalize(name));
  return it == plugins_.end() ? nullptr : it->second.get();
}

std::size_t Registry::size() const { return plugins_.size(); }

}  // namespace plug::core
