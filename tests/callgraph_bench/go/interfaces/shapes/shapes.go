package shapes

import (
	"fmt"
	"math"
)

// Shape is anything with an area.
type Shape interface {
	Area() float64
	Named
}

// Named has a name.
type Named interface {
	Name() string
}

type Circle struct{ R float64 }

func (c Circle) Area() float64 { return math.Pi * c.R * c.R }
func (c Circle) Name() string  { return "circle" }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }
func (r Rect) Name() string  { return "rect" }

// Largest returns the shape with the biggest area.
func Largest(shapes []Shape) Shape {
	var best Shape
	for _, s := range shapes {
		if best == nil || s.Area() > best.Area() {
			best = s
		}
	}
	return best
}

// Describe names a shape and its area.
func Describe(s Shape) string {
	return s.Name() + ": " + format(s.Area())
}

func format(f float64) string { return fmt.Sprintf("%.2f", f) }
