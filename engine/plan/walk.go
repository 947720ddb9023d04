package plan

// WalkExpr calls fn for e and, while fn returns true, for its operands
// (depth first). It does not enter the plans of sub-queries.
func WalkExpr(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch x := e.(type) {
	case *Call:
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *Cast:
		WalkExpr(x.X, fn)
	case *Case:
		for _, w := range x.Whens {
			WalkExpr(w.Cond, fn)
			WalkExpr(w.Result, fn)
		}
		WalkExpr(x.Else, fn)
	case *FieldAccess:
		WalkExpr(x.X, fn)
	case *SubQuery:
		for _, l := range x.Left {
			WalkExpr(l, fn)
		}
	}
}

// RewriteExpr returns e with every sub-expression replaced by fn's answer,
// bottom-up; fn returns its argument to keep it. Sub-query plans are not
// entered. The original tree is not modified.
func RewriteExpr(e Expr, fn func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	switch x := e.(type) {
	case *Call:
		cp := *x
		cp.Args = make([]Expr, len(x.Args))
		for i, a := range x.Args {
			cp.Args[i] = RewriteExpr(a, fn)
		}
		return fn(&cp)
	case *Cast:
		cp := *x
		cp.X = RewriteExpr(x.X, fn)
		return fn(&cp)
	case *Case:
		cp := *x
		cp.Whens = make([]When, len(x.Whens))
		for i, w := range x.Whens {
			cp.Whens[i] = When{Cond: RewriteExpr(w.Cond, fn), Result: RewriteExpr(w.Result, fn)}
		}
		cp.Else = RewriteExpr(x.Else, fn)
		return fn(&cp)
	case *FieldAccess:
		cp := *x
		cp.X = RewriteExpr(x.X, fn)
		return fn(&cp)
	case *SubQuery:
		cp := *x
		cp.Left = make([]Expr, len(x.Left))
		for i, l := range x.Left {
			cp.Left[i] = RewriteExpr(l, fn)
		}
		return fn(&cp)
	}
	return fn(e)
}

// ShiftColumns returns e with every ColumnRef index moved by delta.
func ShiftColumns(e Expr, delta int) Expr {
	return RewriteExpr(e, func(x Expr) Expr {
		if c, ok := x.(*ColumnRef); ok {
			cp := *c
			cp.Index += delta
			return &cp
		}
		return x
	})
}

// NodeExprs returns the expressions a node holds (not those of its
// children), in a fixed order.
func NodeExprs(n Node) []Expr {
	var out []Expr
	switch n := n.(type) {
	case *Scan:
		out = append(out, n.Filters...)
		if n.Watermark != nil {
			out = append(out, n.Watermark)
		}
	case *Values:
		for _, r := range n.Rows {
			out = append(out, r...)
		}
	case *Project:
		out = append(out, n.Exprs...)
	case *Filter:
		out = append(out, n.Cond)
	case *Sort:
		for _, k := range n.Keys {
			out = append(out, k.Expr)
		}
	case *Join:
		for _, k := range n.EquiKeys {
			out = append(out, k.Left, k.Right)
		}
		if n.Residual != nil {
			out = append(out, n.Residual)
		}
	case *Unnest:
		out = append(out, n.Exprs...)
	case *Aggregate:
		out = append(out, n.Group...)
		for _, a := range n.Aggs {
			out = append(out, a.Args...)
			if a.Filter != nil {
				out = append(out, a.Filter)
			}
			for _, k := range a.OrderBy {
				out = append(out, k.Expr)
			}
		}
	case *Match:
		// The expressions over the input row; DEFINE and MEASURES read
		// the match's slots instead.
		for _, k := range n.Order {
			out = append(out, k.Expr)
		}
		for _, sl := range n.Slots {
			out = append(out, sl.Args...)
		}
	case *Over:
		for _, c := range n.Calls {
			out = append(out, c.Args...)
			out = append(out, c.Partition...)
			for _, k := range c.Order {
				out = append(out, k.Expr)
			}
		}
	case *TopN:
		out = append(out, n.Partition...)
		for _, k := range n.Order {
			out = append(out, k.Expr)
		}
	}
	return out
}

// MapNodeExprs returns n with every expression it holds (those of
// NodeExprs, and an Over's frame offsets) replaced by fn's answer; n
// itself when fn changed none. Children are not entered.
func MapNodeExprs(n Node, fn func(Expr) Expr) Node {
	changed := false
	one := func(e Expr) Expr {
		if e == nil {
			return nil
		}
		r := fn(e)
		changed = changed || r != e
		return r
	}
	list := func(es []Expr) []Expr {
		if es == nil {
			return nil
		}
		out := make([]Expr, len(es))
		for i, e := range es {
			out[i] = one(e)
		}
		return out
	}
	keys := func(ks []SortKey) []SortKey {
		if ks == nil {
			return nil
		}
		out := make([]SortKey, len(ks))
		for i, k := range ks {
			out[i] = k
			out[i].Expr = one(k.Expr)
		}
		return out
	}
	var out Node
	switch x := n.(type) {
	case *Scan:
		cp := *x
		cp.Filters, cp.Watermark = list(x.Filters), one(x.Watermark)
		out = &cp
	case *Values:
		cp := *x
		cp.Rows = make([][]Expr, len(x.Rows))
		for i, r := range x.Rows {
			cp.Rows[i] = list(r)
		}
		out = &cp
	case *Project:
		cp := *x
		cp.Exprs = list(x.Exprs)
		out = &cp
	case *Filter:
		cp := *x
		cp.Cond = one(x.Cond)
		out = &cp
	case *Sort:
		cp := *x
		cp.Keys = keys(x.Keys)
		out = &cp
	case *Join:
		cp := *x
		cp.EquiKeys = make([]EquiKey, len(x.EquiKeys))
		for i, k := range x.EquiKeys {
			cp.EquiKeys[i] = EquiKey{Left: one(k.Left), Right: one(k.Right), NullSafe: k.NullSafe}
		}
		cp.Residual = one(x.Residual)
		out = &cp
	case *Unnest:
		cp := *x
		cp.Exprs = list(x.Exprs)
		out = &cp
	case *Aggregate:
		cp := *x
		cp.Group = list(x.Group)
		cp.Aggs = make([]AggCall, len(x.Aggs))
		for i, a := range x.Aggs {
			a.Args, a.Filter, a.OrderBy = list(a.Args), one(a.Filter), keys(a.OrderBy)
			cp.Aggs[i] = a
		}
		out = &cp
	case *Match:
		cp := *x
		cp.Order = keys(x.Order)
		cp.Slots = make([]MatchSlot, len(x.Slots))
		for i, sl := range x.Slots {
			sl.Args = list(sl.Args)
			cp.Slots[i] = sl
		}
		out = &cp
	case *Over:
		cp := *x
		cp.Calls = make([]WindowCall, len(x.Calls))
		for i, c := range x.Calls {
			c.Args, c.Partition, c.Order = list(c.Args), list(c.Partition), keys(c.Order)
			c.Frame.Start.Offset, c.Frame.End.Offset = one(c.Frame.Start.Offset), one(c.Frame.End.Offset)
			cp.Calls[i] = c
		}
		out = &cp
	case *TopN:
		cp := *x
		cp.Partition, cp.Order = list(x.Partition), keys(x.Order)
		out = &cp
	default:
		return n
	}
	if !changed {
		return n
	}
	return out
}

// Walk calls fn for n and every node below it, sub-query plans inside
// expressions included, parents before children.
func Walk(n Node, fn func(Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, e := range NodeExprs(n) {
		WalkExpr(e, func(x Expr) bool {
			if sq, ok := x.(*SubQuery); ok {
				Walk(sq.Query, fn)
			}
			return true
		})
	}
	for _, c := range n.Children() {
		Walk(c, fn)
	}
}

// RemapColumns returns e with every column reference renumbered by m (old
// position to new); references outside m are kept.
func RemapColumns(e Expr, m []int) Expr {
	if e == nil || m == nil {
		return e
	}
	return RewriteExpr(e, func(x Expr) Expr {
		if c, ok := x.(*ColumnRef); ok && c.Index >= 0 && c.Index < len(m) {
			cp := *c
			cp.Index = m[c.Index]
			return &cp
		}
		return x
	})
}

// UsedColumns marks in used (the columns of an input) the columns the
// expressions read.
func UsedColumns(used []bool, exprs ...Expr) {
	for _, e := range exprs {
		WalkExpr(e, func(x Expr) bool {
			if c, ok := x.(*ColumnRef); ok && c.Index >= 0 && c.Index < len(used) {
				used[c.Index] = true
			}
			return true
		})
	}
}

// ColSet is a set of column positions of a node's output; nil means every
// column.
type ColSet []bool

// Has reports whether column i is in the set.
func (s ColSet) Has(i int) bool { return s == nil || i < len(s) && s[i] }

// NeedOf returns the columns of a width-column input that s (over the
// same columns, nil for all) and the expressions read.
func NeedOf(width int, s ColSet, exprs ...Expr) ColSet {
	out := make(ColSet, width)
	for i := range out {
		out[i] = s.Has(i)
	}
	UsedColumns(out, exprs...)
	return out
}

// Identity is the column mapping that moves nothing: position i to i.
func Identity(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}

// CorrelatedColumns returns the columns of the outer row of correlation
// id that a plan reads (sub-query plans included), in order of first use.
func CorrelatedColumns(n Node, id int) []int {
	seen := map[int]bool{}
	var out []int
	Walk(n, func(x Node) {
		for _, e := range NodeExprs(x) {
			WalkExpr(e, func(y Expr) bool {
				if c, ok := y.(*CorrelRef); ok && c.ID == id && !seen[c.Index] {
					seen[c.Index] = true
					out = append(out, c.Index)
				}
				return true
			})
		}
	})
	return out
}
