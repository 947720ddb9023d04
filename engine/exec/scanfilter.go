package exec

import (
	"context"
	"math"

	"github.com/shopspring/decimal"

	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// rowFilter translates a scan filter conjunct into a filter a source can
// apply where its rows are stored, when the source's comparison gives
// exactly the engine's answer: a NULL test of a column, or a column
// compared with a constant where both are integers (compared exactly), the
// column is DOUBLE and the constant a number (the engine compares them as
// doubles, and so does the store once the constant is a double), or both
// are strings of a VARCHAR column (byte-wise, as vector.Compare orders
// them). DECIMAL, temporal, CHAR (padding) and FLOAT (rounding) columns
// are never translated; the store keeps them in forms whose order differs.
func rowFilter(e plan.Expr) (connectors.RowFilter, bool) {
	c, ok := e.(*plan.Call)
	if !ok || c.Func != nil {
		return connectors.RowFilter{}, false
	}
	switch c.Name {
	case plan.OpIsNull, plan.OpIsNotNull:
		if len(c.Args) != 1 {
			return connectors.RowFilter{}, false
		}
		col, ok := c.Args[0].(*plan.ColumnRef)
		if !ok {
			return connectors.RowFilter{}, false
		}
		op := connectors.FilterIsNull
		if c.Name == plan.OpIsNotNull {
			op = connectors.FilterIsNotNull
		}
		return connectors.RowFilter{Column: col.Index, Op: op}, true
	}
	op, ok := filterOps[c.Name]
	if !ok || len(c.Args) != 2 {
		return connectors.RowFilter{}, false
	}
	col, isCol := c.Args[0].(*plan.ColumnRef)
	lit, isLit := c.Args[1].(*plan.Literal)
	if !isCol || !isLit {
		col, isCol = c.Args[1].(*plan.ColumnRef)
		lit, isLit = c.Args[0].(*plan.Literal)
		if !isCol || !isLit {
			return connectors.RowFilter{}, false
		}
		op = flipped[op]
	}
	if lit.Value == nil {
		return connectors.RowFilter{}, false // = NULL is never TRUE: the engine says so itself
	}
	v, ok := filterValue(col.T, lit)
	if !ok {
		return connectors.RowFilter{}, false
	}
	return connectors.RowFilter{Column: col.Index, Op: op, Value: v}, true
}

var filterOps = map[string]connectors.FilterOp{
	plan.OpEq: connectors.FilterEq, plan.OpNe: connectors.FilterNe,
	plan.OpLt: connectors.FilterLt, plan.OpLe: connectors.FilterLe,
	plan.OpGt: connectors.FilterGt, plan.OpGe: connectors.FilterGe,
}

// flipped is the operator with its operands swapped (5 > c is c < 5).
var flipped = map[connectors.FilterOp]connectors.FilterOp{
	connectors.FilterEq: connectors.FilterEq, connectors.FilterNe: connectors.FilterNe,
	connectors.FilterLt: connectors.FilterGt, connectors.FilterLe: connectors.FilterGe,
	connectors.FilterGt: connectors.FilterLt, connectors.FilterGe: connectors.FilterLe,
}

func isInteger(k types.Kind) bool {
	switch k {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return true
	}
	return false
}

// filterValue returns the constant in the store's form for a comparison
// with a column of type col, or false when the comparison is not exact.
func filterValue(col *types.Type, lit *plan.Literal) (any, bool) {
	lk := lit.T.Kind
	switch {
	case isInteger(col.Kind):
		if !isInteger(lk) {
			return nil, false
		}
		return types.AsInt64(lit.Value)
	case col.Kind == types.Double:
		switch {
		case isInteger(lk):
			n, ok := types.AsInt64(lit.Value)
			// The engine widens the constant to a double; beyond 2^53 the
			// store would compare it exactly instead.
			if !ok || n > 1<<53 || n < -(1<<53) {
				return nil, false
			}
			return float64(n), true
		case lk == types.Double || lk == types.Float:
			f, ok := lit.Value.(float64)
			if fl, isF32 := lit.Value.(float32); isF32 {
				f, ok = float64(fl), true
			}
			if !ok || math.IsNaN(f) {
				return nil, false
			}
			return f, true
		case lk == types.Decimal:
			d, ok := lit.Value.(*decimal.Decimal)
			if !ok {
				return nil, false
			}
			f := types.DecimalFloat64(d) // as the engine's comparison converts it
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, false
			}
			return f, true
		}
	case col.Kind == types.VarChar:
		if lk != types.Char && lk != types.VarChar {
			return nil, false
		}
		s, ok := lit.Value.(string)
		return s, ok
	}
	return nil, false
}

// openPushdown offers the scan's filters and columns to a reader that
// can apply them where the rows are stored; the filters it does not take
// are evaluated here, over the batch the reader returns: their column
// references are renumbered to the read columns, so no expression ever
// sees a column that was not read.
func (o *scanOp) openPushdown(pd connectors.Pushdown) error {
	var offered []connectors.RowFilter
	var from []int
	for i, f := range o.n.Filters {
		if rf, ok := rowFilter(f); ok {
			offered = append(offered, rf)
			from = append(from, i)
		}
	}
	taken := make([]bool, len(o.n.Filters))
	if len(offered) > 0 {
		for k, ok := range pd.PushFilters(offered) {
			if ok {
				taken[from[k]] = true
			}
		}
	}
	var residual []plan.Expr
	for i, f := range o.n.Filters {
		if !taken[i] {
			residual = append(residual, f)
		}
	}
	width := len(o.n.Physical)
	proj := o.n.Projection
	if proj == nil {
		proj = plan.Identity(width)
	}
	pos := make([]int, width)
	for i := range pos {
		pos[i] = -1
	}
	o.cols = o.cols[:0]
	add := func(p int) {
		if p >= 0 && p < width && pos[p] < 0 {
			pos[p] = len(o.cols)
			o.cols = append(o.cols, p)
		}
	}
	for _, p := range proj {
		add(p)
	}
	for i, b := range plan.NeedOf(width, plan.ColSet{}, residual...) {
		if b {
			add(i)
		}
	}
	o.out = make([]int, len(proj))
	for i, p := range proj {
		o.out[i] = pos[p]
	}
	o.cond, o.residual = nil, nil
	if f := plan.And(residual...); f != nil {
		o.residual = plan.RemapColumns(f, pos)
		ev, err := o.b.compile(o.residual)
		if err != nil {
			return err
		}
		o.cond = ev
	}
	pd.PushColumns(o.cols)
	o.pushed = true
	return nil
}

// nextRows returns the next batch of the scan's reader that has rows
// left after the filter, with the columns proj (all when proj is nil or
// names every column in order).
func (o *scanOp) nextRows(ctx context.Context, proj []int) (*vector.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := o.r.Next(ctx)
		if err != nil {
			return nil, err
		}
		if bt == nil {
			o.done = true
			return nil, o.Close()
		}
		if o.cond != nil {
			if bt, err = filterBatch(ctx, o.cond, bt); err != nil {
				return nil, err
			}
		}
		if bt.N == 0 {
			continue
		}
		if proj == nil || len(proj) == len(bt.Cols) && isIdentity(proj) {
			return bt, nil
		}
		cols := make([]*vector.Vec, len(proj))
		for i, p := range proj {
			cols[i] = bt.Cols[p]
		}
		return (&vector.Batch{Cols: cols, Kinds: bt.Kinds, N: bt.N}).Inherit(bt), nil
	}
}

func isIdentity(m []int) bool {
	for i, p := range m {
		if p != i {
			return false
		}
	}
	return true
}

// FilterForm returns the filter form (connectors.FilterSupport) a source
// must declare to take a scan filter conjunct where its rows are stored;
// ok is false for a conjunct the executor never offers to a source (see
// rowFilter). The optimizer's push-down asks it through the session's
// answer to which filters a scan accepts.
func FilterForm(e plan.Expr) (form connectors.FilterSupport, ok bool) {
	rf, ok := rowFilter(e)
	if !ok {
		return 0, false
	}
	if rf.Op == connectors.FilterIsNull || rf.Op == connectors.FilterIsNotNull {
		return connectors.FilterNullTest, true
	}
	return connectors.FilterCompare, true
}
