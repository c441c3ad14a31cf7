package com.acme.shop

import com.acme.util.Currency

data class Item(val name: String, val cents: Long, val quantity: Int = 1) {
    fun total(): Long = cents * quantity

    fun label(): String = "$name x$quantity (${Currency.display(cents)})"
}
