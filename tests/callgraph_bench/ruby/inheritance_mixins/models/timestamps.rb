require_relative "log"

module Store
  module Timestamps
    def touch
      @updated_at = Time.now
      stamp
    end

    def stamp
      Log.write("stamped")
    end

    def save
      touch
      super
    end
  end
end
