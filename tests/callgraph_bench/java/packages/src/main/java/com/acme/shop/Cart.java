package com.acme.shop;

import java.util.ArrayList;
import java.util.List;
import com.acme.util.*;
import static com.acme.util.Money.format;

public class Cart {
    private final List<Item> items = new ArrayList<>();

    public Cart add(String name, double price) {
        items.add(new Item(name, price));
        return this;
    }

    public long total() {
        long sum = 0;
        for (Item item : items) {
            sum += item.priceCents();
        }
        return sum;
    }

    public String receipt() {
        StringBuilder out = new StringBuilder();
        for (Item item : items) {
            out.append(Strings.pad(item.name(), 10)).append(format(item.priceCents())).append('\n');
        }
        return out.append(format(total())).toString();
    }
}
