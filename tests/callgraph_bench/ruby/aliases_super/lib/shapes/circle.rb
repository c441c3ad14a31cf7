require_relative "shape"

module Shapes
  class Circle < Shape
    def self.describe
      "circle (#{super})"
    end

    def initialize(radius)
      @radius = radius
    end

    def area
      3.14159 * (@radius**2)
    end

    def to_s
      "#{super} r=#{@radius}"
    end

    def method_missing(name, *args)
      name.to_s.start_with?("with_") ? self : super
    end

    def respond_to_missing?(name, include_private = false)
      name.to_s.start_with?("with_") || super
    end
  end
end
