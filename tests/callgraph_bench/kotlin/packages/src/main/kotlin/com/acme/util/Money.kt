package com.acme.util

/** Cents to a display string. */
fun formatCents(cents: Long): String {
    val whole = cents / 100
    val rest = cents % 100
    return "$whole.${padLeft(rest.toString(), 2, '0')}"
}

fun sumCents(values: List<Long>): Long = values.fold(0L) { acc, v -> acc + v }

object Currency {
    var symbol: String = "$"

    fun display(cents: Long): String = symbol + formatCents(cents)
}
