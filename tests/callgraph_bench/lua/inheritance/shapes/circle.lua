local Shape = require("shapes.shape")

local Circle = Shape:extend()

function Circle.new(r)
  local self = setmetatable(Shape.new("circle"), Circle)
  self.r = r
  return self
end

function Circle:area()
  return math.pi * self.r ^ 2
end

function Circle:describe()
  return "round " .. Shape.describe(self)
end

return Circle
