package main

import (
	"strconv"

	"example.com/gen/collections"
)

type Point struct{ X, Y int }

func (p Point) String() string { return strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) }

func label(p Point) string { return "P(" + p.String() + ")" }

func main() {
	s := collections.NewStack[Point]()
	s.Push(Point{1, 2})
	p, _ := s.Pop()
	names := collections.Map([]Point{p}, label)
	println(len(names), s.Len(), p.String())
}
