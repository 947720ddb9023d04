package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// correlate runs its right side once per left row with the correlation id
// bound to that row (CROSS JOIN UNNEST, LATERAL).
func (b *Builder) correlate(n *plan.Correlate) (Operator, error) {
	left, err := b.Build(n.Left)
	if err != nil {
		return nil, err
	}
	bind := &binding{}
	b.corr[n.ID] = bind
	return &correlateOp{b: b, n: n, left: left, bind: bind,
		rightTypes: n.Right.Schema().Types(), outTypes: n.Schema().Types()}, nil
}

type correlateOp struct {
	b                    *Builder
	n                    *plan.Correlate
	left                 Operator
	bind                 *binding
	rightTypes, outTypes []*types.Type
}

func (o *correlateOp) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		bt, err := o.left.Next(ctx)
		if err != nil || bt == nil {
			return nil, err
		}
		out := vector.NewBatch(o.outTypes, bt.N)
		nl := len(bt.Cols)
		for i := range bt.N {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			o.bind.batch, o.bind.row = bt, i
			op, err := o.b.Build(o.n.Right)
			if err != nil {
				return nil, err
			}
			right, err := Drain(ctx, op, o.rightTypes)
			op.Close()
			if err != nil {
				return nil, err
			}
			emit := func(r int) {
				for c := range nl {
					out.Cols[c].AppendFrom(bt.Cols[c], i)
				}
				for c := range o.rightTypes {
					if r < 0 {
						out.Cols[nl+c].AppendNull()
					} else {
						out.Cols[nl+c].AppendFrom(right.Cols[c], r)
					}
				}
				out.N++
			}
			for r := range right.N {
				emit(r)
			}
			if right.N == 0 && o.n.Kind == plan.LeftJoin {
				emit(-1)
			}
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

func (o *correlateOp) Close() error { return o.left.Close() }

// unnest expands collection values into rows.
func (b *Builder) unnest(n *plan.Unnest) (Operator, error) {
	evs, err := b.compileAll(n.Exprs)
	if err != nil {
		return nil, err
	}
	return &unnestOp{n: n, evs: evs, types: n.Cols.Types()}, nil
}

type unnestOp struct {
	n     *plan.Unnest
	evs   []evaluator
	types []*types.Type
	done  bool
}

func (o *unnestOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.done {
		return nil, nil
	}
	o.done = true
	one := oneRowBatch()
	var lists [][][]any // per expression, its rows
	longest := 0
	for i, ev := range o.evs {
		v, err := ev(ctx, one)
		if err != nil {
			return nil, err
		}
		rows := expand(v.Get(0), o.n.Exprs[i].Type())
		lists = append(lists, rows)
		longest = max(longest, len(rows))
	}
	out := vector.NewBatch(o.types, longest)
	for r := range longest {
		var row []any
		for i, rows := range lists {
			if r < len(rows) {
				row = append(row, rows[r]...)
			} else {
				row = append(row, make([]any, width(o.n.Exprs[i].Type()))...)
			}
		}
		if o.n.WithOrdinality {
			row = append(row, int32(r+1))
		}
		if len(row) != len(o.types) {
			return nil, &RuntimeError{Msg: "UNNEST produced a row of the wrong width"}
		}
		out.AppendRow(types.Insert, row)
	}
	return out, nil
}

// expand returns the rows one collection value unnests into.
func expand(v any, t *types.Type) [][]any {
	switch x := v.(type) {
	case []any:
		out := make([][]any, len(x))
		for i, e := range x {
			if t.Elem != nil && t.Elem.Kind == types.Row {
				fields, _ := e.([]any)
				if fields == nil {
					fields = make([]any, len(t.Elem.Fields))
				}
				out[i] = fields
			} else {
				out[i] = []any{e}
			}
		}
		return out
	case map[any]any:
		out := make([][]any, 0, len(x))
		for k, e := range x {
			out = append(out, []any{k, e})
		}
		return out
	}
	return nil
}

func width(t *types.Type) int {
	switch {
	case t.Kind == types.Map:
		return 2
	case t.Elem != nil && t.Elem.Kind == types.Row:
		return len(t.Elem.Fields)
	}
	return 1
}

func (o *unnestOp) Close() error { return nil }
