package exec

import (
	"context"
	"sync"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Two-phase aggregation. A batch aggregation over a parallel pipeline
// whose functions merge exactly (twoPhase) runs as partial aggregations,
// one per worker over the batches it pulls, and a final aggregation of
// their rows:
//
//	COUNT     -> partial COUNT, final SUM0 of the counts
//	SUM       -> partial SUM, final SUM (integers wrap, DECIMAL is exact:
//	             the same total in any order; FLOAT and DOUBLE are not,
//	             and stay serial)
//	MIN, MAX  -> the same function again (not over FLOAT or DOUBLE, whose
//	             NaN makes the answer depend on the order)
//
// Every row also carries its ordinal (the reader's batch number and the
// row's position in what the pipeline made of it), and each group the
// smallest: the groups come out in the order of their first row, as the
// serial aggregation gives them. A global aggregation (one group) needs
// no ordinal. Each partial aggregation holds a share
// of the memory budget and spills as a serial one does.

// ordinalShift places a batch number above a row's position in an
// ordinal.
const ordinalShift = 32

// twoPhase reports whether n's aggregate functions merge exactly.
func twoPhase(n *plan.Aggregate) bool {
	if n.GroupingSets != nil || len(n.Aggs) == 0 {
		return false
	}
	for _, a := range n.Aggs {
		if a.Distinct || len(a.OrderBy) > 0 || !workerSafe(a.Args...) || !workerSafe(a.Filter) {
			return false
		}
		switch a.Name {
		case "COUNT":
		case "SUM":
			switch a.T.Kind {
			case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Decimal:
			default:
				return false
			}
		case "MIN", "MAX":
			switch a.T.Kind {
			case types.Float, types.Double:
				return false
			case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Decimal, types.Boolean,
				types.Char, types.VarChar, types.Date, types.Time, types.Timestamp, types.TimestampLTZ:
			default:
				return false
			}
		default:
			return false
		}
	}
	return workerSafe(n.Group...)
}

// parallelAggOp is a two-phase aggregation over a parallel pipeline.
type parallelAggOp struct {
	b       *Builder
	n       *plan.Aggregate
	m       *morsels
	partial *plan.Aggregate    // over the pipeline's columns and the ordinal
	final   *plan.Aggregate    // over the partial rows
	rows    chan *vector.Batch // the partial rows
	out     Operator           // the serial aggregation, or the ordered final rows
}

func (b *Builder) parallelAggregate(n *plan.Aggregate, scan *plan.Scan) (Operator, error) {
	m, err := b.newMorsels(n.Input, scan)
	if err != nil {
		return nil, err
	}
	m.unordered = true
	m.free = len(n.Group) == 0
	in := n.Input.Schema()
	ordCol := &plan.ColumnRef{Index: len(in), Name: "$ordinal", T: types.New(types.BigInt).WithNullable(false)}
	partIn := append(plan.Schema{}, in...)
	if !m.free {
		partIn = append(partIn, plan.Column{Name: ordCol.Name, Type: ordCol.T})
	}
	partial := &plan.Aggregate{Input: &plan.Values{Cols: partIn}, Group: n.Group, GroupNames: n.GroupNames}
	final := &plan.Aggregate{GroupNames: n.GroupNames}
	k := len(n.Group)
	for i, g := range n.Group {
		final.Group = append(final.Group, &plan.ColumnRef{Index: i, Name: n.GroupNames[i], T: g.Type()})
	}
	for i, a := range n.Aggs {
		p := plan.AggCall{Name: a.Name, Func: a.Func, Args: a.Args, Filter: a.Filter, Alias: a.Alias, T: a.T}
		partial.Aggs = append(partial.Aggs, p)
		merge := a.Name
		if merge == "COUNT" {
			merge = "SUM0"
		}
		ref := &plan.ColumnRef{Index: k + i, Name: a.Alias, T: a.T}
		final.Aggs = append(final.Aggs, plan.AggCall{Name: merge, Args: []plan.Expr{ref}, Alias: a.Alias, T: a.T})
	}
	if !m.free {
		first := plan.AggCall{Name: "MIN", Args: []plan.Expr{ordCol}, Alias: ordCol.Name, T: ordCol.T}
		partial.Aggs = append(partial.Aggs, first)
		last := &plan.ColumnRef{Index: k + len(n.Aggs), Name: ordCol.Name, T: ordCol.T}
		final.Aggs = append(final.Aggs, plan.AggCall{Name: "MIN", Args: []plan.Expr{last}, Alias: ordCol.Name, T: ordCol.T})
	}
	final.Input = &plan.Values{Cols: partial.Schema()}
	return &parallelAggOp{b: b, n: n, m: m, partial: partial, final: final,
		rows: make(chan *vector.Batch, 2*m.n)}, nil
}

func (o *parallelAggOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		if err := o.run(ctx); err != nil {
			return nil, err
		}
	}
	return o.out.Next(ctx)
}

// run aggregates the whole input: on the workers, then the final
// aggregation of their rows, ordered by first appearance.
func (o *parallelAggOp) run(ctx context.Context) error {
	m := o.m
	if err := m.start(ctx, o.work); err != nil {
		return err
	}
	if m.serial {
		agg, err := o.b.newAggOp(o.n, m.pipes[0], false)
		if err != nil {
			return err
		}
		o.out = agg
		return nil
	}
	// The final aggregation takes the partial rows as the workers emit
	// them, and a sort by first appearance its groups: a quarter of the
	// budget each, the partial aggregations share the other half.
	go func() {
		m.wg.Wait()
		close(o.rows)
	}()
	budget := o.b.memoryBudget()
	fb := o.b.serial(budget / 4)
	fin, err := fb.newAggOp(o.final, &chanOp{ch: o.rows, m: m}, false)
	if err != nil {
		return err
	}
	if m.free {
		// One group, no order to restore.
		o.out = fin
		return nil
	}
	out, err := o.b.byOrdinal(fin, o.final.Schema(), budget/4)
	if err != nil {
		fin.Close()
		return err
	}
	o.out = out
	return nil
}

// aggShare returns the builder of one of n workers' aggregations: serial,
// within budget bytes and an nth of the group cap.
func (b *Builder) aggShare(budget int64, n int) *Builder {
	sb := b.serial(budget)
	if sb.opts.AggBudget > 0 {
		sb.opts.AggBudget = max(sb.opts.AggBudget/n, 1)
	}
	return sb
}

// work is worker w: a partial aggregation of the batches it pulls, with
// a share of the memory budget.
func (o *parallelAggOp) work(ctx context.Context, w int) error {
	m := o.m
	pb := o.b.aggShare(o.b.memoryBudget()/int64(2*m.n), m.n)
	var in Operator = &ordinalOp{pipe: m.pipes[w], v: m.views[w]}
	if m.free {
		in = m.pipes[w]
	}
	agg, err := pb.newAggOp(o.partial, in, false)
	if err != nil {
		return err
	}
	defer agg.Close()
	for {
		bt, err := agg.Next(ctx)
		if err != nil {
			return err
		}
		if bt == nil {
			return nil
		}
		if err := m.send(o.rows, bt); err != nil {
			return err
		}
	}
}

func (o *parallelAggOp) Close() error {
	err := o.m.close()
	if o.out != nil {
		if e := o.out.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// ordinalOp passes a worker pipeline's batches on with each row's ordinal
// as one more column.
type ordinalOp struct {
	pipe Operator
	v    *morselView
}

func (o *ordinalOp) Next(ctx context.Context) (*vector.Batch, error) {
	bt, err := o.pipe.Next(ctx)
	if err != nil || bt == nil {
		return nil, err
	}
	base := o.v.pending << ordinalShift
	ords := make([]int64, bt.N)
	for i := range ords {
		ords[i] = base | int64(i)
	}
	col := &vector.Vec{T: types.New(types.BigInt).WithNullable(false), Class: vector.Int, Len: bt.N, Ints: ords}
	cols := append(append(make([]*vector.Vec, 0, len(bt.Cols)+1), bt.Cols...), col)
	return (&vector.Batch{Cols: cols, Kinds: bt.Kinds, N: bt.N}).Inherit(bt), nil
}

func (o *ordinalOp) Close() error { return nil }

// Partitioned aggregation. A batch aggregation over a parallel pipeline
// whose functions do not merge exactly (a FLOAT or DOUBLE SUM, AVG, a
// DISTINCT aggregate ...) runs as one aggregation per worker, each the
// owner of the groups whose key hashes to it. A worker runs the pipeline
// over a batch it pulls and splits the batch's rows by owner; each owner
// takes its rows a batch at a time in the reader's order (running the
// pipeline over another batch while its next one is not there), so that
// every group folds its rows in the serial order (the same
// floating-point sums). The rows carry their ordinals and each group
// keeps its first: the owners' groups, each owner's already in that
// order, are merged into the order of their first rows, as the serial
// aggregation gives them (sorted instead when an owner spilled).

// minPartitioned is the least parallelism a partitioned aggregation runs
// at. Splitting the rows among the owners costs about a third more CPU
// than the serial aggregation (a GROUP BY of a million rows, engine/bench
// analytics): with two workers on two cores it was 17 to 32% slower than
// the serial aggregation over the scan's read-ahead, which overlaps the
// decoding with the aggregation; from four workers the owners share the
// extra cost among more cores.
const minPartitioned = 4

// partWindow is how many batches with rows may wait for an owner before
// it stops running the pipeline and waits for its next batch.
const partWindow = 256

// partitionable reports whether n may run as a partitioned aggregation.
func partitionable(n *plan.Aggregate) bool {
	if n.GroupingSets != nil || len(n.Group) == 0 || len(n.Aggs) == 0 {
		return false
	}
	for _, a := range n.Aggs {
		if len(a.OrderBy) > 0 || !workerSafe(a.Args...) || !workerSafe(a.Filter) {
			return false
		}
	}
	return workerSafe(n.Group...)
}

// partAggOp is a partitioned aggregation over a parallel pipeline.
type partAggOp struct {
	b      *Builder
	n      *plan.Aggregate
	m      *morsels
	part   *plan.Aggregate // n over the pipeline's columns keep and the ordinal
	keep   []int
	queues []*partQueue // per owner
	aggs   []*aggOp     // per owner
	pool   partPool
	out    Operator
}

// partQueue holds an owner's rows of each batch until it takes them.
type partQueue struct {
	mu     sync.Mutex
	ready  map[int64]*partRows // by batch number; nil: no rows for the owner
	next   int64               // the next batch number the owner takes
	queued int                 // batches with rows waiting
	wake   chan struct{}       // signalled when the batch next arrives or the input ends
}

// partRows is an owner's rows of a batch, and the buffers of its columns
// that go back to the pool once the owner consumed them.
type partRows struct {
	b      *vector.Batch
	ints   [][]int64
	floats [][]float64
}

// partPool keeps the column buffers of consumed rows for the next
// batches, so that splitting writes to memory in cache.
type partPool struct {
	mu     sync.Mutex
	ints   [][]int64
	floats [][]float64
}

const partPoolMax = 512

func (p *partPool) getInts(n int) []int64 {
	p.mu.Lock()
	if k := len(p.ints); k > 0 && cap(p.ints[k-1]) >= n {
		b := p.ints[k-1]
		p.ints = p.ints[:k-1]
		p.mu.Unlock()
		return b[:n]
	}
	p.mu.Unlock()
	return make([]int64, n, max(n, vector.BatchSize))
}

func (p *partPool) getFloats(n int) []float64 {
	p.mu.Lock()
	if k := len(p.floats); k > 0 && cap(p.floats[k-1]) >= n {
		b := p.floats[k-1]
		p.floats = p.floats[:k-1]
		p.mu.Unlock()
		return b[:n]
	}
	p.mu.Unlock()
	return make([]float64, n, max(n, vector.BatchSize))
}

func (p *partPool) put(r *partRows) {
	p.mu.Lock()
	for _, b := range r.ints {
		if len(p.ints) < partPoolMax && cap(b) >= vector.BatchSize {
			p.ints = append(p.ints, b)
		}
	}
	for _, b := range r.floats {
		if len(p.floats) < partPoolMax && cap(b) >= vector.BatchSize {
			p.floats = append(p.floats, b)
		}
	}
	p.mu.Unlock()
}

// put records the owner's rows of batch seq (nil: none).
func (q *partQueue) put(seq int64, b *partRows) {
	q.mu.Lock()
	q.ready[seq] = b
	if b != nil {
		q.queued++
	}
	next := seq == q.next
	q.mu.Unlock()
	if next {
		q.signal()
	}
}

func (q *partQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take returns the owner's rows of its next batch, skipping batches
// without any; ok is false when that batch has not arrived; backlog is
// how many batches with rows wait.
func (q *partQueue) take() (b *partRows, ok bool, backlog int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		b, ok := q.ready[q.next]
		if !ok {
			return nil, false, q.queued
		}
		delete(q.ready, q.next)
		q.next++
		if b != nil {
			q.queued--
			return b, true, q.queued
		}
	}
}

func (b *Builder) partitionedAggregate(n *plan.Aggregate, scan *plan.Scan) (Operator, error) {
	m, err := b.newMorsels(n.Input, scan)
	if err != nil {
		return nil, err
	}
	m.unordered = true
	// The owners get the columns the aggregation reads, and the ordinal.
	in := n.Input.Schema()
	used := make([]bool, len(in))
	plan.UsedColumns(used, n.Group...)
	for _, a := range n.Aggs {
		plan.UsedColumns(used, a.Args...)
		plan.UsedColumns(used, a.Filter)
	}
	var keep []int
	remap := make([]int, len(in))
	var cols plan.Schema
	for i, u := range used {
		if u {
			remap[i] = len(keep)
			keep = append(keep, i)
			cols = append(cols, in[i])
		}
	}
	cols = append(cols, plan.Column{Name: "$ordinal", Type: types.New(types.BigInt).WithNullable(false)})
	part := *n
	part.Input = &plan.Values{Cols: cols}
	part.Group = make([]plan.Expr, len(n.Group))
	for i, g := range n.Group {
		part.Group[i] = plan.RemapColumns(g, remap)
	}
	part.Aggs = make([]plan.AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		a.Args = append([]plan.Expr(nil), a.Args...)
		for j, x := range a.Args {
			a.Args[j] = plan.RemapColumns(x, remap)
		}
		a.Filter = plan.RemapColumns(a.Filter, remap)
		part.Aggs[i] = a
	}
	o := &partAggOp{b: b, n: n, m: m, part: &part, keep: keep}
	for range m.n {
		o.queues = append(o.queues, &partQueue{ready: map[int64]*partRows{}, wake: make(chan struct{}, 1)})
	}
	m.skip = func(seq int64) {
		for _, q := range o.queues {
			q.put(seq, nil)
		}
	}
	return o, nil
}

func (o *partAggOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		if err := o.run(ctx); err != nil {
			return nil, err
		}
	}
	return o.out.Next(ctx)
}

// run aggregates the whole input on the owners and readies the groups in
// the order of their first rows.
func (o *partAggOp) run(ctx context.Context) error {
	m := o.m
	// The owners are built first: a failure leaves no goroutine behind.
	budget := o.b.memoryBudget()
	for w := range m.n {
		pb := o.b.aggShare(budget*3/int64(4*m.n), m.n)
		keys, err := pb.compileAll(o.n.Group)
		if err != nil {
			return err
		}
		in := &partInOp{o: o, w: w, keys: keys, sel: make([][]int, m.n)}
		agg, err := pb.newAggOp(o.part, in, false)
		if err != nil {
			return err
		}
		agg.firsts = true
		o.aggs = append(o.aggs, agg)
	}
	spilled := make([]bool, m.n)
	err := m.start(ctx, func(ctx context.Context, w int) error {
		s, err := o.aggs[w].consumeAll(ctx)
		spilled[w] = s
		return err
	})
	if err != nil {
		return err
	}
	if m.serial {
		agg, err := o.b.newAggOp(o.n, m.pipes[0], false)
		if err != nil {
			return err
		}
		o.out = agg
		return nil
	}
	m.wg.Wait()
	if err := m.error(); err != nil {
		return err
	}
	for _, s := range spilled {
		if s {
			// Some groups wait in spill partitions: all of them through a
			// sort by first row, which spills past its budget.
			cols := append(o.n.Schema(), plan.Column{Name: "$first", Type: types.New(types.BigInt).WithNullable(false)})
			out, err := o.b.byOrdinal(&chainOp{ins: o.aggs}, cols, max(budget/4, 1))
			if err != nil {
				return err
			}
			o.out = out
			return nil
		}
	}
	o.out = mergeFirsts(o.aggs)
	return nil
}

// mergeFirsts returns the groups of the owners (each readied in memory,
// its last column its groups' first ordinals in ascending order) in the
// order of their first rows, without that column.
func mergeFirsts(aggs []*aggOp) Operator {
	var all *vector.Batch
	offs := make([]int, len(aggs)+1)
	for i, a := range aggs {
		b := a.out.b
		if all == nil {
			all = vector.NewBatch(b.Types(), 0)
		}
		all.AppendBatch(b)
		offs[i+1] = offs[i] + b.N
	}
	firsts := all.Cols[len(all.Cols)-1].Ints
	sel := make([]int, 0, all.N)
	pos := append([]int(nil), offs[:len(aggs)]...)
	for len(sel) < all.N {
		best := -1
		for i := range aggs {
			if pos[i] < offs[i+1] && (best < 0 || firsts[pos[i]] < firsts[pos[best]]) {
				best = i
			}
		}
		sel = append(sel, pos[best])
		pos[best]++
	}
	all.Cols = all.Cols[:len(all.Cols)-1]
	return &selOp{b: all, sel: sel}
}

// selOp returns the rows sel of a batch, in that order.
type selOp struct {
	b   *vector.Batch
	sel []int
}

func (s *selOp) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(s.sel) == 0 {
		return nil, nil
	}
	k := min(len(s.sel), vector.BatchSize)
	out := s.b.Gather(s.sel[:k])
	s.sel = s.sel[k:]
	return out, nil
}

func (s *selOp) Close() error { return nil }

// chainOp returns the rows of its inputs, one after the other.
type chainOp struct{ ins []*aggOp }

func (c *chainOp) Next(ctx context.Context) (*vector.Batch, error) {
	for len(c.ins) > 0 {
		b, err := c.ins[0].Next(ctx)
		if err != nil || b != nil {
			return b, err
		}
		c.ins = c.ins[1:]
	}
	return nil, nil
}

func (c *chainOp) Close() error { return nil }

// partInOp is owner w's input, on worker w: its rows of each batch, in
// the reader's order. While its next batch has not arrived it runs its
// pipeline over another batch and splits its rows among the owners.
type partInOp struct {
	o     *partAggOp
	w     int
	keys  []evaluator
	sel   [][]int
	last  *partRows // the rows returned last
	owner []uint8
	pos   []int
	buf   []byte
	ended bool // the reader ended
}

func (in *partInOp) Next(ctx context.Context) (*vector.Batch, error) {
	m := in.o.m
	q := in.o.queues[in.w]
	if in.last != nil {
		// The aggregation is done with the rows it took last.
		in.o.pool.put(in.last)
		in.last = nil
	}
	for {
		r, ok, backlog := q.take()
		if ok {
			in.last = r
			return r.b, nil
		}
		if !in.ended && backlog < partWindow {
			if err := in.split(ctx); err != nil {
				return nil, err
			}
			continue
		}
		m.mu.Lock()
		total, err := m.total, m.err
		m.mu.Unlock()
		if err != nil {
			return nil, err
		}
		q.mu.Lock()
		done := total >= 0 && q.next >= total
		q.mu.Unlock()
		if done {
			return nil, nil
		}
		select {
		case <-q.wake:
		case <-ctx.Done():
			if err := m.error(); err != nil {
				return nil, err
			}
			return nil, ctx.Err()
		}
	}
}

// split runs the pipeline over one batch and gives each owner its rows.
func (in *partInOp) split(ctx context.Context) error {
	o, m := in.o, in.o.m
	v := m.views[in.w]
	bt, err := m.pipes[in.w].Next(ctx)
	if err != nil {
		return err
	}
	if bt == nil {
		// The reader ended (m.total is set): the owners waiting may be
		// done.
		in.ended = true
		for _, q := range o.queues {
			q.signal()
		}
		return nil
	}
	seq := v.pending
	v.pending = -1
	kv, err := evalAll(ctx, in.keys, bt)
	if err != nil {
		return err
	}
	n := bt.N
	in.owner, in.buf = owners(kv, n, m.n, in.owner, in.buf)
	// The rows of each owner, then each column gathered by position.
	sel := in.sel
	for p := range sel {
		if cap(sel[p]) < n {
			sel[p] = make([]int, n)
		}
		sel[p] = sel[p][:n]
	}
	pos := in.pos[:0]
	for range m.n {
		pos = append(pos, 0)
	}
	in.pos = pos
	if m.n == 2 {
		// Both positions written, the counts kept in registers: no branch
		// and no count in memory per row.
		s0, s1 := sel[0][:n], sel[1][:n]
		i0, i1 := 0, 0
		for row, p := range in.owner[:n] {
			s0[i0] = row
			s1[i1] = row
			i0 += 1 - int(p)
			i1 += int(p)
		}
		pos[0], pos[1] = i0, i1
	} else {
		for row, p := range in.owner[:n] {
			sel[p][pos[p]] = row
			pos[p]++
		}
	}
	ordT := types.New(types.BigInt).WithNullable(false)
	base := seq << ordinalShift
	for p := range sel {
		rows := sel[p][:pos[p]]
		if len(rows) == 0 {
			o.queues[p].put(seq, nil)
			continue
		}
		r := &partRows{b: &vector.Batch{Cols: make([]*vector.Vec, 0, len(o.keep)+1), N: len(rows)}}
		for _, c := range o.keep {
			src := bt.Cols[c]
			switch {
			case len(rows) == n:
				r.b.Cols = append(r.b.Cols, src)
			case src.Class == vector.Int && !src.HasNulls():
				dst := o.pool.getInts(len(rows))
				for j, i := range rows {
					dst[j] = src.Ints[i]
				}
				r.ints = append(r.ints, dst)
				r.b.Cols = append(r.b.Cols, &vector.Vec{T: src.T, Class: vector.Int, Len: len(rows), Ints: dst})
			case src.Class == vector.Float && !src.HasNulls():
				dst := o.pool.getFloats(len(rows))
				for j, i := range rows {
					dst[j] = src.Floats[i]
				}
				r.floats = append(r.floats, dst)
				r.b.Cols = append(r.b.Cols, &vector.Vec{T: src.T, Class: vector.Float, Len: len(rows), Floats: dst})
			default:
				r.b.Cols = append(r.b.Cols, gatherVec(src, rows))
			}
		}
		ords := o.pool.getInts(len(rows))
		for j, row := range rows {
			ords[j] = base | int64(row)
		}
		r.ints = append(r.ints, ords)
		r.b.Cols = append(r.b.Cols, &vector.Vec{T: ordT, Class: vector.Int, Len: len(rows), Ints: ords})
		if bt.Kinds != nil {
			r.b.Kinds = make([]types.RowKind, len(rows))
			for j, row := range rows {
				r.b.Kinds[j] = bt.Kinds[row]
			}
		}
		o.queues[p].put(seq, r)
	}
	return nil
}

func (in *partInOp) Close() error { return nil }

// owners sets owner[row] to the owner (of parts) of each row's group:
// a hash of its key, the same for keys the aggregation finds equal.
func owners(kv []*vector.Vec, n, parts int, owner []uint8, buf []byte) ([]uint8, []byte) {
	if cap(owner) < n {
		owner = make([]uint8, n)
	}
	owner = owner[:n]
	pick := func(h uint64) uint8 {
		h ^= h >> 33
		h *= 0xff51afd7ed558ccd
		h ^= h >> 33
		h *= 0xc4ceb9fe1a85ec53
		h ^= h >> 33
		return uint8((h >> 32) * uint64(parts) >> 32)
	}
	if len(kv) == 1 && kv[0].Class == vector.Int && !kv[0].HasNulls() {
		// The high bits of a Fibonacci hash (a spill partition takes
		// bits 40 to 55 of the same product).
		for row, x := range kv[0].Ints[:n] {
			owner[row] = uint8((uint64(x) * 0x9E3779B97F4A7C15 >> 32) * uint64(parts) >> 32)
		}
		return owner, buf
	}
	for row := range n {
		buf = buf[:0]
		for _, v := range kv {
			buf = vector.AppendKey(buf, v, row)
		}
		owner[row] = pick(hashBytes(buf))
	}
	return owner, buf
}

// gatherVec returns the values of v at the positions sel.
func gatherVec(v *vector.Vec, sel []int) *vector.Vec {
	if v.HasNulls() || v.Class != vector.String {
		return v.Gather(sel)
	}
	strs := make([]string, len(sel))
	for j, i := range sel {
		strs[j] = v.Strs[i]
	}
	return &vector.Vec{T: v.T, Class: vector.String, Len: len(sel), Strs: strs}
}

func (o *partAggOp) Close() error {
	err := o.m.close()
	for _, a := range o.aggs {
		if e := a.Close(); e != nil && err == nil {
			err = e
		}
	}
	if o.out != nil {
		if e := o.out.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}
