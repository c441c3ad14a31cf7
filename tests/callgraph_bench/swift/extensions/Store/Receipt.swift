import Foundation

struct Receipt {
    let amount: Int
    let issued: Date

    init(amount: Int) {
        self.amount = amount
        self.issued = Date()
    }

    func print() {
        Swift.print(formatted())
    }
}

extension Receipt {
    func formatted() -> String {
        "Total: \(amount.asCurrency())"
    }
}

extension Int {
    func asCurrency() -> String {
        "$\(self / 100).\(self % 100)"
    }
}
