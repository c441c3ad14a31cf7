-- Headless Neovim, configured as docs/neovim.md says, asks codekith for the call hierarchy
-- of a Go function. Arguments: the config file, the workspace, the file and the line of the
-- function (1-based). Prints the incoming and outgoing calls, one `qualname@line` a line.
local config, workspace, file, line = _G.arg[1], _G.arg[2], _G.arg[3], tonumber(_G.arg[4])

local common = dofile(vim.fs.dirname(_G.arg[0]) .. '/nvim_common.lua')
local fail = common.fail

common.run(function()
  local client = common.open(config, workspace, file)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    position = { line = line - 1, character = 5 },
  }
  local prepared = client:request_sync('textDocument/prepareCallHierarchy', params, 10000, 0)
  local item = prepared and prepared.result and prepared.result[1]
  if not item then fail('no call hierarchy item: ' .. vim.inspect(prepared)) end
  print('item ' .. item.detail)
  for _, direction in ipairs({ 'incoming', 'outgoing' }) do
    local reply = client:request_sync('callHierarchy/' .. direction .. 'Calls', { item = item },
      10000, 0)
    for _, call in ipairs(reply and reply.result or {}) do
      local other = call.from or call.to
      print(direction .. ' ' .. other.detail .. '@' .. (call.fromRanges[1].start.line + 1))
    end
  end
end)
