func runCheckout() -> Int {
    let cart = Cart()
    cart.add(Item(name: "Tea Pot", price: 2500))
    cart.add(Item(name: "Cup", price: 800), quantity: 4)
    let card = GiftCard(code: "PROMO-1")
    let receipt = cart.checkout(with: card)
    log(cart.description)
    return receipt.amount
}
