package ast

// Node is an expression tree node.
type Node interface{ Pos() int }

type Num struct{ V int }

func (n *Num) Pos() int { return 0 }

type Add struct{ L, R Node }

func (a *Add) Pos() int   { return a.L.Pos() }
func (a *Add) Parts() int { return 2 }

// Eval computes the value of n.
func Eval(n Node) int {
	switch x := n.(type) {
	case *Num:
		return x.V
	case *Add:
		_ = x.Parts()
		return Eval(x.L) + Eval(x.R)
	default:
		return x.Pos()
	}
}

// Count counts the nodes of a tree.
func Count(n Node) int {
	if a, ok := n.(*Add); ok {
		return 1 + Count(a.L) + Count(a.R) + a.Parts()
	}
	return 1
}
