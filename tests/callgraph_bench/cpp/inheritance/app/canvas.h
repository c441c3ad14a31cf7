#pragma once
#include <memory>
#include <vector>
#include "../shapes/shape.hpp"

class Canvas {
 public:
  void add(std::unique_ptr<geo::Shape> shape);
  double total_area() const;
  void print() const;

 private:
  std::vector<std::unique_ptr<geo::Shape>> shapes_;
};
