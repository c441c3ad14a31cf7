#include "circle.hpp"

namespace geo {

namespace {
constexpr double kPi = 3.14159265358979;
}  // namespace

Circle::Circle(double radius) : Shape("circle"), radius_(radius) {}

double Circle::area() const { return kPi * radius() * radius(); }

std::string Square::describe() const { return "[" + Shape::describe() + "]"; }

}  // namespace geo
