#pragma once
#include <map>
#include <memory>
#include <string>

namespace plug::core {

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string name() const { return "plugin"; }
  std::string banner() const { return "[" + name() + "]"; }
};

class Registry {
 public:
  static Registry& instance();
  void add(std::unique_ptr<Plugin> plugin);
  Plugin* find(const std::string& name) const;
  std::size_t size() const;

 private:
  std::map<std::string, std::unique_ptr<Plugin>> plugins_;
};

std::string normalize(const std::string& name);

}  // namespace plug::core
