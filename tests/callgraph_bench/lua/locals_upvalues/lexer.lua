-- A tiny tokenizer: forward-declared locals, local closures, upvalues.
local M = {}

local is_space, is_digit -- defined below, used by classify

local function classify(ch)
  if is_space(ch) then
    return "space"
  end
  if is_digit(ch) then
    return "digit"
  end
  return "word"
end

function is_space(ch) -- assigns the local declared above
  return ch == " " or ch == "\t"
end

is_digit = function(ch) -- the local again, set to a closure
  return ch:match("%d") ~= nil
end

local emit = function(tokens, kind, text)
  tokens[#tokens + 1] = { kind = kind, text = text }
end

function M.tokenize(src)
  local tokens = {}
  local current, kind = "", nil
  local function flush()
    if current ~= "" then
      emit(tokens, kind, current)
    end
    current = ""
  end
  for ch in src:gmatch(".") do
    local k = classify(ch)
    if k ~= kind then
      flush()
    end
    kind = k
    current = current .. ch
  end
  flush()
  return tokens
end

function M.count(src, wanted)
  local n = 0
  for _, tok in ipairs(M.tokenize(src)) do
    if tok.kind == wanted then
      n = n + 1
    end
  end
  return n
end

return M
