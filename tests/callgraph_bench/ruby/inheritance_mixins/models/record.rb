require_relative "log"

module Store
  # The base of every stored model.
  class Record
    def self.create(attrs)
      record = new(attrs)
      record.save
      record
    end

    def self.table
      name.downcase
    end

    def initialize(attrs)
      @attrs = attrs
      validate
    end

    def save
      Log.write("save #{self.class.table}")
      persist
    end

    def validate; end

    def persist
      true
    end
  end
end
