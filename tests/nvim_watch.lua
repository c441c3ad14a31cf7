-- Headless Neovim with the documented config and its file-watching block: a script written
-- outside Neovim (no suffix, never opened) becomes searchable; `git status`, which rewrites
-- .git/index, starts no index run. Arguments: the config file and the workspace.
local config, workspace = _G.arg[1], _G.arg[2]

local common = dofile(vim.fs.dirname(_G.arg[0]) .. '/nvim_common.lua')
local fail, wait_for = common.fail, common.wait_for

common.run(function()
  local client = common.open(config, workspace, 'shop/pricing.py')
  local function command(name, argument)
    local reply = client:request_sync('workspace/executeCommand',
      { command = name, arguments = { argument } }, 10000, 0)
    return reply and reply.result
  end
  local function runs()  -- newest first
    local folder = command('codekith.status', vim.empty_dict()).folders[1]
    return folder.ready and not folder.indexing and folder.runs or {}
  end

  local script = io.open(workspace .. '/bin/restock', 'w')
  script:write('#!/bin/bash\n# Order more units of every product that ran out.\n'
    .. 'reorder_sold_out() {\n  echo restock\n}\n')
  script:close()
  wait_for('the script written outside Neovim in search results', 120000, function()
    local found = command('codekith.search',
      { query = 'order more units of products that ran out', k = 1 })
    return found ~= nil and found.hits[1] ~= nil
      and found.hits[1].qualname == 'bin.restock.reorder_sold_out'
  end)
  print('script written outside OK')

  local before = #runs()
  for _ = 1, 3 do vim.fn.system({ 'git', '-C', workspace, 'status' }) end
  -- a marker written after the `git status` calls: once its run is done, the events those
  -- calls caused were handled before it (one client, one stream of notifications)
  local marker = io.open(workspace .. '/bin/marker', 'w')
  marker:write('#!/bin/sh\nwritten_after_git_status() {\n  :\n}\n')
  marker:close()
  wait_for('the marker in search results', 120000, function()
    local found = command('codekith.search', { query = 'written_after_git_status', k = 1 })
    return found ~= nil and found.hits[1] ~= nil
      and found.hits[1].qualname == 'bin.marker.written_after_git_status'
  end)
  local after = runs()
  for i = 1, #after - before do
    if after[i].mode ~= 'paths' then
      fail('`git status` started a scan: ' .. vim.inspect(after[i]))
    end
  end
  print('git status starts no run OK')
end)
