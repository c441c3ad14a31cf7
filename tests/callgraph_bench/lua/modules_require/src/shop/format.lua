-- Formatting of amounts and labels; the module is a table of its local functions.
local util = require("shop.util")

local function money(cents)
  return string.format("$%.2f", util.round(cents / 100, 2))
end

local function label(name, cents)
  return util.trim(name) .. ": " .. money(cents)
end

local function plural(n, word)
  if n == 1 then
    return word
  end
  return word .. "s"
end

return {
  money = money,
  label = label,
  count = plural,
}
