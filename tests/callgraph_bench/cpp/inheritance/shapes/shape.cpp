#include "shape.hpp"
#include <sstream>

namespace geo {

std::string Shape::label(double value) const {
  std::ostringstream out;
  out << name() << ": " << value;
  return out.str();
}

std::string Shape::describe() const { return label(area()); }

}  // namespace geo
