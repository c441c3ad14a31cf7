package main

import "example.com/calc/ast"

func main() {
	tree := &ast.Add{L: &ast.Num{V: 1}, R: &ast.Num{V: 2}}
	println(ast.Eval(tree), ast.Count(tree), tree.Pos())
}
