require("jobs")

local function backup()
  log_info("backing up")
end

local function log_warn(msg) -- a local: hides the global of lib/log.lua
  print("nightly: " .. msg)
end

local function cleanup()
  log_warn("nothing to clean")
end

if not pcall(backup) then
  print("backup failed once")
end
Jobs.run("backup", backup)
Jobs.run("cleanup", cleanup)
print(Jobs.stamp())
