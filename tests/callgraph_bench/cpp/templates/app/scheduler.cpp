#include "scheduler.h"
#include <algorithm>

void Scheduler::submit(const core::Task& task) { pending_.push(task); }

void Scheduler::run_pending() {
  core::drain(pending_, [this](const core::Task& task) {
    task.run();
    done_.push_back(task);
  });
}

void Scheduler::each(const std::function<void(const core::Task&)>& visit) const {
  std::for_each(done_.begin(), done_.end(), [&](const core::Task& task) { visit(task); });
}
