require_relative "pipeline"
require_relative "text"

module Runner
  class Tasks
    UPCASE = ->(s) { Text.shout(s) }

    def build
      pipeline = Pipeline.new
      pipeline.step(:trim) { |s| Text.trim(s) }
      pipeline.step(:upcase, &UPCASE)
      checker = lambda do |s|
        validate(s)
      end
      pipeline.step(:check, &checker)
      pipeline
    end

    def execute(inputs)
      build.run_all(inputs)
    end

    def validate(text)
      text
    end

    def words(text)
      text.split.each(&method(:record))
    end

    def record(word)
      counter = proc { |w| Text.trim(w) }
      counter.call(word)
    end
  end
end
