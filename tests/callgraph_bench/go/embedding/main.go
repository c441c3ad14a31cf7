package main

import "example.com/kv/store"

func main() {
	s := store.NewStore()
	s.Put("a", "1")
	if v, ok := s.Get("a"); ok {
		println(v)
	}
	var logger store.Logger
	logger.Logf("done")
}
