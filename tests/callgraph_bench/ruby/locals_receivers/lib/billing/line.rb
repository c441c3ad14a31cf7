module Billing
  class Line
    attr_reader :amount

    def initialize(amount)
      @amount = amount
    end

    def validate!
      raise ArgumentError, "negative" if amount.negative?

      check_limit
    end

    def check_limit
      limit = 1000
      limit > amount
    end
  end
end
