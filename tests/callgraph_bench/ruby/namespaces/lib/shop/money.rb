module Shop
  # Formatting of amounts in cents.
  module Money
    CURRENCY = "EUR"

    def self.format(cents)
      "#{units(cents)} #{CURRENCY}"
    end

    def self.units(cents)
      format_number(cents / 100.0)
    end

    class << self
      def format_number(value)
        Util.round(value).to_s
      end
    end
  end
end
