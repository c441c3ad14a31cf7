package com.acme.util;

public final class Money {
    private Money() {}

    public static long cents(double amount) {
        return Math.round(amount * 100);
    }

    public static String format(long cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }
}
