require("log")
require("timefmt")

Jobs = {}

function Jobs.run(name, fn)
  log_info("start " .. name)
  local started = os.time()
  local ok, err = pcall(fn)
  if not ok then
    log_warn(name .. " failed: " .. tostring(err))
  end
  log_info(name .. " took " .. format_duration(os.time() - started))
  return ok
end

function Jobs.stamp()
  return format_time(os.time())
end
