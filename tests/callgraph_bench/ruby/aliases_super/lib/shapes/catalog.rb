module Shapes
  module Catalog
    @items = []

    class << self
      def add(shape)
        @items << shape
        announce(shape)
      end

      def announce(shape)
        puts shape.inspect
      end

      def all
        @items.dup
      end
    end
  end
end
