#include "canvas.h"
#include <iostream>

void Canvas::add(std::unique_ptr<geo::Shape> shape) { shapes_.push_back(std::move(shape)); }

double Canvas::total_area() const {
  double sum = 0;
  for (const auto& shape : shapes_) sum += shape->area();
  return sum;
}

void Canvas::print() const {
  for (const auto& shape : shapes_) std::cout << shape->describe() << "\n";
  std::cout << "total " << total_area() << "\n";
}
