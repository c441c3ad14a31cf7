#pragma once
#include <string>
#include <utility>
#include <vector>

namespace core {

class Task {
 public:
  explicit Task(std::string name) : name_(std::move(name)) {}
  void run() const;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

template <typename Job>
void run_all(const std::vector<Job>& jobs) {
  for (const auto& job : jobs) job.run();
}

}  // namespace core
