local shop = require("shop")
local util = require("shop.util")

local receipt = shop.checkout({
  { name = " tea ", cents = 450, qty = 2 },
  { name = "cake", cents = 300 },
})
print(receipt)
print(shop.describe())
print(util.trim("  done  "))
