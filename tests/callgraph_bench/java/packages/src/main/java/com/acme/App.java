package com.acme;

import com.acme.shop.Cart;

public class App {
    public static void main(String[] args) {
        Cart cart = new Cart().add("pen", 1.5).add("ink", 3.25);
        System.out.println(cart.receipt());
    }
}
