-- What the headless Neovim tests share: fail loudly, wait on a condition, open a file of
-- the workspace with the documented config and wait for codekith's first index.
local M = {}

function M.fail(message)
  io.stderr:write('FAIL: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

function M.wait_for(what, timeout_ms, predicate)
  if not vim.wait(timeout_ms, predicate, 100) then M.fail('timed out waiting for ' .. what) end
end

-- The codekith client of `file`, once its first index run has finished.
function M.open(config, workspace, file)
  vim.cmd('filetype on')
  dofile(config)
  vim.cmd('cd ' .. workspace)
  vim.cmd('edit ' .. file)
  local client
  M.wait_for('the client to attach', 30000, function()
    client = (vim.lsp.get_clients or vim.lsp.get_active_clients)({ name = 'codekith' })[1]
    return client ~= nil
  end)
  M.wait_for('the index', 180000, function()
    local reply = client:request_sync('workspace/executeCommand',
      { command = 'codekith.status', arguments = { vim.empty_dict() } }, 5000, 0)
    local folder = reply and reply.result and reply.result.folders[1]
    return folder ~= nil and folder.ready and not folder.indexing and #(folder.runs or {}) > 0
  end)
  return client
end

-- Runs the test's body; any error fails the run, the end quits Neovim.
function M.run(body)
  local ok, err = pcall(body)
  if not ok then M.fail(tostring(err)) end
  vim.cmd('qall!')
end

return M
