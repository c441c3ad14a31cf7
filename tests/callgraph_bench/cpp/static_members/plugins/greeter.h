#pragma once
#include <string>
#include "registry.h"

namespace plug {

class Greeter : public core::Plugin {
 public:
  std::string name() const override;
  std::string greet(const std::string& who) const;
  static void install();
};

}  // namespace plug
