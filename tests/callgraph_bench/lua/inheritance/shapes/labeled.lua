local Square = require("shapes.square")

local Labeled = setmetatable({}, { __index = Square })
Labeled.__index = Labeled

function Labeled.new(side, text)
  local self = setmetatable(Square.new(side), Labeled)
  self.text = text
  return self
end

function Labeled:describe()
  return self.text .. ": " .. self:area()
end

return Labeled
