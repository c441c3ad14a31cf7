-- Programming in Lua's idiom: Class:new(o) sets self as the metatable of o.
local Ledger = { currency = "EUR" }

function Ledger:new(owner)
  local o = { owner = owner, entries = {} }
  setmetatable(o, self)
  self.__index = self
  return o
end

function Ledger:record(kind, amount)
  self.entries[#self.entries + 1] = self:format_entry(kind, amount)
end

function Ledger:format_entry(kind, amount)
  return string.format("%-8s %8.2f %s", kind, amount, self.currency)
end

function Ledger:render()
  return table.concat(self.entries, "\n")
end

return Ledger
