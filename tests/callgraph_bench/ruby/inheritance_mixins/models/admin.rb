require_relative "user"
require_relative "audited"

module Store
  class Admin < User
    prepend Audited

    def rename(name)
      super(name.upcase)
      grant
    end

    def grant
      Log.write("grant")
    end
  end
end
