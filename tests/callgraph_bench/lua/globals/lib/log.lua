-- Global helpers: loaded once by require, then called by name everywhere.
LOG_LEVEL = "info"

function log_info(msg)
  io.write("[info] ", msg, "\n")
end

function log_warn(msg)
  log_info("warning: " .. msg)
end

function format_time(t)
  return os.date("%H:%M", t)
end
