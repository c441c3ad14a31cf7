module Shop
  module Util
    module_function

    def round(value)
      (value * 100).round / 100.0
    end

    def blank?(text)
      text.nil? || text.empty?
    end
  end
end
