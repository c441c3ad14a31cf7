module Billing
  # Two classes answer `deliver`: a receiver of unknown class calls neither for sure.
  class Mailer
    def deliver(invoice)
      compose(invoice)
    end

    def compose(invoice)
      invoice.render
    end
  end

  class Courier
    def deliver(_invoice)
      pickup = schedule
      pickup
    end

    def schedule
      :tomorrow
    end
  end
end
