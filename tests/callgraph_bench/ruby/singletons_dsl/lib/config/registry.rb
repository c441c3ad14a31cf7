module Config
  # One process-wide store of settings.
  class Registry
    class << self
      def instance
        @instance ||= new
      end

      def register(key, value)
        instance.store(key, value)
      end

      def reset!
        @instance = nil
      end

      private

      def normalize(key)
        key.to_s
      end
    end

    def self.missing(key)
      raise KeyError, key
    end

    def initialize
      @values = {}
    end

    def store(key, value)
      @values[self.class.send(:normalize, key)] = value
    end

    def fetch(key)
      @values.fetch(key) { self.class.missing(key) }
    end
  end
end
