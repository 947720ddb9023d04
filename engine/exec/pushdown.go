package exec

import "eddy/engine/plan"

// Column bookkeeping of a scan whose reader takes columns and filters
// (scanfilter.go). The plan's scans are pruned by engine/opt before the
// plan is built.

// colSet is a set of column positions of a node's output; nil means every
// column.
type colSet []bool

func (s colSet) has(i int) bool { return s == nil || i < len(s) && s[i] }

// needOf returns the columns of a width-column input that s (over the
// same columns, nil for all) and the expressions read.
func needOf(width int, s colSet, exprs ...plan.Expr) colSet {
	out := make(colSet, width)
	for i := range out {
		out[i] = s.has(i)
	}
	plan.UsedColumns(out, exprs...)
	return out
}

// remapExpr renumbers the column references of e with m (old position to
// new).
func remapExpr(e plan.Expr, m []int) plan.Expr { return plan.RemapColumns(e, m) }

func identity(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}
