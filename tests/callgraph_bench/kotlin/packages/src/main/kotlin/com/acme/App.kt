package com.acme

import com.acme.shop.*
import com.acme.util.Currency

fun main() {
    Currency.symbol = "EUR "
    val cart = Cart()
    cart.add("apple", 50, 3).add("pear", 75)
    val receipt = checkout(cart)
    println(receipt)
}
