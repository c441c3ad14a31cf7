local format = require "shop.format"
local util = require('shop/util')

local cart = {}

cart.items = {}

function cart.add(name, cents, qty)
  table.insert(cart.items, { name = name, cents = cents, qty = qty or 1 })
end

function cart.total()
  local sum = 0
  for _, item in ipairs(cart.items) do
    sum = sum + item.cents * item.qty
  end
  return sum
end

function cart.lines()
  local out = {}
  for _, item in ipairs(cart.items) do
    out[#out + 1] = format.label(item.name, item.cents * item.qty)
  end
  return out
end

function cart.summary()
  local n = #cart.items
  local share = util.percent(cart.total(), 10000)
  return format.count(n, "item") .. " (" .. share .. "% of budget)"
end

cart.count = function()
  return #cart.items
end

-- the parameter hides the module `format`
function cart.render(format)
  return format.label("total", cart.total())
end

return cart
