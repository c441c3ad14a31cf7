package com.acme.shop

import com.acme.util.Currency
import com.acme.util.line
import com.acme.util.sumCents

class Cart {
    private val items = mutableListOf<Item>()

    fun add(name: String, cents: Long, quantity: Int = 1): Cart {
        items.add(Item(name, cents, quantity))
        return this
    }

    fun total(): Long = sumCents(items.map { it.total() })

    fun receipt(): String {
        val lines = items.map { line(it.label(), Currency.display(it.total())) }
        return (lines + line("TOTAL", Currency.display(total()))).joinToString("\n")
    }
}
