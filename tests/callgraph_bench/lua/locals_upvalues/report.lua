local lexer = require("lexer")

local function words(src)
  return lexer.count(src, "word")
end

local function digits(src)
  return lexer.count(src, "digit")
end

local function line(label, n)
  return label .. ": " .. n
end

local function build(src)
  local out = {}
  out[#out + 1] = line("words", words(src))
  do
    local line = function(label, n) -- hides the outer `line` in this block only
      return label .. "=" .. n
    end
    out[#out + 1] = line("digits", digits(src))
  end
  out[#out + 1] = line("tokens", #lexer.tokenize(src))
  return table.concat(out, "\n")
end

local function fact(n)
  if n <= 1 then
    return 1
  end
  return n * fact(n - 1)
end

local function run(words) -- the parameter hides the local function
  local size = words("a b")
  return build("a 1 b 2") .. size .. fact(3)
end

return { run = run, build = build }
