package worker

import "sync"

// Run calls job for every input on n goroutines.
func Run(inputs []int, n int, job func(int) int) []int {
	var wg sync.WaitGroup
	out := make([]int, len(inputs))
	ch := make(chan int)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				out[i] = job(inputs[i])
			}
		}()
	}
	for i := range inputs {
		ch <- i
	}
	close(ch)
	wg.Wait()
	return out
}
