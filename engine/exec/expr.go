package exec

import (
	"context"
	"errors"
	"fmt"
	"time"

	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// evaluator computes an expression over every row of a batch.
type evaluator func(ctx context.Context, b *vector.Batch) (*vector.Vec, error)

// compile turns a plan expression into an evaluator. It is called once
// per statement; kernels are chosen here, not per batch.
func (b *Builder) compile(e plan.Expr) (evaluator, error) {
	switch e := e.(type) {
	case *plan.ColumnRef:
		idx := e.Index
		return func(_ context.Context, bt *vector.Batch) (*vector.Vec, error) {
			if idx >= len(bt.Cols) {
				return nil, fmt.Errorf("column $%d out of range (%d columns)", idx, len(bt.Cols))
			}
			return bt.Cols[idx], nil
		}, nil
	case *plan.Literal:
		t, v := e.T, e.Value
		return func(_ context.Context, bt *vector.Batch) (*vector.Vec, error) {
			return vector.Const(t, v, bt.N), nil
		}, nil
	case *plan.CorrelRef:
		return b.compileCorrel(e)
	case *plan.Call:
		return b.compileCall(e)
	case *plan.Cast:
		return b.compileCast(e)
	case *plan.Case:
		return b.compileCase(e)
	case *plan.FieldAccess:
		x, err := b.compile(e.X)
		if err != nil {
			return nil, err
		}
		idx, t := e.Index, e.T
		return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
			v, err := x(ctx, bt)
			if err != nil {
				return nil, err
			}
			out := vector.New(t, bt.N)
			for i := range bt.N {
				row, _ := v.Get(i).([]any)
				if row == nil || idx >= len(row) {
					out.AppendNull()
					continue
				}
				out.Append(row[idx])
			}
			return out, nil
		}, nil
	case *plan.SubQuery:
		return b.compileSubQuery(e)
	}
	return nil, &UnsupportedError{What: fmt.Sprintf("expression %T", e)}
}

func (b *Builder) compileAll(es []plan.Expr) ([]evaluator, error) {
	out := make([]evaluator, len(es))
	for i, e := range es {
		ev, err := b.compile(e)
		if err != nil {
			return nil, err
		}
		out[i] = ev
	}
	return out, nil
}

func (b *Builder) compileCorrel(e *plan.CorrelRef) (evaluator, error) {
	bind, ok := b.corr[e.ID]
	if !ok {
		bind = &binding{}
		b.corr[e.ID] = bind
	}
	idx, t := e.Index, e.T
	return func(_ context.Context, bt *vector.Batch) (*vector.Vec, error) {
		if bind.batch == nil {
			return nil, fmt.Errorf("correlation $cor%d is not bound", e.ID)
		}
		return vector.Const(t, bind.batch.Cols[idx].Get(bind.row), bt.N), nil
	}, nil
}

func (b *Builder) compileCall(e *plan.Call) (evaluator, error) {
	args, err := b.compileAll(e.Args)
	if err != nil {
		return nil, err
	}
	argTypes := make([]*types.Type, len(e.Args))
	for i, a := range e.Args {
		argTypes[i] = a.Type()
	}
	name := e.Name
	if (name == plan.OpAnd || name == plan.OpOr) && e.Func == nil {
		safe := true
		for _, a := range e.Args[1:] {
			safe = safe && !canFail(a)
		}
		if !safe {
			return b.compileShortCircuit(name == plan.OpAnd, args), nil
		}
	}
	k, err := functions.KernelFor(name, argTypes, e.T)
	if err != nil {
		return nil, err
	}
	env := b.env
	return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
		vals := make([]*vector.Vec, len(args))
		for i, a := range args {
			v, err := a(ctx, bt)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return k(env, vals, bt.N)
	}, nil
}

// compileShortCircuit evaluates AND / OR operands left to right, each only
// on the rows whose outcome is still open, so that `x <> 0 AND 10 / x > 1`
// never divides by zero.
func (b *Builder) compileShortCircuit(and bool, args []evaluator) evaluator {
	boolT := types.New(types.Boolean)
	return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
		out := vector.Make(boolT, bt.N)
		for i := range out.Bools {
			out.Bools[i] = and
		}
		open := make([]int, bt.N)
		for i := range open {
			open[i] = i
		}
		sub := bt
		for _, a := range args {
			if len(open) == 0 {
				break
			}
			v, err := a(ctx, sub)
			if err != nil {
				return nil, err
			}
			var still []int
			for j, row := range open {
				switch {
				case v.IsNull(j):
					out.SetNull(row)
					still = append(still, row)
				case v.Bools[j] != and:
					// decided: FALSE for AND, TRUE for OR
					out.ClearNull(row)
					out.Bools[row] = !and
				default:
					still = append(still, row)
				}
			}
			if len(still) != len(open) {
				sub = bt.Gather(still)
			}
			open = still
		}
		return out, nil
	}
}

func (b *Builder) compileCast(e *plan.Cast) (evaluator, error) {
	x, err := b.compile(e.X)
	if err != nil {
		return nil, err
	}
	from, to, try := e.X.Type(), e.T, e.Try
	loc := b.env.Loc
	return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
		v, err := x(ctx, bt)
		if err != nil {
			return nil, err
		}
		return castVec(v, from, to, try, loc)
	}, nil
}

// castVec casts every value of v from type from to type to (TRY_CAST
// when try: a value that cannot be cast becomes NULL).
func castVec(v *vector.Vec, from, to *types.Type, try bool, loc *time.Location) (*vector.Vec, error) {
	fc, tc := vector.ClassOf(from), vector.ClassOf(to)
	integer := func(k types.Kind) bool {
		return k == types.TinyInt || k == types.SmallInt || k == types.Int || k == types.BigInt
	}
	switch {
	case from.Kind == to.Kind && fc != vector.Decimal && fc != vector.String && fc != vector.Bytes && fc != vector.Time && fc != vector.Any:
		out := *v
		out.T = to
		return &out, nil
	case integer(from.Kind) && integer(to.Kind):
		out := vector.Make(to, v.Len)
		out.SetNulls(v.Nulls())
		for i, n := range v.Ints[:v.Len] {
			out.Ints[i] = narrow(to.Kind, n)
		}
		return out, nil
	case fc == vector.Int && tc == vector.Float && integer(from.Kind):
		out := vector.Make(to, v.Len)
		out.SetNulls(v.Nulls())
		for i, n := range v.Ints[:v.Len] {
			f := float64(n)
			if to.Kind == types.Float {
				f = float64(float32(f))
			}
			out.Floats[i] = f
		}
		return out, nil
	}
	out := vector.New(to, v.Len)
	for i := range v.Len {
		if v.IsNull(i) {
			out.AppendNull()
			continue
		}
		c, err := castOne(v.Get(i), from, to, loc)
		if err != nil {
			var ce *types.CastError
			if try && errors.As(err, &ce) {
				out.AppendNull()
				continue
			}
			return nil, err
		}
		out.Append(c)
	}
	return out, nil
}

// castOne casts a value; TIMESTAMP and TIMESTAMP_LTZ convert through the
// session time zone (a wall-clock reading in that zone is the instant).
func castOne(v any, from, to *types.Type, loc *time.Location) (any, error) {
	if t, ok := v.(time.Time); ok {
		switch {
		case from.Kind == types.Timestamp && to.Kind == types.TimestampLTZ:
			y, m, d := t.Date()
			h, mi, s := t.Clock()
			v = time.Date(y, m, d, h, mi, s, t.Nanosecond(), loc).UTC()
		case from.Kind == types.TimestampLTZ && (to.Kind == types.Timestamp || to.Kind == types.Date || to.Kind == types.Time ||
			to.Kind == types.Char || to.Kind == types.VarChar):
			l := t.In(loc)
			y, m, d := l.Date()
			h, mi, s := l.Clock()
			v = time.Date(y, m, d, h, mi, s, l.Nanosecond(), time.UTC)
			from = types.NewTimestamp(from.Prec)
		}
	}
	return types.CastValue(v, from, to)
}

// narrow wraps a 64-bit integer to the width of an integer kind, as
// Java's narrowing conversion does.
func narrow(k types.Kind, n int64) int64 {
	switch k {
	case types.TinyInt:
		return int64(int8(n))
	case types.SmallInt:
		return int64(int16(n))
	case types.Int:
		return int64(int32(n))
	}
	return n
}

func (b *Builder) compileCase(e *plan.Case) (evaluator, error) {
	conds := make([]evaluator, len(e.Whens))
	results := make([]evaluator, len(e.Whens))
	for i, w := range e.Whens {
		c, err := b.compile(w.Cond)
		if err != nil {
			return nil, err
		}
		r, err := b.compile(w.Result)
		if err != nil {
			return nil, err
		}
		conds[i], results[i] = c, r
	}
	var elseEv evaluator
	if e.Else != nil {
		ev, err := b.compile(e.Else)
		if err != nil {
			return nil, err
		}
		elseEv = ev
	}
	t := e.T
	resultTypes := make([]*types.Type, len(e.Whens)+1)
	for i, w := range e.Whens {
		resultTypes[i] = w.Result.Type()
	}
	if e.Else != nil {
		resultTypes[len(e.Whens)] = e.Else.Type()
	}
	return func(ctx context.Context, bt *vector.Batch) (*vector.Vec, error) {
		out := vector.Make(t, bt.N)
		open := make([]int, bt.N)
		for i := range open {
			open[i] = i
		}
		sub := bt
		place := func(rows []int, ev evaluator, rt *types.Type, src *vector.Batch) error {
			v, err := ev(ctx, src)
			if err != nil {
				return err
			}
			for j, row := range rows {
				if v.IsNull(j) {
					out.SetNull(row)
					continue
				}
				if v.Class == out.Class && (rt.Kind == t.Kind || out.Class != vector.Decimal && out.Class != vector.Int) {
					out.SetFrom(row, v, j)
					continue
				}
				c, err := types.CastValue(v.Get(j), rt, t)
				if err != nil {
					return err
				}
				one := vector.New(t, 1)
				one.Append(c)
				out.SetFrom(row, one, 0)
			}
			return nil
		}
		for w, cond := range conds {
			if len(open) == 0 {
				break
			}
			c, err := cond(ctx, sub)
			if err != nil {
				return nil, err
			}
			var hit, hitPos, rest []int
			for j, row := range open {
				if !c.IsNull(j) && c.Bools[j] {
					hit = append(hit, row)
					hitPos = append(hitPos, j)
				} else {
					rest = append(rest, row)
				}
			}
			if len(hit) > 0 {
				if err := place(hit, results[w], resultTypes[w], sub.Gather(hitPos)); err != nil {
					return nil, err
				}
			}
			if len(rest) != len(open) {
				sub = bt.Gather(rest)
			}
			open = rest
		}
		if len(open) > 0 {
			if elseEv == nil {
				for _, row := range open {
					out.SetNull(row)
				}
			} else if err := place(open, elseEv, resultTypes[len(e.Whens)], sub); err != nil {
				return nil, err
			}
		}
		return out, nil
	}, nil
}

// canFail reports whether evaluating e may raise an error (a division, a
// CAST, a function call, a sub-query): such operands of AND and OR are
// evaluated only on the rows whose outcome is still open.
func canFail(e plan.Expr) bool {
	fails := false
	plan.WalkExpr(e, func(x plan.Expr) bool {
		switch x := x.(type) {
		case *plan.Call:
			switch x.Name {
			case plan.OpDiv, plan.OpMod:
				fails = true
			}
			if x.Func != nil {
				fails = true
			}
		case *plan.Cast:
			fails = fails || !x.Try
		case *plan.SubQuery:
			fails = true
		}
		return !fails
	})
	return fails
}
