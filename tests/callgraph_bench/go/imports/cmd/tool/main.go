package main

import (
	"fmt"
	"os"

	"github.com/acme/tool/internal/textfmt"
	su "github.com/acme/tool/internal/strutil"
)

func main() {
	for _, line := range format.Wrap(su.Title(os.Args[1]), 20) {
		fmt.Println(line)
	}
}
