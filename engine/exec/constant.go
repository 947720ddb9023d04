package exec

import (
	"errors"
	"time"

	"github.com/cockroachdb/apd/v3"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// ConstantRows returns the rows of n when n is a VALUES list of constants
// under projections of column references, literals and casts — the plan of
// `INSERT INTO t VALUES (...)` with literal rows. It computes each value
// exactly as the operators do (the VALUES operator's conversions, the cast
// kernels, the projection's conforming, a vector's representation of each
// type) but one value at a time, without building operators or vectors.
// It is the runner's fast path for literal rows, a physical choice made
// after the validator typed and cast the values. ok is false for any other
// plan and when a value cannot be computed: the operators then run and
// report the failure as always.
func ConstantRows(n plan.Node, loc *time.Location) (rows [][]any, ok bool) {
	if loc == nil {
		loc = time.UTC
	}
	cells, ok := constantCells(n, loc)
	if !ok {
		return nil, false
	}
	rows = make([][]any, len(cells))
	for i, r := range cells {
		row := make([]any, len(r))
		for c, x := range r {
			if row[c], ok = x.get(); !ok {
				return nil, false
			}
		}
		rows[i] = row
	}
	return rows, true
}

// A cell is one value as a vector of type t holds it: raw is what
// vector.Vec.Append stores (int64 for the integer class, float64 for the
// floating class, the value itself otherwise; nil is NULL).
type cell struct {
	t   *types.Type
	raw any
}

// store returns the cell of x in a vector of type t (vector.Vec.Append).
func store(t *types.Type, x any) (cell, bool) {
	if x == nil {
		return cell{t: t}, true
	}
	switch vector.ClassOf(t) {
	case vector.Bool:
		b, ok := x.(bool)
		return cell{t, b}, ok
	case vector.Int:
		if d, ok := x.(time.Duration); ok {
			return cell{t, int64(d)}, true
		}
		n, _ := types.AsInt64(x)
		return cell{t, n}, true
	case vector.Float:
		switch f := x.(type) {
		case float32:
			return cell{t, float64(f)}, true
		case float64:
			return cell{t, f}, true
		}
		return cell{}, false
	case vector.Decimal:
		d, ok := x.(*apd.Decimal)
		return cell{t, d}, ok
	case vector.String:
		s, ok := x.(string)
		return cell{t, s}, ok
	case vector.Bytes:
		b, ok := x.([]byte)
		return cell{t, b}, ok
	case vector.Time:
		tm, ok := x.(time.Time)
		return cell{t, tm}, ok
	}
	return cell{t, x}, true
}

// get returns the cell's engine value (vector.Vec.Get).
func (c cell) get() (any, bool) {
	if c.raw == nil {
		return nil, true
	}
	switch vector.ClassOf(c.t) {
	case vector.Int:
		n, ok := c.raw.(int64)
		if !ok {
			return nil, false
		}
		switch c.t.Kind {
		case types.Time:
			return time.Duration(n), true
		case types.IntervalDayTime, types.BigInt:
			return n, true
		}
		return types.IntegerValue(c.t.Kind, n), true
	case vector.Float:
		f, ok := c.raw.(float64)
		if !ok {
			return nil, false
		}
		if c.t.Kind == types.Float {
			return float32(f), true
		}
		return f, true
	}
	return c.raw, true
}

// retype returns the cell as a vector re-typed to t holds it (the raw
// value is kept).
func (c cell) retype(t *types.Type) cell { return cell{t, c.raw} }

func constantCells(n plan.Node, loc *time.Location) ([][]cell, bool) {
	switch n := n.(type) {
	case *plan.Values:
		out := make([][]cell, len(n.Rows))
		for i, r := range n.Rows {
			if len(r) != len(n.Cols) {
				return nil, false
			}
			row := make([]cell, len(r))
			for c, e := range r {
				v, ok := constantCell(e, nil, loc)
				if !ok {
					return nil, false
				}
				x, ok := v.get()
				if !ok {
					return nil, false
				}
				// As the VALUES operator stores a value of another
				// representation.
				to, from := n.Cols[c].Type, e.Type()
				if x != nil && vector.ClassOf(from) != vector.ClassOf(to) || x != nil && needsCast(from, to) {
					var err error
					if x, err = castOne(x, from, to, loc); err != nil {
						return nil, false
					}
				}
				if row[c], ok = store(to, x); !ok {
					return nil, false
				}
			}
			out[i] = row
		}
		return out, true
	case *plan.Project:
		in, ok := constantCells(n.Input, loc)
		if !ok {
			return nil, false
		}
		out := make([][]cell, len(in))
		for i, r := range in {
			row := make([]cell, len(n.Exprs))
			for c, e := range n.Exprs {
				v, ok := constantCell(e, r, loc)
				if !ok {
					return nil, false
				}
				if row[c], ok = conformCell(v, e.Type(), loc); !ok {
					return nil, false
				}
			}
			out[i] = row
		}
		return out, true
	}
	return nil, false
}

// conformCell gives a projected value the type t of its output column
// (the expression's, plan.Project.Schema) as the projection's conform does.
func conformCell(v cell, t *types.Type, loc *time.Location) (cell, bool) {
	if v.t == t {
		return v, true
	}
	if vector.ClassOf(v.t) == vector.ClassOf(t) && !needsCast(v.t, t) {
		return v.retype(t), true
	}
	if v.raw == nil {
		return cell{t: t}, true
	}
	x, ok := v.get()
	if !ok {
		return cell{}, false
	}
	x, err := castOne(x, v.t, t, loc)
	if err != nil {
		return cell{}, false
	}
	return store(t, x)
}

// constantCell computes a column reference (a cell of row), a literal or
// a cast of them as their evaluators and the cast kernels (castVec) do.
func constantCell(e plan.Expr, row []cell, loc *time.Location) (cell, bool) {
	switch e := e.(type) {
	case *plan.ColumnRef:
		if e.Index >= len(row) {
			return cell{}, false
		}
		return row[e.Index], true
	case *plan.Literal:
		return store(e.T, e.Value)
	case *plan.Cast:
		x, ok := constantCell(e.X, row, loc)
		if !ok {
			return cell{}, false
		}
		return castCell(x, e.X.Type(), e.T, e.Try, loc)
	}
	return cell{}, false
}

// castCell casts one value as castVec casts a vector holding it.
func castCell(v cell, from, to *types.Type, try bool, loc *time.Location) (cell, bool) {
	fc, tc := vector.ClassOf(from), vector.ClassOf(to)
	switch {
	case from.Kind == to.Kind && fc != vector.Decimal && fc != vector.String && fc != vector.Bytes && fc != vector.Time && fc != vector.Any:
		return v.retype(to), true
	case integerKind(from.Kind) && integerKind(to.Kind):
		if v.raw == nil {
			return cell{t: to}, true
		}
		n, ok := v.raw.(int64)
		return cell{to, narrow(to.Kind, n)}, ok
	case fc == vector.Int && tc == vector.Float && integerKind(from.Kind):
		if v.raw == nil {
			return cell{t: to}, true
		}
		n, ok := v.raw.(int64)
		f := float64(n)
		if to.Kind == types.Float {
			f = float64(float32(f))
		}
		return cell{to, f}, ok
	}
	if v.raw == nil {
		return cell{t: to}, true
	}
	x, ok := v.get()
	if !ok {
		return cell{}, false
	}
	c, err := castOne(x, from, to, loc)
	if err != nil {
		var ce *types.CastError
		if try && errors.As(err, &ce) {
			return cell{t: to}, true
		}
		return cell{}, false
	}
	return store(to, c)
}

func integerKind(k types.Kind) bool {
	return k == types.TinyInt || k == types.SmallInt || k == types.Int || k == types.BigInt
}
