package exec

import (
	"context"
	"fmt"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Sub-query expressions. An uncorrelated sub-query runs once per
// statement, on first use; a correlated one runs once per outer row, with
// its correlation id bound to that row.

func (b *Builder) compileSubQuery(e *plan.SubQuery) (evaluator, error) {
	var bind *binding
	if e.ID != 0 {
		bind = &binding{}
		b.corr[e.ID] = bind
	}
	left, err := b.compileAll(e.Left)
	if err != nil {
		return nil, err
	}
	qTypes := e.Query.Schema().Types()
	run := func(ctx context.Context) (*vector.Batch, error) {
		op, err := b.Build(e.Query)
		if err != nil {
			return nil, err
		}
		defer op.Close()
		return finalRows(Drain(ctx, op, qTypes))
	}
	var cached *vector.Batch
	// A correlated sub-query's rows depend only on the outer columns it
	// reads: they are computed once per distinct combination of them.
	outerCols := plan.CorrelatedColumns(e.Query, e.ID)
	memo := map[string]*vector.Batch{}
	var key []byte
	rows := func(ctx context.Context, bt *vector.Batch, i int) (*vector.Batch, error) {
		if bind == nil {
			if cached == nil {
				r, err := run(ctx)
				if err != nil {
					return nil, err
				}
				cached = r
			}
			return cached, nil
		}
		key = key[:0]
		for _, c := range outerCols {
			key = vector.AppendKey(key, bt.Cols[c], i)
		}
		if r, ok := memo[string(key)]; ok {
			return r, nil
		}
		bind.batch, bind.row = bt, i
		r, err := run(ctx)
		if err != nil {
			return nil, err
		}
		memo[string(key)] = r
		return r, nil
	}
	t := e.T
	// An uncorrelated single-column IN probes a hash set of the
	// sub-query's values.
	if e.Kind == plan.SubIn && bind == nil && len(e.Left) == 1 &&
		vector.ClassOf(e.Left[0].Type()) == vector.ClassOf(qTypes[0]) {
		var set map[string]bool
		hasNull := false
		return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
			lv, err := left[0](ctx, bt)
			if err != nil {
				return nil, err
			}
			r, err := rows(ctx, bt, 0)
			if err != nil {
				return nil, err
			}
			if set == nil {
				set = make(map[string]bool, r.N)
				var k []byte
				for i := range r.N {
					if r.Cols[0].IsNull(i) {
						hasNull = true
						continue
					}
					k = vector.AppendKey(k[:0], r.Cols[0], i)
					set[string(k)] = true
				}
			}
			out := vector.Make(t, bt.N)
			var k []byte
			for i := range bt.N {
				switch {
				case r.N == 0:
					out.Bools[i] = false
				case lv.IsNull(i):
					out.SetNull(i)
				default:
					k = vector.AppendKey(k[:0], lv, i)
					if set[string(k)] {
						out.Bools[i] = true
					} else if hasNull {
						out.SetNull(i)
					}
				}
			}
			return out, nil
		}, nil
	}
	return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
		lv := make([]*vector.Vec, len(left))
		for j, l := range left {
			v, err := l(ctx, bt)
			if err != nil {
				return nil, err
			}
			lv[j] = v
		}
		out := vector.New(t, bt.N)
		for i := range bt.N {
			r, err := rows(ctx, bt, i)
			if err != nil {
				return nil, err
			}
			v, err := subQueryValue(e, r, lv, i)
			if err != nil {
				return nil, err
			}
			out.Append(v)
		}
		return out, nil
	}, nil
}

// subQueryValue is the value of a sub-query expression for one outer row,
// given the sub-query's rows.
func subQueryValue(e *plan.SubQuery, r *vector.Batch, left []*vector.Vec, i int) (any, error) {
	switch e.Kind {
	case plan.SubScalar:
		switch r.N {
		case 0:
			return nil, nil
		case 1:
			return r.Cols[0].Get(0), nil
		}
		return nil, &RuntimeError{Msg: "Scalar sub-query returned more than one row"}
	case plan.SubExists:
		return r.N > 0, nil
	case plan.SubIn, plan.SubSome, plan.SubAll:
		op := e.Op
		if e.Kind == plan.SubIn {
			op = plan.OpEq
		}
		return quantified(e.Kind == plan.SubAll, op, r, left, i), nil
	}
	return nil, fmt.Errorf("sub-query kind %v", e.Kind)
}

// quantified is `left op SOME (rows)` (IN is `= SOME`) or `left op ALL
// (rows)` with SQL's three-valued result.
func quantified(all bool, op string, r *vector.Batch, left []*vector.Vec, i int) any {
	if r.N == 0 {
		return all
	}
	sawNull := false
	for row := range r.N {
		res, null := compareRow(op, left, i, r, row)
		switch {
		case null:
			sawNull = true
		case res && !all:
			return true
		case !res && all:
			return false
		}
	}
	if sawNull {
		return nil
	}
	return all
}

// compareRow compares the left values of row i with row j of r; null is
// true when a NULL makes the comparison unknown.
func compareRow(op string, left []*vector.Vec, i int, r *vector.Batch, j int) (res, null bool) {
	for c, l := range left {
		if l.IsNull(i) || r.Cols[c].IsNull(j) {
			return false, true
		}
		cmp := types.CompareValues(numericWiden(l.Get(i)), numericWiden(r.Cols[c].Get(j)))
		if op == plan.OpEq {
			if cmp != 0 {
				return false, false
			}
			continue
		}
		return cmpResult(op, cmp), false
	}
	return true, false
}

// numericWiden makes integers of different widths comparable.
func numericWiden(v any) any {
	if n, ok := types.AsInt64(v); ok {
		return n
	}
	return v
}

func cmpResult(op string, c int) bool {
	switch op {
	case plan.OpEq:
		return c == 0
	case plan.OpNe:
		return c != 0
	case plan.OpLt:
		return c < 0
	case plan.OpLe:
		return c <= 0
	case plan.OpGt:
		return c > 0
	}
	return c >= 0
}

// RuntimeError is a failure while running a query.
type RuntimeError struct{ Msg string }

func (e *RuntimeError) Error() string { return e.Msg }

// Class returns Flink's exception class for a failed job.
func (e *RuntimeError) Class() string { return "TableRuntimeException" }
