module Runner
  module Text
    module_function

    def trim(text)
      text.strip
    end

    def shout(text)
      trim(text).upcase
    end
  end
end
