package com.acme.shop

import com.acme.util.formatCents as money

fun checkout(cart: Cart): String {
    val total = cart.total()
    println("Paying ${money(total)}")
    return cart.receipt()
}
