require_relative "shop/money"
require_relative "shop/util"
require_relative "shop/cart"
require_relative "shop/cart_discounts"
require_relative "shop/receipt"
require_relative "util"

# The shop's entry points.
module Shop
  def self.checkout(items)
    cart = Cart.new
    items.each { |item| cart.add(item) }
    Shop::Money.format(cart.total)
  end
end
