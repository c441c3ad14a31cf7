#include <iostream>
#include "../core/stack.h"
#include "scheduler.h"

int main() {
  Scheduler scheduler;
  scheduler.submit(core::Task("compile"));
  scheduler.submit(core::Task("link"));
  scheduler.run_pending();
  scheduler.each([](const core::Task& task) { std::cout << task.name() << " done\n"; });

  core::Stack<int> numbers;
  numbers.push(1);
  numbers.push(2);
  std::cout << numbers.size() << " " << numbers.pop() << "\n";
  auto squares = [](int n) { return n * n; };
  std::cout << squares(3) << "\n";
  core::run_all(std::vector<core::Task>{core::Task("test")});
  return 0;
}
