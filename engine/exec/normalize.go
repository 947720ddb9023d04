package exec

import (
	"context"
	"time"

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
//
// With mini-batching (ProcTimeMiniBatchDeduplicateKeepLastRowFunction on
// a changelog) only the last record of each key in a bundle is applied,
// at the bundle's end, keys in the order of Flink's bundle map.
type changelogNormalizeOp struct {
	in     Operator
	key    []int
	ts     []*types.Type
	rows   map[string]normalizedRow
	done   bool
	bundle *normalizeBundle
}

// normalizeBundle is the open mini-batch of a changelog normalization:
// the last record of each key, keys in order of first appearance.
type normalizeBundle struct {
	mb      MiniBatch
	n       int
	started time.Time
	order   []string
	hashes  []uint32
	hashed  bool
	last    map[string]bundledRecord
	keys    bundleMap
}

type bundledRecord struct {
	kind types.RowKind
	row  []any
	enc  string
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
	o := &changelogNormalizeOp{in: in, key: n.Key, ts: n.Schema().Types(), rows: map[string]normalizedRow{}}
	if b.opts.MiniBatch.Size > 0 {
		o.bundle = &normalizeBundle{mb: b.opts.MiniBatch, hashed: true, last: map[string]bundledRecord{}}
	}
	return o, nil
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
			if o.bundle != nil {
				out := vector.NewBatch(o.ts, 0)
				o.flushBundle(out)
				if out.N > 0 {
					return out, nil
				}
			}
			break
		}
		if out := o.consume(bt); out.N > 0 {
			return out, nil
		}
	}
	return nil, nil
}

// flushBundle applies the last record of every key of the open bundle.
func (o *changelogNormalizeOp) flushBundle(out *vector.Batch) {
	b := o.bundle
	for _, i := range b.keys.order(b.hashes, b.hashed) {
		key := b.order[i]
		r := b.last[key]
		o.apply(out, key, r.kind, r.row, r.enc)
	}
	b.order, b.hashes, b.hashed, b.n, b.started = b.order[:0], b.hashes[:0], true, 0, time.Time{}
	clear(b.last)
}

// consume normalizes one batch of the upsert stream.
func (o *changelogNormalizeOp) consume(bt *vector.Batch) *vector.Batch {
	out := vector.NewBatch(o.ts, bt.N)
	b := o.bundle
	if b != nil && b.mb.Latency > 0 && !b.started.IsZero() && time.Since(b.started) >= b.mb.Latency {
		o.flushBundle(out)
	}
	var kb, rb []byte
	for i := range bt.N {
		kb = kb[:0]
		for _, k := range o.key {
			kb = vector.AppendKey(kb, bt.Cols[k], i)
		}
		rb = rowKey(rb[:0], bt, i)
		if b == nil {
			o.apply(out, string(kb), bt.Kind(i), bt.Row(i), string(rb))
			continue
		}
		if b.n == 0 {
			b.started = time.Now()
		}
		key := string(kb)
		if _, ok := b.last[key]; !ok {
			b.order = append(b.order, key)
			vals := make([]any, len(o.key))
			ts := make([]*types.Type, len(o.key))
			for j, k := range o.key {
				vals[j], ts[j] = bt.Cols[k].Get(i), o.ts[k]
			}
			h, ok := keyHash(vals, ts)
			b.hashes, b.hashed = append(b.hashes, h), b.hashed && ok
		}
		b.last[key] = bundledRecord{kind: bt.Kind(i), row: bt.Row(i), enc: string(rb)}
		if b.n++; b.n >= b.mb.Size {
			o.flushBundle(out)
		}
	}
	return out
}

// apply normalizes one record of key.
func (o *changelogNormalizeOp) apply(out *vector.Batch, key string, kind types.RowKind, row []any, enc string) {
	prev, seen := o.rows[key]
	if !kind.IsAccumulate() {
		if seen {
			out.AppendRow(types.Delete, prev.row)
			delete(o.rows, key)
		}
		return
	}
	switch {
	case !seen:
		out.AppendRow(types.Insert, row)
	case prev.enc == enc:
		return
	default:
		out.AppendRow(types.UpdateBefore, prev.row)
		out.AppendRow(types.UpdateAfter, row)
	}
	o.rows[key] = normalizedRow{row: row, enc: enc}
}

func (o *changelogNormalizeOp) Close() error { return o.in.Close() }
