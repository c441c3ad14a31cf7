#pragma once
#include <string>
#include <utility>

namespace geo {

class Shape {
 public:
  explicit Shape(std::string name) : name_(std::move(name)) {}
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual std::string describe() const;
  const std::string& name() const { return name_; }

 protected:
  std::string label(double value) const;

 private:
  std::string name_;
};

}  // namespace geo
