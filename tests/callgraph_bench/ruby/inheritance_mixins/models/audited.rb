require_relative "log"

module Store
  module Audited
    def grant
      Log.write("audit")
      super
    end
  end
end
