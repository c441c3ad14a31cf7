require_relative "dsl"

module Config
  class AppConfig
    extend DSL

    setting :port, 8080
    settings :host, :env

    def self.load(path)
      config = new
      config.apply(File.read(path))
      config
    end

    def apply(text)
      text.each_line { |line| parse_line(line) }
    end

    def parse_line(line)
      key, value = line.split("=")
      Registry.register(key, value)
    end
  end
end
