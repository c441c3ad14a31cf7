package shop

// Item is one product in a cart.
type Item struct {
	Name  string
	Price float64
	Qty   int
}

func linePrice(it Item) float64 {
	return it.Price * float64(it.Qty)
}
