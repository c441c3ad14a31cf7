package main

import "example.com/geo/shapes"

func main() {
	all := []shapes.Shape{shapes.Circle{R: 1}, shapes.Rect{W: 2, H: 3}}
	big := shapes.Largest(all)
	println(shapes.Describe(big))
	c := shapes.Circle{R: 2}
	println(c.Area(), big.Name())
}
