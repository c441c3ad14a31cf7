require_relative "catalog"

module Shapes
  class Shape
    def self.build(*args)
      shape = new(*args)
      shape.register
      shape
    end

    def self.describe
      "shape"
    end

    def area
      0
    end

    def register
      Catalog.add(self)
    end

    def to_s
      "#{self.class.describe}: #{area}"
    end
    alias_method :inspect, :to_s
    alias name to_s
  end
end
