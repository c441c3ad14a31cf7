-- Also defines the global format_time: which one a caller gets depends on load order.
function format_time(t)
  return os.date("%Y-%m-%d %H:%M", t)
end

function format_duration(secs)
  return string.format("%dm%02ds", secs // 60, secs % 60)
end
