if vim.g.loaded_notes then
  return
end
vim.g.loaded_notes = true

require("notes").setup({ width = 80 })
vim.keymap.set("n", "<leader>nl", function()
  require("notes").list()
end)
