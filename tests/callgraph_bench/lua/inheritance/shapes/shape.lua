local Shape = {}
Shape.__index = Shape

function Shape.new(name)
  local self = setmetatable({}, Shape)
  self.name = name
  return self
end

function Shape:area()
  return 0
end

function Shape:describe()
  return self.name .. " with area " .. self:area()
end

-- a subclass: a table whose lookups fall back to this class
function Shape:extend()
  local cls = setmetatable({}, { __index = self })
  cls.__index = cls
  return cls
end

return Shape
