require_relative "lib/billing/invoice"

invoice = Billing::Invoice.new("ann")
invoice.add_line(10).validate!
invoice.render
total = invoice.total
puts total
