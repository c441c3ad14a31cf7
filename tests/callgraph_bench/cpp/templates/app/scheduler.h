#pragma once
#include <functional>
#include <vector>
#include "../core/stack.h"
#include "../core/task.h"

class Scheduler {
 public:
  void submit(const core::Task& task);
  void run_pending();
  void each(const std::function<void(const core::Task&)>& visit) const;

 private:
  core::Stack<core::Task> pending_;
  std::vector<core::Task> done_;
};
