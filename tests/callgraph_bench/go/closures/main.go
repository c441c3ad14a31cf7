package main

import (
	"fmt"

	"example.com/pool/worker"
)

func square(x int) int { return x * x }

func report(results []int) {
	defer func() { fmt.Println("done", summarize(results)) }()
	fmt.Println(results)
}

func summarize(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

func main() {
	double := func(x int) int { return square(x) * 2 }
	results := worker.Run([]int{1, 2, 3}, 2, double)
	report(results)
	report(worker.Run([]int{4}, 1, square))
}
