#pragma once
#include <stdexcept>
#include <vector>

namespace core {

template <typename T>
class Stack {
 public:
  void push(const T& value) { items_.push_back(value); }
  T pop() {
    check();
    T top = items_.back();
    items_.pop_back();
    return top;
  }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }

 private:
  void check() const {
    if (empty()) throw std::runtime_error("empty stack");
  }
  std::vector<T> items_;
};

template <typename T, typename F>
void drain(Stack<T>& stack, F&& visit) {
  while (!stack.empty()) visit(stack.pop());
}

}  // namespace core
