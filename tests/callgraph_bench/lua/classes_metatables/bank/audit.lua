-- Instances whose metatable is a separate table with __index.
local Audit = {}
local mt = { __index = Audit }

function Audit.open(name)
  return setmetatable({ name = name, seen = 0 }, mt)
end

function Audit:visit(account)
  self.seen = self.seen + 1
  return self:line(account)
end

function Audit:line(account)
  -- `account` is a parameter: its class is unknown here
  return self.name .. ": " .. account:statement()
end

return Audit
