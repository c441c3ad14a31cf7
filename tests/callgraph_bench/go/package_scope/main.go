package main

import (
	"fmt"

	"example.com/shop/shop"
)

func main() {
	c := &shop.Cart{}
	c.Add(shop.Item{Name: "pen", Price: 2, Qty: 3}).Add(shop.Item{Name: "ink", Price: 5, Qty: 1})
	fmt.Println(c.Total())
}
