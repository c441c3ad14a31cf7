extension Cart {
    var total: Int {
        lines.reduce(0) { $0 + $1.subtotal() }
    }

    func applyDiscount(_ percent: Int) -> Int {
        let discounted = total - total * percent / 100
        log("discount \(percent)")
        return discounted
    }

    func checkout(with payment: PaymentMethod) -> Receipt {
        let amount = applyDiscount(payment.discountPercent())
        let receipt = Receipt(amount: amount)
        receipt.print()
        clear()
        return receipt
    }
}

extension Cart: CustomStringConvertible {
    var description: String {
        lines.map { $0.describe() }.joined(separator: ", ")
    }
}

extension Cart.Line {
    func describe() -> String {
        "\(quantity) x \(item.name.slugified())"
    }
}
