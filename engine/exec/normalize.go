package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// changelogNormalizeOp runs plan.ChangelogNormalize as Flink's
// ProcTimeDeduplicateKeepLastRowFunction does for ChangelogNormalize
// (DeduplicateFunctionHelper.processLastRowOnChangelog, update-befores
// generated, no state retention limit): it keeps the last row of every
// key and
//
//   - for +I or +U: emits +I when the key has no row, else -U of the kept
//     row and +U of the new one, or nothing when the new row equals the
//     kept one; the new row is kept;
//   - for -D or -U: emits -D of the kept row (the full row: an upsert
//     delete may carry only its key) and forgets the key; a key without a
//     row emits nothing.
type changelogNormalizeOp struct {
	in   Operator
	key  []int
	ts   []*types.Type
	rows map[string]normalizedRow
	done bool
}

// normalizedRow is the kept row of a key and its encoding, to compare
// the next row with.
type normalizedRow struct {
	row []any
	enc string
}

func (b *Builder) changelogNormalize(n *plan.ChangelogNormalize) (Operator, error) {
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	return &changelogNormalizeOp{in: in, key: n.Key, ts: n.Schema().Types(), rows: map[string]normalizedRow{}}, nil
}

func (o *changelogNormalizeOp) Next(ctx context.Context) (*vector.Batch, error) {
	for !o.done {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := o.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if bt == nil {
			o.done = true
			break
		}
		if out := o.consume(bt); out.N > 0 {
			return out, nil
		}
	}
	return nil, nil
}

// consume normalizes one batch of the upsert stream.
func (o *changelogNormalizeOp) consume(bt *vector.Batch) *vector.Batch {
	out := vector.NewBatch(o.ts, bt.N)
	var kb, rb []byte
	for i := range bt.N {
		kb = kb[:0]
		for _, k := range o.key {
			kb = vector.AppendKey(kb, bt.Cols[k], i)
		}
		prev, seen := o.rows[string(kb)]
		if !bt.Kind(i).IsAccumulate() {
			if seen {
				out.AppendRow(types.Delete, prev.row)
				delete(o.rows, string(kb))
			}
			continue
		}
		rb = rowKey(rb[:0], bt, i)
		row := bt.Row(i)
		switch {
		case !seen:
			out.AppendRow(types.Insert, row)
		case prev.enc == string(rb):
			continue
		default:
			out.AppendRow(types.UpdateBefore, prev.row)
			out.AppendRow(types.UpdateAfter, row)
		}
		o.rows[string(kb)] = normalizedRow{row: row, enc: string(rb)}
	}
	return out
}

func (o *changelogNormalizeOp) Close() error { return o.in.Close() }
