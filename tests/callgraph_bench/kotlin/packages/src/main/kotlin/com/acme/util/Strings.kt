package com.acme.util

fun padLeft(text: String, width: Int, fill: Char = ' '): String {
    if (text.length >= width) return text
    return fill.toString().repeat(width - text.length) + text
}

fun padRight(text: String, width: Int): String = text + " ".repeat(maxOf(0, width - text.length))

fun line(label: String, value: String): String = padRight(label, 20) + padLeft(value, 10)
