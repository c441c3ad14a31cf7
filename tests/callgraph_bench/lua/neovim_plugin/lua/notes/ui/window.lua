local config = require("notes.config")

local Window = {}
Window.__index = Window

function Window.new(lines)
  return setmetatable({ lines = lines, buf = nil, win = nil }, Window)
end

function Window:open()
  self.buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(self.buf, 0, -1, false, self.lines)
  self.win = vim.api.nvim_open_win(self.buf, true, self:layout())
  vim.keymap.set("n", "q", function()
    self:close()
  end, { buffer = self.buf })
end

function Window:layout()
  local width = config.get("width")
  return { relative = "editor", width = width, height = #self.lines, row = 1, col = 1 }
end

function Window:close()
  if self.win then
    vim.api.nvim_win_close(self.win, true)
  end
end

return Window
