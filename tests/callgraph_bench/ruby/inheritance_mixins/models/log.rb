module Store
  module Log
    def self.write(message)
      puts message
    end
  end
end
