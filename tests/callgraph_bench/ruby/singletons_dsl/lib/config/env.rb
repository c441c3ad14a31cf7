module Config
  module Env
    extend self

    def name
      ENV.fetch("APP_ENV") { default_name }
    end

    def default_name
      "development"
    end

    def production?
      name == "production"
    end
  end
end
