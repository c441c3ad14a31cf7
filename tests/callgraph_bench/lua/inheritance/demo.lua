local Circle = require("shapes.circle")
local Square = require("shapes.square")
local Labeled = require("shapes.labeled")

local c = Circle.new(2)
local s = Square.new(3):scale(2)

for _, shape in ipairs({ c, s }) do
  print(shape:describe()) -- a loop variable: either class
end
print(c:describe())
print(s:describe())
print(s:area() + c:area())

local tile = Labeled.new(1, "tile")
print(tile:describe(), tile:scale(3):area())
