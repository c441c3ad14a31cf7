local Emitter = require("events")

local function on_save(path)
  print("saved " .. path)
end

local function on_quit()
  print("bye")
end

local commands = {
  save = on_save,
  quit = on_quit,
}

local function apply(fn, arg)
  return fn(arg)
end

local bus = Emitter.new()
bus:on("save", on_save)
bus:on("quit", function()
  commands.quit()
end)

commands.save("a.txt")
apply(on_quit)
bus:emit("save", "b.txt")
