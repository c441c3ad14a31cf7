package com.acme.shop;

import com.acme.util.Money;

public class Item {
    private final String name;
    private final double price;

    public Item(String name, double price) {
        this.name = name;
        this.price = price;
    }

    public String name() {
        return name;
    }

    public long priceCents() {
        return Money.cents(price);
    }
}
