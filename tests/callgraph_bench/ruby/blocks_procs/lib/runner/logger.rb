module Runner
  # Not the standard library's Logger: Runner::Logger is found first inside Runner.
  class Logger
    def self.info(message)
      emit("INFO", message)
    end

    def self.emit(level, message)
      $stdout.puts("[#{level}] #{message}")
    end
  end
end
