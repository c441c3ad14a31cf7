#include "greeter.h"

namespace plug {

std::string Greeter::name() const { return "Greeter"; }

std::string Greeter::greet(const std::string& who) const {
  return banner() + " hello, " + core::normalize(who) + " from " + Plugin::name();
}

void Greeter::install() { core::Registry::instance().add(std::make_unique<Greeter>()); }

}  // namespace plug
