require_relative "lib/shop"

receipt = Shop::Receipt.new(Shop::Cart.new)
receipt.print
puts Shop.checkout([])
