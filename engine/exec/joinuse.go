package exec

import "eddy/engine/plan"

// Join output columns nobody reads. A batch hash join gathers each
// output column from its input by the matched pairs, and the optimizer
// prunes scans but keeps a join's row whole: in
//
//	SELECT COUNT(*), SUM(w) FROM t JOIN d ON k2 = did
//
// the join makes k2, did and w, and only w is read. joinColumnUse walks
// the plan from its root, carrying down which of each node's output
// columns the nodes above it read, and records it for every Join; the
// join then gathers only those columns (the others are zero values
// nobody looks at). A node the walk does not know reads all its input
// columns, and so does any expression holding a sub-query or a
// correlation, so the answer only ever errs towards gathering more.

//
// A builder asked for several plans (the sinks of a statement set) may
// meet a shared sub-plan under each: every plan the walk has not met is
// walked as one more root, and a join's columns read are those read
// under any of them so far. Each plan's operators are its own, so a join
// built under the first plan needs no more than what that plan read.

// joinColumnUse returns, for each Join under root whose output columns
// are not all read, which of them are.
func joinColumnUse(root plan.Node) map[*plan.Join][]bool {
	u := newColUse()
	u.root(root)
	return u.joins
}

func newColUse() *colUse {
	return &colUse{seen: map[plan.Node][]bool{}, joins: map[*plan.Join][]bool{}}
}

// root walks n as the root of a plan, all its columns read, unless the
// walk met it already (a node of a plan walked before).
func (u *colUse) root(n plan.Node) {
	if u == nil {
		return
	}
	if _, ok := u.seen[n]; !ok {
		u.visit(n, nil)
	}
}

// read returns which of n's output columns are read, or nil for all.
func (u *colUse) read(n *plan.Join) []bool {
	if u == nil {
		return nil
	}
	return u.joins[n]
}

type colUse struct {
	seen  map[plan.Node][]bool // the columns of each node read so far
	joins map[*plan.Join][]bool
}

// visit records that the columns used (nil: all) of n's output are read
// and passes on what n reads of its inputs. A node reached again (a
// shared sub-plan) is walked again only when more of it is read.
func (u *colUse) visit(n plan.Node, used []bool) {
	width := len(n.Schema())
	if used == nil || len(used) != width {
		used = allColumns(width)
	}
	if prev, ok := u.seen[n]; ok {
		grown := false
		for i, x := range used {
			if x && !prev[i] {
				prev[i], grown = true, true
			}
		}
		if !grown {
			return
		}
		used = prev
	} else {
		used = append([]bool(nil), used...)
		u.seen[n] = used
	}
	switch x := n.(type) {
	case *plan.Join:
		u.join(x, used)
	case *plan.Project:
		in := make([]bool, len(x.Input.Schema()))
		// Every expression is evaluated, read or not.
		if !reads(in, x.Exprs...) {
			in = nil
		}
		u.visit(x.Input, in)
	case *plan.Filter:
		in := append([]bool(nil), used...)
		if !reads(in, x.Cond) {
			in = nil
		}
		u.visit(x.Input, in)
	case *plan.Sort:
		in := append([]bool(nil), used...)
		for _, k := range x.Keys {
			if !reads(in, k.Expr) {
				in = nil
				break
			}
		}
		u.visit(x.Input, in)
	case *plan.Limit:
		u.visit(x.Input, used)
	case *plan.Aggregate:
		in := make([]bool, len(x.Input.Schema()))
		ok := reads(in, x.Group...)
		for _, a := range x.Aggs {
			ok = ok && reads(in, a.Args...) && reads(in, a.Filter)
			for _, k := range a.OrderBy {
				ok = ok && reads(in, k.Expr)
			}
		}
		if !ok {
			in = nil
		}
		u.visit(x.Input, in)
	default:
		for _, c := range n.Children() {
			u.visit(c, nil)
		}
	}
}

// join records what is read of x's output and passes on what it reads
// of each input: those columns, and the columns of its keys and
// condition.
func (u *colUse) join(x *plan.Join, used []bool) {
	nl, nr := len(x.Left.Schema()), len(x.Right.Schema())
	left, right := make([]bool, nl), make([]bool, nr)
	copy(left, used)
	if x.Kind != plan.SemiJoin && x.Kind != plan.AntiJoin && len(used) == nl+nr {
		copy(right, used[nl:])
	}
	ok := true
	for _, k := range x.EquiKeys {
		ok = ok && reads(left, k.Left) && reads(right, k.Right)
	}
	if x.Residual != nil {
		both := make([]bool, nl+nr)
		ok = ok && reads(both, x.Residual)
		for i, r := range both {
			if r && i < nl {
				left[i] = true
			} else if r {
				right[i-nl] = true
			}
		}
	}
	if !ok {
		left, right = nil, nil
	}
	all := true
	for _, r := range used {
		all = all && r
	}
	if !all {
		u.joins[x] = used
	} else {
		delete(u.joins, x)
	}
	u.visit(x.Left, left)
	u.visit(x.Right, right)
}

// reads marks in cols the columns the expressions read; false when one
// of them holds an expression whose reads the walk cannot see (a
// sub-query, a correlation, a kind of expression it does not know) or a
// column out of range.
func reads(cols []bool, es ...plan.Expr) bool {
	ok := true
	for _, e := range es {
		plan.WalkExpr(e, func(x plan.Expr) bool {
			switch x := x.(type) {
			case *plan.ColumnRef:
				if x.Index < 0 || x.Index >= len(cols) {
					ok = false
				} else {
					cols[x.Index] = true
				}
			case *plan.Literal, *plan.Call, *plan.Cast, *plan.Case, *plan.FieldAccess:
			default:
				ok = false
			}
			return ok
		})
	}
	return ok
}

func allColumns(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}
