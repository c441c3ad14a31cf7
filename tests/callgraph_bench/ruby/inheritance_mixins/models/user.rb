require_relative "record"
require_relative "timestamps"
require_relative "finders"

module Store
  class User < Record
    include Timestamps
    extend Finders

    def initialize(attrs)
      super
      @name = attrs[:name]
    end

    def validate
      raise ArgumentError, "name" if blank_name?

      super()
    end

    def blank_name?
      @name.nil?
    end

    def rename(name)
      @name = name
      save
    end
  end
end
