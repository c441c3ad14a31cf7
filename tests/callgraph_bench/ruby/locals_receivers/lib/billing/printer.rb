module Billing
  class Printer
    def print(invoice)
      header = build_header(invoice)
      invoice.lines.each do |line|
        row(line)
      end
      header
    end

    def build_header(invoice)
      "Invoice for #{invoice.customer}"
    end

    def row(line)
      line.amount.to_s
    end
  end
end
