# Compact style: the lexical scope is Shop::Receipt and the top level, not Shop.
class Shop::Receipt
  def initialize(cart)
    @cart = cart
  end

  def print
    puts Shop::Money.format(@cart.discounted_total(0.1))
    puts lines
  end

  def lines
    Util.round(1.5)
  end
end
