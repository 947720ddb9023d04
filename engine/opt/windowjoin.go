package opt

import (
	"eddy/engine/plan"
	"eddy/engine/types"
)

// windowJoin recognises a window join: j's equalities equate the
// window_start columns and the window_end columns of two windowed inputs
// (a window table function, or a window aggregate over one, under
// projections and filters).
func windowJoin(j *plan.Join) plan.Node {
	le, re := -1, -1
	starts := false
	for _, k := range j.EquiKeys {
		lc, lok := k.Left.(*plan.ColumnRef)
		rc, rok := k.Right.(*plan.ColumnRef)
		if !lok || !rok || k.NullSafe {
			continue
		}
		lb, rb := windowBound(j.Left, lc.Index), windowBound(j.Right, rc.Index)
		switch {
		case lb == boundStart && rb == boundStart:
			starts = true
		case lb == boundEnd && rb == boundEnd:
			le, re = lc.Index, rc.Index
		}
	}
	if !starts || le < 0 {
		return nil
	}
	return &plan.WindowJoin{Kind: j.Kind, Left: j.Left, Right: j.Right, EquiKeys: j.EquiKeys, Residual: j.Residual,
		LeftEnd: le, RightEnd: re, LeftTime: rowtimeColumn(j.Left), RightTime: rowtimeColumn(j.Right)}
}

const (
	boundNone = iota
	boundStart
	boundEnd
)

// windowBound tells whether column col of n is the window_start or the
// window_end of a window table function.
func windowBound(n plan.Node, col int) int {
	switch x := n.(type) {
	case *plan.WindowTVF:
		switch col - len(x.Input.Schema()) {
		case 0:
			return boundStart
		case 1:
			return boundEnd
		}
	case *plan.Project:
		if r, ok := x.Exprs[col].(*plan.ColumnRef); ok {
			return windowBound(x.Input, r.Index)
		}
	case *plan.Filter:
		return windowBound(x.Input, col)
	case *plan.Aggregate:
		w, ok := x.Input.(*plan.WindowTVF)
		if ok && x.GroupingSets == nil && x.GroupsByWindow(w) && col < len(x.Group) {
			if r, ok := x.Group[col].(*plan.ColumnRef); ok {
				return windowBound(w, r.Index)
			}
		}
	}
	return boundNone
}

// rowtimeColumn returns the first event-time column of n's output, or -1.
func rowtimeColumn(n plan.Node) int {
	for i, c := range n.Schema() {
		if c.Type.TimeAttr == types.Rowtime {
			return i
		}
	}
	return -1
}
