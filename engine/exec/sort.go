package exec

import (
	"context"
	"errors"
	"sort"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// sort orders its whole input. With keep > 0 (a Top-N: ORDER BY ...
// LIMIT k) it never holds much more than keep rows: whenever the buffer
// grows past twice keep it is sorted and cut back.
//
// A full sort over a parallel pipeline sorts on the workers; a Top-N
// stays on one: its work per row is one comparison with the k-th row,
// which the workers' wider rows (keys and ordinal) and the final merge
// made cost about twice the CPU for no gain in time (engine/exec's
// BenchmarkParallel, the bench's ORDER BY ... LIMIT workloads).
func (b *Builder) sort(n *plan.Sort, keep int64) (Operator, error) {
	if scan, _, ok := b.parallelPipeline(n.Input); ok && keep == 0 && parallelSortable(n) {
		return b.parallelSort(n, scan, keep)
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	return b.newSortOp(n, in, keep)
}

// newSortOp returns the sort of n over in.
func (b *Builder) newSortOp(n *plan.Sort, in Operator, keep int64) (*sortOp, error) {
	keys := make([]plan.Expr, len(n.Keys))
	for i, k := range n.Keys {
		keys[i] = k.Expr
	}
	evs, err := b.compileAll(keys)
	if err != nil {
		in.Close()
		return nil, err
	}
	// Sorting gathers the buffer into a sorted copy, and the batches
	// arriving from the input and leaving for the output live next to
	// both: a third of the budget for the buffer keeps the whole sort
	// within it.
	return &sortOp{in: in, keys: n.Keys, evs: evs, keep: keep, types: schemaTypes(n.Schema()),
		budget: b.opts.SortBudget, memBudget: b.memoryBudget() / 3}, nil
}

type sortOp struct {
	in     Operator
	keys   []plan.SortKey
	evs    []evaluator
	keep   int64
	types  []*types.Type
	budget int // rows before a spill (0: no row cap)
	// memBudget is the bytes of buffered rows and keys before a spill.
	memBudget int64
	out       Operator
	runs      []*runFile
}

func (o *sortOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		rows, keys, err := o.run(ctx)
		if err != nil {
			return nil, err
		}
		if len(o.runs) == 0 {
			o.out = &sliceOp{b: rows}
		} else {
			m, err := newMergeOp(o, rows, keys)
			if err != nil {
				return nil, err
			}
			o.out = m
		}
	}
	return o.out.Next(ctx)
}

// spill writes the sorted buffer as a run file.
func (o *sortOp) spill(rows, keys *vector.Batch) error {
	cols := append(append([]*vector.Vec{}, keys.Cols...), rows.Cols...)
	rf, err := writeRun(cols, rows.N)
	if err != nil {
		return err
	}
	o.runs = append(o.runs, rf)
	return nil
}

func (o *sortOp) run(ctx context.Context) (*vector.Batch, *vector.Batch, error) {
	keyTypes := make([]*types.Type, len(o.keys))
	for i, k := range o.keys {
		keyTypes[i] = k.Expr.Type()
	}
	canSpill := o.keep <= 0 && spillable(keyTypes) && spillable(o.types)
	rows := vector.NewBatch(o.types, vector.BatchSize)
	keys := vector.NewBatch(keyTypes, vector.BatchSize)
	var held int64        // estimated bytes of rows and keys
	var cut *vector.Batch // a Top-N's worst kept key row after a cut
	var sel []int
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		bt, err := o.in.Next(ctx)
		if err != nil {
			return nil, nil, err
		}
		if bt == nil {
			break
		}
		// The buffers below take copies of the rows: the input batch is
		// released once they have them.
		in := bt
		kb := &vector.Batch{Cols: make([]*vector.Vec, len(o.evs)), N: bt.N}
		for i, ev := range o.evs {
			v, err := ev(ctx, bt)
			if err != nil {
				return nil, nil, err
			}
			kb.Cols[i] = v
		}
		if cut != nil {
			// A Top-N drops at once every row that cannot beat the last
			// row kept by the previous cut (a tie loses: the sort is
			// stable and the kept row came first).
			sel = beatCut(o.keys, kb.Cols, bt.N, cut.Cols, sel[:0])
			if len(sel) == 0 {
				in.Release()
				continue
			}
			if len(sel) < bt.N {
				bt, kb = bt.Gather(sel), kb.Gather(sel)
			}
		}
		rows.AppendBatch(bt)
		keys.AppendBatch(kb)
		held += batchBytes(bt) + batchBytes(kb) + 8*int64(bt.N)
		in.Release()
		switch {
		case o.keep > 0 && int64(rows.N) > 2*o.keep+vector.BatchSize:
			rows, keys = o.order(rows, keys, o.keep)
			cut = keys.Gather([]int{keys.N - 1})
		case canSpill && (o.budget > 0 && rows.N >= o.budget || held >= o.memBudget):
			held = 0
			rows, keys = o.order(rows, keys, 0)
			if err := o.spill(rows, keys); err != nil {
				return nil, nil, err
			}
			rows = vector.NewBatch(o.types, vector.BatchSize)
			keys = vector.NewBatch(keyTypes, vector.BatchSize)
		}
	}
	rows, keys = o.order(rows, keys, o.keep)
	return rows, keys, nil
}

// order sorts rows by keys (stable) and keeps the first keep rows (all
// when keep <= 0).
func (o *sortOp) order(rows, keys *vector.Batch, keep int64) (*vector.Batch, *vector.Batch) {
	idx := make([]int, rows.N)
	for i := range idx {
		idx[i] = i
	}
	cmp := rowComparator(o.keys, keys.Cols)
	sort.SliceStable(idx, func(x, y int) bool {
		return cmp(idx[x], idx[y]) < 0
	})
	if keep > 0 && int64(len(idx)) > keep {
		idx = idx[:keep]
	}
	return rows.Gather(idx), keys.Gather(idx)
}

// compareKeys orders rows i and j of the key columns by the sort keys.
func compareKeys(keys []plan.SortKey, cols []*vector.Vec, i, j int) int {
	return compareKeyRows(keys, cols, i, cols, j)
}

// compareKeyRows orders row i of the key columns a and row j of the key
// columns b by the sort keys.
func compareKeyRows(keys []plan.SortKey, a []*vector.Vec, i int, b []*vector.Vec, j int) int {
	for k, key := range keys {
		v, w := a[k], b[k]
		ni, nj := v.IsNull(i), w.IsNull(j)
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
		c = vector.Compare(v, i, w, j)
		if key.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func (o *sortOp) Close() error {
	err := o.in.Close()
	for _, r := range o.runs {
		err = errors.Join(err, r.Close())
	}
	o.runs = nil
	return err
}

// mergeOp merges the sorted runs on disk and the last sorted buffer in
// memory.
type mergeOp struct {
	o       *sortOp
	sources []*mergeSource
	nKeys   int
}

// mergeSource is one sorted input of the merge: its current batch of key
// columns followed by row columns, and the position in it.
type mergeSource struct {
	run *runFile // nil for the in-memory buffer
	b   *vector.Batch
	pos int
}

func newMergeOp(o *sortOp, rows, keys *vector.Batch) (*mergeOp, error) {
	m := &mergeOp{o: o, nKeys: len(keys.Cols)}
	for _, r := range o.runs {
		b, err := r.readBatch(vector.BatchSize)
		if err != nil {
			return nil, err
		}
		if b != nil {
			m.sources = append(m.sources, &mergeSource{run: r, b: b})
		}
	}
	if rows.N > 0 {
		mem := &vector.Batch{Cols: append(append([]*vector.Vec{}, keys.Cols...), rows.Cols...), N: rows.N}
		m.sources = append(m.sources, &mergeSource{b: mem})
	}
	return m, nil
}

func (m *mergeOp) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := vector.NewBatch(m.o.types, vector.BatchSize)
	for out.N < vector.BatchSize && len(m.sources) > 0 {
		// The sources are few: a linear scan finds the smallest head;
		// ties go to the earlier source, which keeps the sort stable.
		best := 0
		for i := 1; i < len(m.sources); i++ {
			a, b := m.sources[i], m.sources[best]
			if compareKeysAcross(m.o.keys, a.b.Cols, a.pos, b.b.Cols, b.pos) < 0 {
				best = i
			}
		}
		src := m.sources[best]
		for c := range out.Cols {
			out.Cols[c].AppendFrom(src.b.Cols[m.nKeys+c], src.pos)
		}
		out.N++
		src.pos++
		if src.pos >= src.b.N {
			var next *vector.Batch
			if src.run != nil {
				b, err := src.run.readBatch(vector.BatchSize)
				if err != nil {
					return nil, err
				}
				next = b
			}
			if next == nil {
				m.sources = append(m.sources[:best], m.sources[best+1:]...)
			} else {
				src.b, src.pos = next, 0
			}
		}
	}
	if out.N == 0 {
		return nil, nil
	}
	return out, nil
}

func (m *mergeOp) Close() error { return nil }

// compareKeysAcross orders row i of the key columns a and row j of b.
func compareKeysAcross(keys []plan.SortKey, a []*vector.Vec, i int, b []*vector.Vec, j int) int {
	for k, key := range keys {
		ni, nj := a[k].IsNull(i), b[k].IsNull(j)
		switch {
		case ni && nj:
			continue
		case ni != nj:
			if ni == key.NullsFirst {
				return -1
			}
			return 1
		}
		c := vector.Compare(a[k], i, b[k], j)
		if key.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// beatCut appends to sel the rows of the key columns cols (n rows) that
// order strictly before the single key row cut. Most rows of a Top-N's
// input lose on the first key alone: when that key is a number column
// without NULLs and the cut's first key is not NULL, it is compared
// directly, and only its ties go on to the other keys.
func beatCut(keys []plan.SortKey, cols []*vector.Vec, n int, cut []*vector.Vec, sel []int) []int {
	v, c := cols[0], cut[0]
	if v.HasNulls() || c.IsNull(0) || v.Class != c.Class || (v.Class != vector.Int && v.Class != vector.Float) {
		for i := range n {
			if compareKeyRows(keys, cols, i, cut, 0) < 0 {
				sel = append(sel, i)
			}
		}
		return sel
	}
	// tie compares a row whose first key equals the cut's on the rest.
	tie := func(i int) bool { return compareKeyRows(keys[1:], cols[1:], i, cut[1:], 0) < 0 }
	sign := 1
	if keys[0].Desc {
		sign = -1
	}
	if v.Class == vector.Int {
		y := c.Ints[0]
		for i, a := range v.Ints[:n] {
			if r := sign * compareInt(a, y); r < 0 || r == 0 && tie(i) {
				sel = append(sel, i)
			}
		}
		return sel
	}
	y := c.Floats[0]
	for i, a := range v.Floats[:n] {
		if r := sign * vector.CompareFloat(a, y); r < 0 || r == 0 && tie(i) {
			sel = append(sel, i)
		}
	}
	return sel
}
