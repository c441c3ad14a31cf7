local Emitter = {}
Emitter.__index = Emitter

function Emitter.new()
  return setmetatable({ handlers = {} }, Emitter)
end

function Emitter:on(name, fn)
  self.handlers[name] = self.handlers[name] or {}
  table.insert(self.handlers[name], fn)
end

function Emitter:emit(name, ...)
  for _, fn in ipairs(self.handlers[name] or {}) do
    fn(...)
  end
end

return Emitter
