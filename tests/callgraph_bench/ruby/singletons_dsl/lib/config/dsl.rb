require_relative "registry"

module Config
  # Class-level macros: `extend DSL`.
  module DSL
    def setting(name, default = nil)
      Registry.register(name, default)
      define_method(name) { Registry.instance.fetch(name) }
    end

    def settings(*names)
      names.each { |n| setting(n) }
    end
  end
end
