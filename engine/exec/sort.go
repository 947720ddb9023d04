package exec

import (
	"context"
	"sort"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// sort orders its whole input. With keep > 0 (a Top-N: ORDER BY ...
// LIMIT k) it never holds much more than keep rows: whenever the buffer
// grows past twice keep it is sorted and cut back.
func (b *Builder) sort(n *plan.Sort, keep int64) (Operator, error) {
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	keys := make([]plan.Expr, len(n.Keys))
	for i, k := range n.Keys {
		keys[i] = k.Expr
	}
	evs, err := b.compileAll(keys)
	if err != nil {
		in.Close()
		return nil, err
	}
	return &sortOp{in: in, keys: n.Keys, evs: evs, keep: keep, types: schemaTypes(n.Schema())}, nil
}

type sortOp struct {
	in    Operator
	keys  []plan.SortKey
	evs   []evaluator
	keep  int64
	types []*types.Type
	out   *sliceOp
}

func (o *sortOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		rows, err := o.run(ctx)
		if err != nil {
			return nil, err
		}
		o.out = &sliceOp{b: rows}
	}
	return o.out.Next(ctx)
}

func (o *sortOp) run(ctx context.Context) (*vector.Batch, error) {
	keyTypes := make([]*types.Type, len(o.keys))
	for i, k := range o.keys {
		keyTypes[i] = k.Expr.Type()
	}
	rows := vector.NewBatch(o.types, vector.BatchSize)
	keys := vector.NewBatch(keyTypes, vector.BatchSize)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := o.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if bt == nil {
			break
		}
		kb := &vector.Batch{Cols: make([]*vector.Vec, len(o.evs)), N: bt.N}
		for i, ev := range o.evs {
			v, err := ev(ctx, bt)
			if err != nil {
				return nil, err
			}
			kb.Cols[i] = v
		}
		rows.AppendBatch(bt)
		keys.AppendBatch(kb)
		if o.keep > 0 && int64(rows.N) > 2*o.keep+vector.BatchSize {
			rows, keys = o.order(rows, keys, o.keep)
		}
	}
	rows, _ = o.order(rows, keys, o.keep)
	return rows, nil
}

// order sorts rows by keys (stable) and keeps the first keep rows (all
// when keep <= 0).
func (o *sortOp) order(rows, keys *vector.Batch, keep int64) (*vector.Batch, *vector.Batch) {
	idx := make([]int, rows.N)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		return compareKeys(o.keys, keys.Cols, idx[x], idx[y]) < 0
	})
	if keep > 0 && int64(len(idx)) > keep {
		idx = idx[:keep]
	}
	return rows.Gather(idx), keys.Gather(idx)
}

// compareKeys orders rows i and j of the key columns by the sort keys.
func compareKeys(keys []plan.SortKey, cols []*vector.Vec, i, j int) int {
	for k, key := range keys {
		v := cols[k]
		ni, nj := v.IsNull(i), v.IsNull(j)
		var c int
		switch {
		case ni && nj:
			continue
		case ni:
			c = 1
			if key.NullsFirst {
				c = -1
			}
			return c
		case nj:
			c = -1
			if key.NullsFirst {
				c = 1
			}
			return c
		}
		c = vector.Compare(v, i, v, j)
		if key.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func (o *sortOp) Close() error { return o.in.Close() }
