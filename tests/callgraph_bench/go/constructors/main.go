package main

import (
	"log"

	"example.com/app/config"
)

func mustLoad(path string) *config.Config {
	cfg, err := config.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	return cfg
}

func main() {
	cfg := mustLoad("app.conf")
	if v, err := cfg.Get("name"); err == nil {
		log.Println(v)
	}
	other := new(config.Config)
	other.Get("x")
}
