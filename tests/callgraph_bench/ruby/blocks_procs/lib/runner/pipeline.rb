require_relative "logger"

module Runner
  class Pipeline
    def initialize
      @steps = []
    end

    def step(name, &block)
      @steps << [name, block]
      self
    end

    def run(input)
      @steps.reduce(input) do |acc, (name, block)|
        log(name)
        block.call(acc)
      end
    end

    def run_all(inputs)
      inputs.map { |i| run(i) }
    end

    def each_step
      @steps.each { |name, _| yield name }
    end

    def names
      list = []
      each_step { |n| list << normalize(n) }
      list
    end

    def normalize(name)
      name.to_s.strip
    end

    def log(message)
      Logger.info(message)
    end
  end
end
