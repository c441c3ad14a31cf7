local M = {}

M.defaults = {
  dir = "~/notes",
  width = 60,
}

M.options = {}

function M.setup(opts)
  M.options = vim.tbl_deep_extend("force", {}, M.defaults, opts or {})
  M.options.dir = M.expand(M.options.dir)
end

M.expand = function(path)
  return vim.fn.expand(path)
end

function M.get(key)
  return M.options[key]
end

return M
