package exec

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Parallel sort. A batch sort (or Top-N) over a parallel pipeline sorts
// on the workers: each worker's rows, with their sort key values and
// their ordinal (the reader's batch number and the row's position, see
// parallelagg.go) as a last ascending key, go through a sort of its own
// (with its share of the memory budget, spilling runs as a serial sort
// does; a Top-N keeps its first rows only), and the consumer merges the
// workers' sorted outputs. The ordinal makes every key unique and gives
// ties the order of the input, which is the serial sort's (it is
// stable): the merged rows are the serial sort's rows in its order.

// parallelSortable reports whether every worker may compute n's keys.
func parallelSortable(n *plan.Sort) bool {
	for _, k := range n.Keys {
		if !workerSafe(k.Expr) {
			return false
		}
	}
	return len(n.Keys) > 0
}

// parallelSortOp sorts a parallel pipeline's rows on its workers.
type parallelSortOp struct {
	b     *Builder
	n     *plan.Sort
	m     *morsels
	keep  int64
	width int             // the input's columns
	wide  *plan.Sort      // a worker's sort: over the input, key and ordinal columns
	sorts []*sortOp       // per worker
	heads []*vector.Batch // per worker: its current sorted batch
	pos   []int           // per worker: the position in it
	keyAt int             // the first key column of a worker's rows
	keys  []plan.SortKey  // over the key columns (and the ordinal)
	types []*types.Type   // the input's column types
	out   Operator        // the serial sort, when the reader is not shared
	done  bool
	// emitted counts the merged rows, of which a Top-N returns keep.
	emitted int64
}

func (b *Builder) parallelSort(n *plan.Sort, scan *plan.Scan, keep int64) (Operator, error) {
	m, err := b.newMorsels(n.Input, scan)
	if err != nil {
		return nil, err
	}
	m.unordered = true
	in := n.Input.Schema()
	cols := append(plan.Schema{}, in...)
	var wideKeys, mergeKeys []plan.SortKey
	for i, k := range n.Keys {
		t := k.Expr.Type()
		cols = append(cols, plan.Column{Name: "$key", Type: t})
		wideKeys = append(wideKeys, plan.SortKey{Expr: &plan.ColumnRef{Index: len(in) + i, T: t}, Desc: k.Desc, NullsFirst: k.NullsFirst})
		mergeKeys = append(mergeKeys, plan.SortKey{Expr: &plan.ColumnRef{Index: i, T: t}, Desc: k.Desc, NullsFirst: k.NullsFirst})
	}
	ordT := types.New(types.BigInt).WithNullable(false)
	cols = append(cols, plan.Column{Name: "$ordinal", Type: ordT})
	wideKeys = append(wideKeys, plan.SortKey{Expr: &plan.ColumnRef{Index: len(cols) - 1, T: ordT}})
	mergeKeys = append(mergeKeys, plan.SortKey{Expr: &plan.ColumnRef{Index: len(n.Keys), T: ordT}})
	wide := &plan.Sort{Input: &plan.Values{Cols: cols}, Keys: wideKeys}
	return &parallelSortOp{b: b, n: n, m: m, keep: keep, width: len(in), wide: wide, keyAt: len(in),
		keys: mergeKeys, types: in.Types(), sorts: make([]*sortOp, m.n), heads: make([]*vector.Batch, m.n),
		pos: make([]int, m.n)}, nil
}

func (o *parallelSortOp) Next(ctx context.Context) (*vector.Batch, error) {
	m := o.m
	if !m.started {
		if err := m.start(ctx, o.work); err != nil {
			return nil, err
		}
		if m.serial {
			s, err := o.b.newSortOp(o.n, m.pipes[0], o.keep)
			if err != nil {
				return nil, err
			}
			o.out = s
		} else {
			m.wg.Wait()
			m.mu.Lock()
			err := m.err
			m.mu.Unlock()
			if err != nil {
				return nil, err
			}
		}
	}
	if o.out != nil {
		return o.out.Next(ctx)
	}
	return o.merge(ctx)
}

// work is worker w: its rows, with their keys and ordinals, sorted by a
// sort of its own, whose first sorted batch it takes.
func (o *parallelSortOp) work(ctx context.Context, w int) error {
	m := o.m
	wb := o.b.serial(o.b.memoryBudget() / int64(m.n))
	if wb.opts.SortBudget > 0 {
		wb.opts.SortBudget = max(wb.opts.SortBudget/m.n, 1)
	}
	keyEvs := make([]evaluator, len(o.n.Keys))
	for i, k := range o.n.Keys {
		ev, err := wb.compile(k.Expr)
		if err != nil {
			return err
		}
		keyEvs[i] = ev
	}
	in := &keyedOp{in: &ordinalOp{pipe: m.pipes[w], v: m.views[w]}, evs: keyEvs, width: o.width}
	s, err := wb.newSortOp(o.wide, in, o.keep)
	if err != nil {
		return err
	}
	o.sorts[w] = s
	b, err := s.Next(ctx)
	if err != nil {
		return err
	}
	o.heads[w] = b
	return nil
}

// merge returns the next rows of the workers' sorted outputs in key and
// ordinal order (at most keep rows for a Top-N).
func (o *parallelSortOp) merge(ctx context.Context) (*vector.Batch, error) {
	if o.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := vector.NewBatch(o.types, vector.BatchSize)
	for out.N < vector.BatchSize {
		if o.keep > 0 && o.emitted >= o.keep {
			o.done = true
			break
		}
		best := -1
		for w, h := range o.heads {
			if h == nil {
				continue
			}
			if best < 0 || compareKeysAcross(o.keys, h.Cols[o.keyAt:], o.pos[w], o.heads[best].Cols[o.keyAt:], o.pos[best]) < 0 {
				best = w
			}
		}
		if best < 0 {
			o.done = true
			break
		}
		h := o.heads[best]
		for c := range out.Cols {
			out.Cols[c].AppendFrom(h.Cols[c], o.pos[best])
		}
		out.N++
		o.emitted++
		o.pos[best]++
		if o.pos[best] >= h.N {
			next, err := o.sorts[best].Next(ctx)
			if err != nil {
				return nil, err
			}
			o.heads[best], o.pos[best] = next, 0
		}
	}
	if out.N == 0 {
		return nil, nil
	}
	return out, nil
}

func (o *parallelSortOp) Close() error {
	err := o.m.close()
	for _, s := range o.sorts {
		if s != nil {
			if e := s.Close(); e != nil && err == nil {
				err = e
			}
		}
	}
	if o.out != nil {
		if e := o.out.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// keyedOp passes its input's batches on with the values of evs after the
// first width columns (the ordinal column stays last).
type keyedOp struct {
	in    Operator
	evs   []evaluator
	width int
}

func (o *keyedOp) Next(ctx context.Context) (*vector.Batch, error) {
	bt, err := o.in.Next(ctx)
	if err != nil || bt == nil {
		return nil, err
	}
	cols := make([]*vector.Vec, 0, len(bt.Cols)+len(o.evs))
	cols = append(cols, bt.Cols[:o.width]...)
	row := &vector.Batch{Cols: bt.Cols[:o.width], Kinds: bt.Kinds, N: bt.N}
	for _, ev := range o.evs {
		v, err := ev(ctx, row)
		if err != nil {
			return nil, err
		}
		cols = append(cols, v)
	}
	cols = append(cols, bt.Cols[o.width])
	return (&vector.Batch{Cols: cols, Kinds: bt.Kinds, N: bt.N}).Inherit(bt), nil
}

func (o *keyedOp) Close() error { return o.in.Close() }

// sortGroups sorts each group of row positions by cmp, a total order (a
// window's keys with the position last), on up to workers goroutines: the
// groups are taken one at a time, and a group holding most of the rows is
// cut into one run per worker, sorted on each and merged. A total order
// has one sorted result, so the rows are the serial sort's. lead, when
// not nil, is cmp's first key (leadKeyOf): a group is sorted with it
// beside each position, and cmp decides only its ties.
func sortGroups(ctx context.Context, groups [][]int, cmp func(x, y int) int, lead *leadKey, workers int) error {
	total := 0
	for _, g := range groups {
		total += len(g)
	}
	if workers <= 1 || total < parallelSortMin {
		var scratch []keyedRow
		for _, g := range groups {
			if err := ctx.Err(); err != nil {
				return err
			}
			scratch = sortGroup(g, cmp, lead, scratch)
		}
		return nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch []keyedRow
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(groups) {
					return
				}
				g := groups[i]
				if len(g) > total/2 {
					sortRuns(g, cmp, workers)
				} else {
					scratch = sortGroup(g, cmp, lead, scratch)
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// leadKey is the first key of a sort when it is a column of integers or
// doubles without NULLs: each row's value maps to an unsigned integer
// whose order is the key's (descending included), so that a sort
// compares most pairs of rows without reading the column.
type leadKey struct {
	ints   []int64
	floats []float64
	desc   bool
}

// leadKeyOf returns the first of the sort keys (evaluated as cols) when
// it can lead a sort, else nil.
func leadKeyOf(keys []plan.SortKey, cols []*vector.Vec) *leadKey {
	if len(keys) == 0 || len(cols) == 0 || cols[0].HasNulls() {
		return nil
	}
	switch v := cols[0]; v.Class {
	case vector.Int:
		return &leadKey{ints: v.Ints, desc: keys[0].Desc}
	case vector.Float:
		return &leadKey{floats: v.Floats, desc: keys[0].Desc}
	}
	return nil
}

// key returns row i's value as an unsigned integer in the key's order:
// integers with the sign bit flipped; doubles by their bits, negative
// ones inverted, with -0 as 0 and every NaN above every number, as
// vector.CompareFloat orders them; all inverted for a descending key.
func (l *leadKey) key(i int) uint64 {
	var k uint64
	if l.ints != nil {
		k = uint64(l.ints[i]) ^ 1<<63
	} else {
		f := l.floats[i]
		switch {
		case f != f:
			k = math.MaxUint64
		case f == 0:
			k = 1 << 63
		default:
			b := math.Float64bits(f)
			if b>>63 == 1 {
				k = ^b
			} else {
				k = b | 1<<63
			}
		}
	}
	if l.desc {
		k = ^k
	}
	return k
}

// keyedRow is a row position beside its lead key.
type keyedRow struct {
	k uint64
	i int
}

// sortGroup sorts the row positions g by cmp, with the lead key beside
// each when there is one, in scratch (returned for the next group).
func sortGroup(g []int, cmp func(x, y int) int, lead *leadKey, scratch []keyedRow) []keyedRow {
	if lead == nil || len(g) < 2 {
		slices.SortFunc(g, cmp)
		return scratch
	}
	rows := scratch[:0]
	for _, i := range g {
		rows = append(rows, keyedRow{k: lead.key(i), i: i})
	}
	slices.SortFunc(rows, func(a, b keyedRow) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return cmp(a.i, b.i)
	})
	for j, r := range rows {
		g[j] = r.i
	}
	return rows
}

// parallelSortMin is the rows below which sortGroups sorts on the
// calling goroutine.
const parallelSortMin = 1 << 14

// sortRuns sorts g by cmp as n runs sorted at the same time and merged.
func sortRuns(g []int, cmp func(x, y int) int, n int) {
	size := (len(g) + n - 1) / n
	var runs [][]int
	for lo := 0; lo < len(g); lo += size {
		runs = append(runs, g[lo:min(lo+size, len(g))])
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slices.SortFunc(r, cmp)
		}()
	}
	wg.Wait()
	merged := make([]int, 0, len(g))
	pos := make([]int, len(runs))
	for len(merged) < len(g) {
		best := -1
		for k, r := range runs {
			if pos[k] < len(r) && (best < 0 || cmp(r[pos[k]], runs[best][pos[best]]) < 0) {
				best = k
			}
		}
		merged = append(merged, runs[best][pos[best]])
		pos[best]++
	}
	copy(g, merged)
}
