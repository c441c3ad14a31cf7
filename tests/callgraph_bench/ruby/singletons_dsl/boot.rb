require_relative "lib/config/app_config"
require_relative "lib/config/env"

config = Config::AppConfig.load("app.conf")
config.parse_line("a=b")
Config::Registry.reset!
Config::Env.production?
Config::Registry.instance.fetch(:port)
