#include "task.h"
#include <iostream>

namespace core {

void Task::run() const { std::cout << "running " << name() << "\n"; }

}  // namespace core
