struct Item {
    let name: String
    let price: Int
}

final class Cart {
    struct Line {
        let item: Item
        var quantity: Int

        func subtotal() -> Int { item.price * quantity }
    }

    private(set) var lines: [Line] = []

    func add(_ item: Item, quantity: Int = 1) {
        lines.append(Line(item: item, quantity: quantity))
        log("added \(item.name.slugified())")
    }

    func clear() {
        lines.removeAll()
    }
}

func log(_ message: String) {
    print(message)
}
