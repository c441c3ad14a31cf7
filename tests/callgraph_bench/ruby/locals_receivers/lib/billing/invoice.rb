require_relative "line"
require_relative "printer"
require_relative "delivery"

module Billing
  class Invoice
    attr_reader :lines, :customer

    def initialize(customer)
      @customer = customer
      @lines = []
      @printer = Printer.new
    end

    def add_line(amount)
      line = Line.new(amount)
      line.validate!
      @lines << line
      line
    end

    def total
      lines.sum(&:amount)
    end

    def each_total
      @lines.map { |total| total * 2 }
    end

    def render
      @printer.print(self)
      format = "pdf"
      puts format
      send_to(customer)
    end

    def format
      "html"
    end

    def export(format)
      format.upcase
    end

    def send_to(recipient)
      recipient.deliver(self)
      mailer = Mailer.new
      mailer.deliver(self)
      mailer = Courier.new
      mailer.deliver(self)
    end
  end
end
