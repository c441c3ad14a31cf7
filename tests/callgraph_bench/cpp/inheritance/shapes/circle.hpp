#pragma once
#include "shape.hpp"

namespace geo {

class Circle : public Shape {
 public:
  explicit Circle(double radius);
  double area() const override;
  double radius() const { return radius_; }

 private:
  double radius_;
};

class Square : public Shape {
 public:
  explicit Square(double side) : Shape("square"), side_(side) {}
  double area() const override { return side_ * side_; }
  std::string describe() const override;

 private:
  double side_;
};

}  // namespace geo
