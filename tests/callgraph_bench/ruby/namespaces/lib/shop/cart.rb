module Shop
  class Cart
    attr_reader :items

    def initialize
      @items = []
    end

    def add(item)
      return if Util.blank?(item.name)

      @items << item
    end

    def total
      @items.sum(&:price)
    end

    def slugs
      @items.map { |i| ::Util.slug(i.name) }
    end
  end
end
