package exec

import (
	"context"
	"sort"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Streaming deduplication: ROW_NUMBER() ... ORDER BY a time attribute with
// rn = 1, as Flink's Deduplicate functions run it at parallelism 1.
//
//   - processing time, ascending (keep first row): the first row of each
//     key, as +I (ProcTimeDeduplicateKeepFirstRowFunction);
//   - processing time, descending (keep last row): +I for the first row,
//     then -U of the previous row and +U of each new one
//     (ProcTimeDeduplicateKeepLastRowFunction);
//   - event time, descending (keep last row): a row replaces the kept one
//     when its event time is not smaller (RowTimeDeduplicateFunction);
//   - event time, ascending (keep first row): insert-only output. Each
//     key keeps the row with the smallest event time until the watermark
//     passes it, then emits it once; rows behind the watermark are late
//     and dropped (RowTimeDeduplicateKeepFirstRowFunction). The watermark
//     is the largest event time seen minus the WATERMARK clause's delay,
//     advanced after each row; at the end of the input every kept row
//     fires, in event-time order.

type dedupOp struct {
	in       Operator
	part     []evaluator
	timeCol  int // rowtime: the event-time column of the input row; -1 for processing time
	keepLast bool
	delay    int64
	wm       int64
	out      []*types.Type
	rankCol  bool
	rank     int64
	keys     map[string]*dedupKey
	waiting  []*dedupKey // rowtime keep-first: keys with a row waiting to fire
	seq      int64
	pending  *vector.Batch
	done     bool
	// bundle is the open mini-batch of a processing-time keep-last-row
	// deduplication (nil without mini-batching): the last row of each key
	// it touched, in order of first touch.
	bundle *dedupBundle
}

// dedupBundle folds a processing-time deduplication per bundle of size
// rows. Keeping the last row (ProcTimeMiniBatchDeduplicateKeepLastRowFunction),
// at the bundle's end each key emits +I for its first row ever, or -U of
// the row it emitted last and +U of the bundle's last row; keeping the
// first (ProcTimeMiniBatchDeduplicateKeepFirstRowFunction), a key not seen
// before emits +I of its first row of the bundle.
type dedupBundle struct {
	mb      MiniBatch
	n       int
	started time.Time
	order   []string
	hashes  []uint32
	hashed  bool
	last    map[string][]any
	keys    bundleMap
}

type dedupKey struct {
	row     []any
	ts      int64
	seq     int64 // arrival of the kept row, to order equal times
	emitted bool
}

func newDedupOp(in Operator, part []evaluator, timeCol int, keepLast bool, delay int64, inTypes []*types.Type, rankType *types.Type, rankCol bool, rank int64) *dedupOp {
	out := append([]*types.Type(nil), inTypes...)
	if rankCol {
		out = append(out, rankType)
	}
	return &dedupOp{in: in, part: part, timeCol: timeCol, keepLast: keepLast, delay: delay, wm: minWatermark,
		out: out, rankCol: rankCol, rank: rank, keys: map[string]*dedupKey{}}
}

func (o *dedupOp) Next(ctx context.Context) (*vector.Batch, error) {
	for !o.done {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := o.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		o.pending = vector.NewBatch(o.out, vector.BatchSize)
		if bt == nil {
			o.done = true
			o.flushBundle()
			o.fire(maxWatermark)
		} else if err := o.consume(ctx, bt); err != nil {
			return nil, err
		}
		if o.pending.N > 0 {
			out := o.pending
			o.pending = nil
			return out, nil
		}
	}
	return nil, nil
}

const maxWatermark = int64(1<<63 - 1)

func (o *dedupOp) emit(kind types.RowKind, row []any) {
	if o.rankCol {
		row = append(append(make([]any, 0, len(row)+1), row...), o.rank)
	}
	o.pending.AppendRow(kind, row)
}

// eventTime returns the event time of a row in milliseconds.
func eventTime(v any) (int64, bool) {
	switch t := v.(type) {
	case time.Time:
		return t.UnixMilli(), true
	}
	if n, ok := types.AsInt64(v); ok {
		return n, true
	}
	return 0, false
}

func (o *dedupOp) consume(ctx context.Context, bt *vector.Batch) error {
	parts, err := evalAll(ctx, o.part, bt)
	if err != nil {
		return err
	}
	var buf []byte
	if b := o.bundle; b != nil && b.mb.Latency > 0 && !b.started.IsZero() && time.Since(b.started) >= b.mb.Latency {
		o.flushBundle()
	}
	for i := range bt.N {
		if !bt.Kind(i).IsAccumulate() {
			return &UnsupportedError{What: "deduplication of an updating input"}
		}
		buf = buf[:0]
		for _, p := range parts {
			buf = vector.AppendKey(buf, p, i)
		}
		row := bt.Row(i)
		o.seq++
		if b := o.bundle; b != nil {
			if b.n == 0 {
				b.started = time.Now()
			}
			key := string(buf)
			_, inBundle := b.last[key]
			switch {
			case !o.keepLast && o.keys[key] != nil:
				// Keeping the first row: a key emitted before takes no more.
			case !inBundle:
				b.order = append(b.order, key)
				vals := make([]any, len(parts))
				ts := make([]*types.Type, len(parts))
				for j, p := range parts {
					vals[j], ts[j] = p.Get(i), p.T
				}
				h, ok := keyHash(vals, ts)
				b.hashes, b.hashed = append(b.hashes, h), b.hashed && ok
				b.last[key] = row
			case o.keepLast:
				b.last[key] = row
			}
			if b.n++; b.n >= b.mb.Size {
				o.flushBundle()
			}
			continue
		}
		k := o.keys[string(buf)]
		if o.timeCol < 0 {
			switch {
			case k == nil:
				o.keys[string(buf)] = &dedupKey{row: row}
				o.emit(types.Insert, row)
			case o.keepLast:
				o.emit(types.UpdateBefore, k.row)
				o.emit(types.UpdateAfter, row)
				k.row = row
			}
			continue
		}
		ts, ok := eventTime(row[o.timeCol])
		if !ok {
			continue
		}
		if o.keepLast {
			switch {
			case k == nil:
				o.keys[string(buf)] = &dedupKey{row: row, ts: ts}
				o.emit(types.Insert, row)
			case ts >= k.ts:
				o.emit(types.UpdateBefore, k.row)
				o.emit(types.UpdateAfter, row)
				k.row, k.ts = row, ts
			}
			continue
		}
		if ts < o.wm {
			continue // late
		}
		switch {
		case k == nil:
			k = &dedupKey{row: row, ts: ts, seq: o.seq}
			o.keys[string(buf)] = k
			o.waiting = append(o.waiting, k)
		case k.emitted:
		case k.row == nil:
			k.row, k.ts, k.seq = row, ts, o.seq
			o.waiting = append(o.waiting, k)
		case ts < k.ts:
			k.row, k.ts, k.seq = row, ts, o.seq
		}
		if wm := ts - o.delay; wm > o.wm {
			o.wm = wm
			o.fire(wm)
		}
	}
	return nil
}

// flushBundle ends the open mini-batch.
func (o *dedupOp) flushBundle() {
	b := o.bundle
	if b == nil {
		return
	}
	for _, i := range b.keys.order(b.hashes, b.hashed) {
		key := b.order[i]
		row := b.last[key]
		if k := o.keys[key]; k == nil {
			o.keys[key] = &dedupKey{row: row}
			o.emit(types.Insert, row)
		} else {
			o.emit(types.UpdateBefore, k.row)
			o.emit(types.UpdateAfter, row)
			k.row = row
		}
	}
	b.order, b.hashes, b.hashed, b.n, b.started = b.order[:0], b.hashes[:0], true, 0, time.Time{}
	clear(b.last)
}

// fire emits the kept rows whose event time the watermark has passed, in
// event-time order.
func (o *dedupOp) fire(wm int64) {
	if len(o.waiting) == 0 {
		return
	}
	sort.SliceStable(o.waiting, func(i, j int) bool {
		a, b := o.waiting[i], o.waiting[j]
		if a.ts != b.ts {
			return a.ts < b.ts
		}
		return a.seq < b.seq
	})
	n := 0
	for _, k := range o.waiting {
		if k.ts > wm {
			break
		}
		o.emit(types.Insert, k.row)
		k.row = nil
		k.emitted = true
		n++
	}
	o.waiting = o.waiting[n:]
}

func (o *dedupOp) Close() error { return o.in.Close() }

var _ Operator = (*dedupOp)(nil)
