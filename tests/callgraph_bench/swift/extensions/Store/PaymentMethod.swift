protocol PaymentMethod {
    func discountPercent() -> Int
}

struct GiftCard: PaymentMethod {
    let code: String

    func discountPercent() -> Int { code.isPromo() ? 10 : 0 }
}

extension String {
    func isPromo() -> Bool { hasPrefix("PROMO") }
}
