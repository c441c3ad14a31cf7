local Shape = require("shapes.shape")

local Square = {}
Square.__index = Square
setmetatable(Square, { __index = Shape })

function Square.new(side)
  local self = Shape.new("square")
  self.side = side
  return setmetatable(self, Square)
end

function Square:area()
  return self.side * self.side
end

function Square:scale(k)
  return Square.new(self.side * k)
end

return Square
