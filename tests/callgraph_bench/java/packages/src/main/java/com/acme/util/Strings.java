package com.acme.util;

public final class Strings {
    public static String pad(String s, int width) {
        return String.format("%-" + width + "s", s);
    }
}
