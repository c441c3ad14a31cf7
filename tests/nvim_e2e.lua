-- Headless Neovim drives codekith serve with the configuration from docs/neovim.md.
-- Arguments: the config file, the workspace, and the line of compute_price (1-based).
local config, workspace, line = _G.arg[1], _G.arg[2], tonumber(_G.arg[3])

local common = dofile(vim.fs.dirname(_G.arg[0]) .. '/nvim_common.lua')
local fail, wait_for = common.fail, common.wait_for

local function quickfix_text()
  local lines = {}
  for _, entry in ipairs(vim.fn.getqflist()) do table.insert(lines, entry.text) end
  return table.concat(lines, '\n')
end

common.run(function()
  local client = common.open(config, workspace, 'shop/pricing.py')
  vim.api.nvim_win_set_cursor(0, { line, 4 })
  vim.cmd('CodekithRelated')
  wait_for('related results', 60000, function() return #vim.fn.getqflist() > 0 end)
  local related = quickfix_text()
  if not related:find('shop.pricing.compute_price [seed]', 1, true) then
    fail('the seed is missing from:\n' .. related)
  end
  if not related:find('callee of shop.pricing.compute_price', 1, true) then
    fail('no callee in:\n' .. related)
  end
  print('related OK:\n' .. related)

  -- `:CodekithRelated!` asks with `tests`: the same place, tests ranked with the code
  vim.cmd('wincmd p')
  vim.fn.setqflist({})
  vim.api.nvim_win_set_cursor(0, { line, 4 })
  vim.cmd('CodekithRelated!')
  wait_for('related results with tests', 60000, function() return #vim.fn.getqflist() > 0 end)
  if not quickfix_text():find('shop.pricing.compute_price [seed]', 1, true) then
    fail('the seed is missing with tests from:\n' .. quickfix_text())
  end
  print('related with tests OK')

  vim.cmd('wincmd p')
  vim.api.nvim_buf_set_lines(0, -1, -1, false, {
    '', '', 'def loyalty_points(amount):',
    '    """Reward points a customer earns for a purchase amount."""',
    '    return int(amount // 10)' })
  vim.cmd('write')
  vim.fn.setqflist({})
  -- One search at a time: vim.wait runs the predicate on every event, so one that asked
  -- whenever the list was not empty sent ~3,700 searches in 0.3 s, answered for ~40 s.
  wait_for('the saved function in search results', 120000, function()
    vim.cmd('CodekithSearch reward points earned for a purchase')
    vim.wait(30000, function() return next(client.requests) == nil end, 50)
    return quickfix_text():find('shop.pricing.loyalty_points', 1, true) ~= nil
  end)
  print('search after save OK:\n' .. quickfix_text())

  -- `:CodekithSearch!` asks for code only: the section on points goes, the code stays.
  -- Each asks its own words once every search above is answered.
  for bang, query in pairs({ [''] = 'how customers earn points', ['!'] = 'earning points' }) do
    wait_for('the searches asked before', 120000, function() return next(client.requests) == nil end)
    local title = 'codekith search: ' .. query
    vim.cmd('CodekithSearch' .. bang .. ' ' .. query)
    wait_for('search results', 120000, function()
      return vim.fn.getqflist({ title = 1 }).title == title
    end)
    local found = quickfix_text()
    if (found:find('[section]', 1, true) ~= nil) ~= (bang == '') then
      fail('CodekithSearch' .. bang .. ' should ' .. (bang == '' and '' or 'not ')
        .. 'list the section:\n' .. found)
    end
    -- the documentation comes after the code, not among it
    if bang == '' and found:match('%[section%][^\n]*\n.*%[[fmc]%a+%]') then
      fail('CodekithSearch should list the sections after the code:\n' .. found)
    end
    -- the tests come apart too: after the code, before the documentation
    local code_at, test_at = found:find('shop.', 1, true), found:find('tests.test_points.', 1, true)
    if bang == '' and not (code_at and test_at and code_at < test_at
        and test_at < found:find('[section]', 1, true)) then
      fail('CodekithSearch should list the tests after the code, before the sections:\n' .. found)
    end
  end
  print('search code only OK')
end)
