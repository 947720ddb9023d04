package parser

import (
	"unsafe"

	"eddy/engine/ast"
)

// slabBytes is the size a slab chunk aims at: large enough that a chunk
// serves many nodes, small enough that a tree pinning its chunks keeps
// little else alive.
const slabBytes = 2048

// slab hands out zeroed values of T from chunks, one allocation per chunk
// instead of one per node. What a statement leaves over in a chunk serves
// the next statement of the same (pooled) parser; a tree never shares a
// value with another tree.
type slab[T any] []T

// get returns a pointer to a fresh zero T.
func (s *slab[T]) get() *T {
	if len(*s) == 0 {
		var zero T
		*s = make([]T, max(4, slabBytes/int(unsafe.Sizeof(zero))))
	}
	x := &(*s)[0]
	*s = (*s)[1:]
	return x
}

// nodeSlabs holds a parser's slabs of the most frequent nodes.
type nodeSlabs struct {
	funcs   slab[funcAlloc]
	binary  slab[ast.BinaryExpr]
	items   slab[ast.SelectItem]
	columns slab[ast.ColumnDef]
	selects slab[selectAlloc]
	names   slab[identAlloc]
	objects slab[objectNameAlloc]
	lits    slab[ast.Literal]
	props   slab[ast.Property]
	tables  slab[ast.TableName]
	orders  slab[ast.OrderItem]
}

// funcAlloc is a FuncCall with its name and room for up to four
// arguments.
type funcAlloc struct {
	call ast.FuncCall
	name ast.ObjectName
	args [4]ast.Expr
}

// selectAlloc is a Select with room for up to eight items.
type selectAlloc struct {
	sel   ast.Select
	items [8]*ast.SelectItem
}

// newFuncCall hands out a FuncCall (see slab) named by parts, and an
// empty argument slice with room for four arguments.
func (p *Parser) newFuncCall(parts []*ast.Ident) (*ast.FuncCall, []ast.Expr) {
	a := p.nodes.funcs.get()
	a.name.Parts = parts
	a.call.Name = &a.name
	return &a.call, a.args[:0]
}

// newBinary hands out a BinaryExpr (see slab), filled in field by field
// (see newIdentAt).
func (p *Parser) newBinary(pos ast.Pos, op string, l, r ast.Expr) *ast.BinaryExpr {
	e := p.nodes.binary.get()
	e.Pos, e.Op, e.L, e.R = pos, op, l, r
	return e
}

// newSelect hands out a Select (see slab) whose Items has room for eight
// items before it grows.
func (p *Parser) newSelect(pos ast.Pos) *ast.Select {
	a := p.nodes.selects.get()
	a.sel.Pos = pos
	a.sel.Items = a.items[:0]
	return &a.sel
}
