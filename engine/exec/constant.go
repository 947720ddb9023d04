package exec

import (
	"errors"
	"time"

	"github.com/shopspring/decimal"

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
	nrows, width, slab, ok := constantShape(n)
	if !ok {
		return nil, false
	}
	// One slab holds a row's cells at every level of the plan; the rows
	// share one backing array.
	var small [12]cell
	cells := small[:0]
	if slab <= len(small) {
		cells = small[:slab]
	} else {
		cells = make([]cell, slab)
	}
	rows = make([][]any, nrows)
	flat := make([]any, nrows*width)
	for i := range nrows {
		out, ok := constantRow(n, i, cells, loc)
		if !ok {
			return nil, false
		}
		row := flat[:width:width]
		flat = flat[width:]
		for c, x := range out {
			row[c] = x.get()
		}
		rows[i] = row
	}
	return rows, true
}

// constantShape returns the number of rows and the width of what n
// produces, and the cells one row takes at all levels of n, when n is a
// plan ConstantRows computes.
func constantShape(n plan.Node) (nrows, width, slab int, ok bool) {
	switch n := n.(type) {
	case *plan.Values:
		return len(n.Rows), len(n.Cols), len(n.Cols), true
	case *plan.Project:
		nrows, _, slab, ok = constantShape(n.Input)
		return nrows, len(n.Exprs), slab + len(n.Exprs), ok
	}
	return 0, 0, 0, false
}

// A cell is one value as a vector of type t holds it (what
// vector.Vec.Append stores): n for the integer class, f for the floating
// class, x for the others; null for NULL.
type cell struct {
	t    *types.Type
	null bool
	n    int64
	f    float64
	x    any
	// boxed is, when not nil, the value get returns for n or f: the
	// value store was given, which is already of that Go type.
	boxed any
}

// store returns the cell of x in a vector of type t (vector.Vec.Append).
func store(t *types.Type, x any) (cell, bool) {
	if x == nil {
		return cell{t: t, null: true}, true
	}
	ok := true
	switch vector.ClassOf(t) {
	case vector.Bool:
		_, ok = x.(bool)
	case vector.Int:
		if d, isDur := x.(time.Duration); isDur {
			return cell{t: t, n: int64(d)}, true
		}
		n, _ := types.AsInt64(x)
		c := cell{t: t, n: n}
		if _, ok := x.(int64); ok && (t.Kind == types.BigInt || t.Kind == types.IntervalDayTime) {
			c.boxed = x
		}
		return c, true
	case vector.Float:
		switch f := x.(type) {
		case float32:
			return cell{t: t, f: float64(f)}, true
		case float64:
			c := cell{t: t, f: f}
			if t.Kind != types.Float {
				c.boxed = x
			}
			return c, true
		}
		return cell{}, false
	case vector.Decimal:
		_, ok = x.(*decimal.Decimal)
	case vector.String:
		_, ok = x.(string)
	case vector.Bytes:
		_, ok = x.([]byte)
	case vector.Time:
		_, ok = x.(time.Time)
	}
	return cell{t: t, x: x}, ok
}

// get returns the cell's engine value (vector.Vec.Get).
func (c cell) get() any {
	if c.null {
		return nil
	}
	if c.boxed != nil {
		return c.boxed
	}
	switch vector.ClassOf(c.t) {
	case vector.Int:
		switch c.t.Kind {
		case types.Time:
			return time.Duration(c.n)
		case types.IntervalDayTime, types.BigInt:
			return c.n
		}
		return types.IntegerValue(c.t.Kind, c.n)
	case vector.Float:
		if c.t.Kind == types.Float {
			return float32(c.f)
		}
		return c.f
	}
	return c.x
}

// retype returns the cell as a vector re-typed to t holds it (the stored
// value is kept).
func (c cell) retype(t *types.Type) cell {
	if t.Kind != c.t.Kind {
		c.boxed = nil
	}
	c.t = t
	return c
}

// constantRow computes row i of n (a plan constantShape accepts) into the
// first cells of slab, using the rest for the levels below.
func constantRow(n plan.Node, i int, slab []cell, loc *time.Location) ([]cell, bool) {
	switch n := n.(type) {
	case *plan.Values:
		r := n.Rows[i]
		if len(r) != len(n.Cols) {
			return nil, false
		}
		row := slab[:len(r):len(r)]
		for c, e := range r {
			v, ok := constantCell(e, nil, loc)
			if !ok {
				return nil, false
			}
			x := v.get()
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
		return row, true
	case *plan.Project:
		w := len(n.Exprs)
		in, ok := constantRow(n.Input, i, slab[w:], loc)
		if !ok {
			return nil, false
		}
		row := slab[:w:w]
		for c, e := range n.Exprs {
			v, ok := constantCell(e, in, loc)
			if !ok {
				return nil, false
			}
			if row[c], ok = conformCell(v, e.Type(), loc); !ok {
				return nil, false
			}
		}
		return row, true
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
	if v.null {
		return cell{t: t, null: true}, true
	}
	x, err := castOne(v.get(), v.t, t, loc)
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
	case v.null:
		return cell{t: to, null: true}, true
	case integerKind(from.Kind) && vector.ClassOf(v.t) != vector.Int:
		return cell{}, false // not what the integer kernels read: the operators decide
	case integerKind(from.Kind) && integerKind(to.Kind):
		return cell{t: to, n: narrow(to.Kind, v.n)}, true
	case fc == vector.Int && tc == vector.Float && integerKind(from.Kind):
		f := float64(v.n)
		if to.Kind == types.Float {
			f = float64(float32(f))
		}
		return cell{t: to, f: f}, true
	}
	c, err := castOne(v.get(), from, to, loc)
	if err != nil {
		var ce *types.CastError
		if try && errors.As(err, &ce) {
			return cell{t: to, null: true}, true
		}
		return cell{}, false
	}
	return store(to, c)
}

func integerKind(k types.Kind) bool {
	return k == types.TinyInt || k == types.SmallInt || k == types.Int || k == types.BigInt
}
