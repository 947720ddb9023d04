package exec

import (
	"time"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// ConstantRows returns the rows of n when n is a VALUES list of constants
// under projections of column references, literals and casts — the plan of
// `INSERT INTO t VALUES (...)` with literal rows — computed with the
// operators' own kernels (the VALUES operator's conversions, the cast
// kernels, the projection's conforming) but without building operators.
// It is the runner's fast path for literal rows, a physical choice made
// after the validator typed and cast the values. ok is false for any other
// plan and when a value cannot be computed: the operators then run and
// report the failure as always.
func ConstantRows(n plan.Node, loc *time.Location) (rows [][]any, ok bool) {
	if loc == nil {
		loc = time.UTC
	}
	bt, ok := constantBatch(n, loc)
	if !ok {
		return nil, false
	}
	rows = make([][]any, bt.N)
	for i := range rows {
		rows[i] = bt.Row(i)
	}
	return rows, true
}

func constantBatch(n plan.Node, loc *time.Location) (*vector.Batch, bool) {
	switch n := n.(type) {
	case *plan.Values:
		ts := schemaTypes(n.Cols)
		out := vector.NewBatch(ts, len(n.Rows))
		one := oneRowBatch()
		vals := make([]any, len(ts))
		for _, r := range n.Rows {
			if len(r) != len(ts) {
				return nil, false
			}
			for c, e := range r {
				v, ok := constantVec(e, one, loc)
				if !ok {
					return nil, false
				}
				x := v.Get(0)
				// As the VALUES operator stores a value of another
				// representation.
				from := e.Type()
				if x != nil && vector.ClassOf(from) != vector.ClassOf(ts[c]) || x != nil && needsCast(from, ts[c]) {
					var err error
					if x, err = castOne(x, from, ts[c], loc); err != nil {
						return nil, false
					}
				}
				vals[c] = x
			}
			out.AppendRow(types.Insert, vals)
		}
		return out, true
	case *plan.Project:
		in, ok := constantBatch(n.Input, loc)
		if !ok {
			return nil, false
		}
		ts := schemaTypes(n.Schema())
		out := &vector.Batch{Cols: make([]*vector.Vec, len(n.Exprs)), Kinds: in.Kinds, N: in.N}
		for i, e := range n.Exprs {
			v, ok := constantVec(e, in, loc)
			if !ok {
				return nil, false
			}
			v, err := conform(v, ts[i], loc)
			if err != nil {
				return nil, false
			}
			out.Cols[i] = v
		}
		return out, true
	}
	return nil, false
}

// constantVec computes a column reference, a literal or a cast of them
// over bt as their evaluators do.
func constantVec(e plan.Expr, bt *vector.Batch, loc *time.Location) (*vector.Vec, bool) {
	switch e := e.(type) {
	case *plan.ColumnRef:
		if e.Index >= len(bt.Cols) {
			return nil, false
		}
		return bt.Cols[e.Index], true
	case *plan.Literal:
		if bt.N == 1 {
			// vector.Const's own one-value vector.
			v := vector.New(e.T, 1)
			v.Append(e.Value)
			return v, true
		}
		return vector.Const(e.T, e.Value, bt.N), true
	case *plan.Cast:
		x, ok := constantVec(e.X, bt, loc)
		if !ok {
			return nil, false
		}
		v, err := castVec(x, e.X.Type(), e.T, e.Try, loc)
		return v, err == nil
	}
	return nil, false
}
