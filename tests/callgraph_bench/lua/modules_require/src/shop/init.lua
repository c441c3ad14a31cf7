local cart = require("shop.cart")
local format = require("shop.format")

local shop = {}

function shop.checkout(items)
  for _, it in ipairs(items) do
    cart.add(it.name, it.cents, it.qty)
  end
  local lines = cart.lines()
  lines[#lines + 1] = "total " .. format.money(cart.total())
  return table.concat(lines, "\n")
end

function shop.describe()
  return cart.summary()
end

return shop
