package exec

import (
	"context"
	"sort"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Streaming Top-N: the changelog Flink's rank functions emit at
// parallelism 1 for
//
//	SELECT ... FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY p ORDER BY o) AS rn FROM t) WHERE rn <= N
//
// and for ORDER BY ... LIMIT n. The strategy follows Flink's
// StreamExecRank: over an append-only input AppendOnlyFirstNFunction (a
// single processing-time key, ascending), FastTop1Function (the range is
// exactly rank 1) or AppendOnlyTopNFunction; over an updating input
// RetractableTopNFunction. As in Flink's planner, a range of one rank
// (rn = 1) drops the rank number from the algorithm and the rank column
// holds that constant.

// rankStrategy is the algorithm of a Top-N.
type rankStrategy uint8

const (
	rankAppendTopN rankStrategy = iota
	rankFirstN
	rankFastTop1
	rankRetract
)

// rankSpec describes one Top-N.
type rankSpec struct {
	part       []evaluator
	order      []evaluator
	keys       []plan.SortKey
	start, end int64 // 1-based, inclusive
	// withRankCol appends the rank column to every output row; rankNumber
	// selects Flink's with-row-number algorithm (the rank column is used
	// and the range has more than one rank, or the range has an offset).
	withRankCol bool
	rankNumber  bool
	// updateBefore emits -U before +U (Flink's generateUpdateBefore).
	updateBefore bool
	strategy     rankStrategy
}

// rankEntry is the rows of one sort key, in arrival order.
type rankEntry struct {
	key  []any
	rows [][]any
}

// rankBuffer is Flink's TopNBuffer: sort keys in order, each with its rows.
type rankBuffer struct {
	entries []*rankEntry
	count   int64
	// first-N and Top-1 state
	seen int64
	top  []any // FastTop1: the current first row
}

type rankOp struct {
	spec    rankSpec
	in      Operator
	inTypes []*types.Type
	out     []*types.Type
	parts   map[string]*rankBuffer
	pending *vector.Batch
	done    bool
}

// eval computes the partition and sort key columns of bt.
func (spec *rankSpec) eval(ctx context.Context, bt *vector.Batch) (parts, keys []*vector.Vec, err error) {
	if parts, err = evalAll(ctx, spec.part, bt); err != nil {
		return nil, nil, err
	}
	if keys, err = evalAll(ctx, spec.order, bt); err != nil {
		return nil, nil, err
	}
	return parts, keys, nil
}

func newRankOp(spec rankSpec, in Operator, inTypes []*types.Type, rankType *types.Type) *rankOp {
	out := append([]*types.Type(nil), inTypes...)
	if spec.withRankCol {
		out = append(out, rankType)
	}
	return &rankOp{spec: spec, in: in, inTypes: inTypes, out: out, parts: map[string]*rankBuffer{}}
}

func (o *rankOp) Next(ctx context.Context) (*vector.Batch, error) {
	return pullChanges(ctx, o.in, &o.done, o.consume)
}

func (o *rankOp) Close() error { return o.in.Close() }

func (o *rankOp) consume(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	parts, keys, err := o.spec.eval(ctx, bt)
	if err != nil {
		return nil, err
	}
	o.pending = vector.NewBatch(o.out, bt.N)
	var buf []byte
	for i := range bt.N {
		buf = buf[:0]
		for _, p := range parts {
			buf = vector.AppendKey(buf, p, i)
		}
		pb := o.parts[string(buf)]
		if pb == nil {
			pb = &rankBuffer{}
			o.parts[string(buf)] = pb
		}
		key := make([]any, len(keys))
		for k, v := range keys {
			key[k] = v.Get(i)
		}
		row := bt.Row(i)
		kind := bt.Kind(i)
		switch o.spec.strategy {
		case rankFirstN:
			o.firstN(pb, row)
		case rankFastTop1:
			o.fastTop1(pb, key, row)
		case rankAppendTopN:
			o.appendTopN(pb, key, row)
		case rankRetract:
			if kind.IsAccumulate() {
				o.retractableAdd(pb, key, row)
			} else {
				o.retractableRemove(pb, key, row)
			}
		}
	}
	out := o.pending
	o.pending = nil
	return out, nil
}

// compareKeys orders two sort keys by the ORDER BY items.
func (o *rankOp) compareKeys(a, b []any) int { return compareSortValues(o.spec.keys, a, b) }

func compareSortValues(keys []plan.SortKey, a, b []any) int {
	for k, sk := range keys {
		x, y := a[k], b[k]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			if sk.NullsFirst {
				return -1
			}
			return 1
		case y == nil:
			if sk.NullsFirst {
				return 1
			}
			return -1
		}
		c := types.CompareValues(numericWiden(x), numericWiden(y))
		if sk.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// emit appends one output row; rank < 0 means the row is emitted
// without a range check (Flink's collect methods without a rank).
func (o *rankOp) emit(kind types.RowKind, row []any, rank int64) {
	if rank >= 0 && (rank < o.spec.start || rank > o.spec.end) {
		return
	}
	if kind == types.UpdateBefore && !o.spec.updateBefore {
		return
	}
	if o.spec.withRankCol {
		r := rank
		if !o.spec.rankNumber || r < 0 {
			r = o.spec.start
		}
		row = append(append(make([]any, 0, len(row)+1), row...), r)
	}
	o.pending.AppendRow(kind, row)
}

// find returns the position of key in the buffer, or where it would go.
func (b *rankBuffer) find(cmp func(a, b []any) int, key []any) (int, bool) {
	i := sort.Search(len(b.entries), func(i int) bool { return cmp(b.entries[i].key, key) >= 0 })
	return i, i < len(b.entries) && cmp(b.entries[i].key, key) == 0
}

// put appends a row to its key's entry.
func (b *rankBuffer) put(cmp func(a, b []any) int, key, row []any) *rankEntry {
	i, ok := b.find(cmp, key)
	if !ok {
		b.entries = append(b.entries, nil)
		copy(b.entries[i+1:], b.entries[i:])
		b.entries[i] = &rankEntry{key: key}
	}
	e := b.entries[i]
	e.rows = append(e.rows, row)
	b.count++
	return e
}

// firstN is AppendOnlyFirstNFunction: the first rows of each partition.
func (o *rankOp) firstN(b *rankBuffer, row []any) {
	if b.seen >= o.spec.end {
		return
	}
	b.seen++
	if o.spec.rankNumber {
		o.emit(types.Insert, row, b.seen)
		return
	}
	if b.seen >= o.spec.start {
		o.emit(types.Insert, row, -1)
	}
}

// fastTop1 is FastTop1Function: the best row of each partition, replaced
// when a strictly better one arrives.
func (o *rankOp) fastTop1(b *rankBuffer, key, row []any) {
	if b.top == nil {
		b.top = row
		b.entries = []*rankEntry{{key: key}}
		o.emit(types.Insert, row, -1)
		return
	}
	if o.compareKeys(key, b.entries[0].key) < 0 {
		prev := b.top
		b.top = row
		b.entries[0].key = key
		o.emit(types.UpdateBefore, prev, -1)
		o.emit(types.UpdateAfter, row, -1)
	}
}

// appendTopN is AppendOnlyTopNFunction.
func (o *rankOp) appendTopN(b *rankBuffer, key, row []any) {
	// checkSortKeyInBufferRange
	if n := len(b.entries); n > 0 && o.compareKeys(key, b.entries[n-1].key) >= 0 && b.count >= o.spec.end {
		return
	}
	b.put(o.compareKeys, key, row)
	if o.spec.rankNumber {
		o.appendWithRowNumber(b, key, row)
		return
	}
	if b.count > o.spec.end {
		last := b.entries[len(b.entries)-1]
		size := len(last.rows)
		lastRow := last.rows[size-1]
		if size <= 1 {
			b.entries = b.entries[:len(b.entries)-1]
		} else {
			last.rows = last.rows[:size-1]
		}
		b.count--
		if size == 0 || sameRow(row, lastRow) {
			return
		}
		o.emit(types.Delete, lastRow, -1)
	}
	o.emit(types.Insert, row, -1)
}

func (o *rankOp) appendWithRowNumber(b *rankBuffer, key, row []any) {
	var rank int64
	found := false
	var cur []any
	i := 0
	for ; i < len(b.entries) && rank <= o.spec.end; i++ {
		e := b.entries[i]
		switch {
		case !found && o.compareKeys(e.key, key) == 0:
			rank += int64(len(e.rows))
			cur = row
			found = true
		case found:
			for j := 0; j < len(e.rows) && rank <= o.spec.end; j++ {
				prev := e.rows[j]
				o.emit(types.UpdateBefore, prev, rank)
				o.emit(types.UpdateAfter, cur, rank)
				cur = prev
				rank++
			}
		default:
			rank += int64(len(e.rows))
		}
	}
	if rank <= o.spec.end {
		o.emit(types.Insert, cur, rank)
	}
	// The sort keys past the loop are out of the Top-N.
	for _, e := range b.entries[i:] {
		b.count -= int64(len(e.rows))
	}
	b.entries = b.entries[:i]
}

// retractableAdd is RetractableTopNFunction for an accumulate row. The
// row joins its key's entry after the changes are emitted; meanwhile the
// key counts it (Flink's sorted map is updated first).
func (o *rankOp) retractableAdd(b *rankBuffer, key, row []any) {
	idx, ok := b.find(o.compareKeys, key)
	if !ok {
		b.entries = append(b.entries, nil)
		copy(b.entries[idx+1:], b.entries[idx:])
		b.entries[idx] = &rankEntry{key: key}
	}
	count := func(i int) int64 {
		n := int64(len(b.entries[i].rows))
		if i == idx {
			n++
		}
		return n
	}
	end := o.spec.end
	if o.spec.rankNumber {
		var rank int64
		found := false
		var cur []any
		for i := 0; i < len(b.entries) && rank <= end; i++ {
			switch {
			case !found && i == idx:
				rank += count(i)
				cur = row
				found = true
			case found:
				rows := b.entries[i].rows
				for j := 0; j < len(rows) && rank <= end; j++ {
					prev := rows[j]
					o.emit(types.UpdateBefore, prev, rank)
					o.emit(types.UpdateAfter, cur, rank)
					cur = prev
					rank++
				}
			default:
				rank += count(i)
			}
		}
		if rank <= end {
			o.emit(types.Insert, cur, rank)
		}
	} else {
		var rank int64
		found := false
		var collect, del []any
	loop:
		for i := 0; i < len(b.entries) && rank <= end; i++ {
			switch {
			case !found && i == idx:
				rank += count(i)
				if rank >= o.spec.start && rank <= end {
					collect = row
				}
				found = true
			case found:
				last := rank + count(i)
				if last <= end {
					rank = last
				} else {
					del = b.entries[i].rows[end-rank]
					break loop
				}
			default:
				rank += count(i)
			}
		}
		if del != nil {
			o.emit(types.Delete, del, -1)
		}
		if collect != nil {
			o.emit(types.Insert, row, -1)
		}
	}
	b.entries[idx].rows = append(b.entries[idx].rows, row)
	b.count++
}

// retractableRemove is RetractableTopNFunction for a retraction.
func (o *rankOp) retractableRemove(b *rankBuffer, key, row []any) {
	idx, ok := b.find(o.compareKeys, key)
	if !ok {
		// Retracting a row that was never added: nothing to do.
		return
	}
	end := o.spec.end
	removed := false
	if o.spec.rankNumber {
		var rank int64
		var prev []any
		for i := 0; i < len(b.entries) && rank <= end; i++ {
			e := b.entries[i]
			switch {
			case !removed && i == idx:
				for j := 0; j < len(e.rows) && rank <= end; j++ {
					cur := e.rows[j]
					if !removed && sameRow(cur, row) {
						prev = cur
						removed = true
						e.rows = append(e.rows[:j:j], e.rows[j+1:]...)
						j--
					} else if removed {
						o.emit(types.UpdateBefore, prev, rank)
						o.emit(types.UpdateAfter, cur, rank)
						prev = cur
					}
					rank++
				}
			case removed:
				for j := 0; j < len(e.rows) && rank <= end; j++ {
					cur := e.rows[j]
					o.emit(types.UpdateBefore, prev, rank)
					o.emit(types.UpdateAfter, cur, rank)
					prev = cur
					rank++
				}
			default:
				rank += int64(len(e.rows))
			}
		}
		if rank <= end && prev != nil {
			o.emit(types.Delete, prev, rank)
		}
	} else {
		next := int64(1)
	loop:
		for i := 0; i < len(b.entries) && next <= end; i++ {
			e := b.entries[i]
			switch {
			case !removed && i == idx:
				for j := 0; j < len(e.rows) && next <= end; j++ {
					cur := e.rows[j]
					if !removed && sameRow(cur, row) {
						o.emit(types.Delete, cur, next)
						next--
						removed = true
						e.rows = append(e.rows[:j:j], e.rows[j+1:]...)
						j--
					} else if removed && next == end {
						o.emit(types.Insert, cur, next)
					}
					next++
				}
			case removed:
				last := next + int64(len(e.rows)) - 1
				if last < end {
					next = last + 1
				} else {
					o.emit(types.Insert, e.rows[end-next], -1)
					break loop
				}
			default:
				next += int64(len(e.rows))
			}
		}
	}
	if !removed {
		e := b.entries[idx]
		for j, cur := range e.rows {
			if sameRow(cur, row) {
				e.rows = append(e.rows[:j:j], e.rows[j+1:]...)
				removed = true
				break
			}
		}
	}
	if removed {
		b.count--
	}
	if len(b.entries[idx].rows) == 0 {
		b.entries = append(b.entries[:idx:idx], b.entries[idx+1:]...)
	}
}

var _ Operator = (*rankOp)(nil)
