local config = require("notes.config")

local Store = {}
Store.__index = Store

function Store.open()
  local self = setmetatable({ notes = {} }, Store)
  self.dir = config.get("dir")
  self:load()
  return self
end

function Store:load()
  for _, file in ipairs(vim.fn.glob(self.dir .. "/*.md", false, true)) do
    self:add(vim.fn.fnamemodify(file, ":t:r"))
  end
end

function Store:add(title)
  table.insert(self.notes, title)
end

function Store:titles()
  table.sort(self.notes)
  return self.notes
end

return Store
