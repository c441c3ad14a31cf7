-- Headless Neovim, configured as docs/neovim.md says, asks codekith for the call hierarchy
-- of a Go function. Arguments: the config file, the workspace, the file and the line of the
-- function (1-based). Prints the incoming and outgoing calls, one `qualname@line` a line.
local config, workspace, file, line = _G.arg[1], _G.arg[2], _G.arg[3], tonumber(_G.arg[4])

local function fail(message)
  io.stderr:write('FAIL: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local function wait_for(what, timeout_ms, predicate)
  if not vim.wait(timeout_ms, predicate, 100) then fail('timed out waiting for ' .. what) end
end

local ok, err = pcall(function()
  vim.cmd('filetype on')
  dofile(config)
  vim.cmd('cd ' .. workspace)
  vim.cmd('edit ' .. file)
  local client
  wait_for('the client to attach', 30000, function()
    client = (vim.lsp.get_clients or vim.lsp.get_active_clients)({ name = 'codekith' })[1]
    return client ~= nil
  end)
  wait_for('the index', 180000, function()
    local reply = client:request_sync('workspace/executeCommand',
      { command = 'codekith.status', arguments = { vim.empty_dict() } }, 5000, 0)
    local folder = reply and reply.result and reply.result.folders[1]
    return folder ~= nil and folder.ready and not folder.indexing and #(folder.runs or {}) > 0
  end)
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
if not ok then fail(tostring(err)) end
vim.cmd('qall!')
