package shop

const threshold = 100

func applyDiscount(sum float64) float64 {
	if sum > threshold {
		return sum * rate()
	}
	return sum
}

func rate() float64 { return 0.9 }
