local config = require("notes.config")
local Store = require("notes.store")
local Window = require("notes.ui.window")

local M = {}

local store

local function get_store()
  if not store then
    store = Store.open()
  end
  return store
end

function M.setup(opts)
  config.setup(opts)
  vim.api.nvim_create_user_command("Notes", function()
    M.list()
  end, {})
end

function M.list()
  local win = Window.new(get_store():titles())
  win:open()
  return win
end

function M.new_note(title)
  get_store():add(title)
end

return M
