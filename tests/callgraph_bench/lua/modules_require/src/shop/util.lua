-- Small numeric and string helpers shared by the shop modules.
local util = {}

local function clamp(value, low, high)
  if value < low then
    return low
  end
  if value > high then
    return high
  end
  return value
end

function util.round(value, places)
  local factor = 10 ^ (places or 0)
  return math.floor(value * factor + 0.5) / factor
end

function util.percent(part, whole)
  if whole == 0 then
    return 0
  end
  return clamp(util.round(part / whole * 100, 1), 0, 100)
end

function util.trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

return util
