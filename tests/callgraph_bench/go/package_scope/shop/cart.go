package shop

// Cart holds line items.
type Cart struct {
	items []Item
}

// Add appends an item and returns the cart.
func (c *Cart) Add(it Item) *Cart {
	c.items = append(c.items, it)
	return c
}

// Total sums the line prices.
func (c *Cart) Total() float64 {
	sum := 0.0
	for _, it := range c.items {
		sum += linePrice(it)
	}
	return applyDiscount(sum)
}
