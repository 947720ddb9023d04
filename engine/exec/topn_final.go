package exec

import (
	"context"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// finalRows applies a drained changelog: the rows a consumer that
// materialises it ends with, in the order they were inserted (a
// retraction removes the earliest equal row still present). A batch
// without row kinds is returned as it is. Sub-queries read their query's
// final rows through it, as a batch consumer would.
func finalRows(b *vector.Batch, err error) (*vector.Batch, error) {
	if err != nil || b == nil || b.Kinds == nil {
		return b, err
	}
	live := make([]bool, b.N)
	index := map[string][]int{}
	var buf []byte
	for i := range b.N {
		buf = buf[:0]
		for _, c := range b.Cols {
			buf = vector.AppendKey(buf, c, i)
		}
		k := string(buf)
		if b.Kind(i).IsAccumulate() {
			live[i] = true
			index[k] = append(index[k], i)
			continue
		}
		if rows := index[k]; len(rows) > 0 {
			live[rows[0]] = false
			index[k] = rows[1:]
		}
	}
	sel := make([]int, 0, b.N)
	for i, ok := range live {
		if ok {
			sel = append(sel, i)
		}
	}
	out := b.Gather(sel)
	out.Kinds = nil
	return out, nil
}

// Materialize returns an operator that reads all of in and then yields
// its final rows: the changelog applied (finalRows), all as inserts. A
// sink that stores rows uses it for an updating query in streaming mode.
func Materialize(in Operator, ts []*types.Type) Operator {
	return &materializeOp{in: in, ts: ts}
}

type materializeOp struct {
	in  Operator
	ts  []*types.Type
	out *sliceOp
}

func (o *materializeOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		rows, err := finalRows(Drain(ctx, o.in, o.ts))
		if err != nil {
			return nil, err
		}
		o.out = &sliceOp{b: rows}
	}
	return o.out.Next(ctx)
}

func (o *materializeOp) Close() error { return o.in.Close() }
