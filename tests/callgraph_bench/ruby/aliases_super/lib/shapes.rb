require_relative "shapes/shape"
require_relative "shapes/circle"
require_relative "shapes/catalog"

Shapes::Circle.build(2)
circle = Shapes::Circle.new(3)
circle.inspect
circle.name
circle.to_s
Shapes::Circle.describe
Shapes::Catalog.all
