#include <iostream>
#include <memory>
#include "../shapes/circle.hpp"
#include "canvas.h"

static void show(const geo::Shape& shape) { std::cout << shape.describe() << "\n"; }

int main() {
  Canvas canvas;
  canvas.add(std::make_unique<geo::Circle>(1.5));
  canvas.add(std::make_unique<geo::Square>(2.0));
  geo::Square square(3.0);
  show(square);
  geo::Circle* circle = new geo::Circle(0.5);
  std::cout << circle->radius() << " " << circle->area() << " " << circle->name() << "\n";
  delete circle;
  canvas.print();
  return 0;
}
