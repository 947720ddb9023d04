package exec

import (
	"container/heap"
	"context"
	"sort"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// matchStream is MATCH_RECOGNIZE in streaming mode, as Flink's CEP
// operator runs it. Each partition (a value of the PARTITION BY columns)
// keeps its own NFA. Ordered by a rowtime, a row waits in its partition's
// buffer until the watermark passes its time; then the partition's rows
// the watermark has passed run through the NFA in time order, rows of one
// time in the order of the other ORDER BY keys, and arrival order after
// that. A row whose time is at or behind the watermark is late and
// dropped, as is a row with a NULL time. Partitions run in the order of
// their earliest waiting time (Flink's event-time timers); of one time,
// in the order they began to wait (Flink's order there follows its hash
// of the key, which eddy does not reproduce). The watermark
// is the largest time seen minus the delay of the source's WATERMARK
// clause, after every row; without a WATERMARK clause the rows wait until
// the input ends. At the end of the input every waiting row runs (Flink's
// final watermark). Ordered by a proctime, rows run as they arrive.
//
// Matches leave as soon as the NFA completes them: over an unbounded
// input they are emitted while the input goes on.
type matchStream struct {
	op     *matchOp
	delay  int64
	hasWM  bool
	wm     int64
	parts  map[string]*matchPart
	timers matchTimers
	seq    int64
	key    []byte
	cur    *vector.Batch // output of the rows consumed so far
	firing
}

// matchPart is one partition: its NFA over the rows that have run, and
// the rows waiting for the watermark.
type matchPart struct {
	run     *matchRun
	ranRows *matchRows // the rows the NFA has read, from the oldest kept
	// wait holds the rows that came for the watermark, waiting or run
	// already; waiting indexes the waiting ones by time, then arrival.
	wait    *matchRows
	waiting waitHeap
	// waitTimes holds the times of the waiting rows (one timer each).
	waitTimes map[int64]bool
}

// matchRows are input rows with their order keys and slot arguments.
type matchRows struct {
	all  *vector.Batch
	keys *vector.Batch
	args *vector.Batch // every slot's arguments, one after another
	ts   []int64       // the time of each row (rowtime order)
}

func newMatchStream(op *matchOp) *matchStream {
	delay, hasWM := watermarkDelay(op.n.Input)
	if op.n.Proctime {
		hasWM = false
	}
	return &matchStream{op: op, delay: delay, hasWM: hasWM, wm: minWatermark, parts: map[string]*matchPart{}}
}

func (o *matchStream) Next(ctx context.Context) (*vector.Batch, error) {
	return o.next(ctx, o.op.in, o.consume, o.fire, int64(1<<62))
}

func (o *matchStream) Close() error {
	o.parts = nil
	return o.op.in.Close()
}

func (o *matchStream) newRows() *matchRows {
	n := o.op.n
	keyTypes := make([]*types.Type, len(n.Order))
	for i, k := range n.Order {
		keyTypes[i] = k.Expr.Type()
	}
	var argTypes []*types.Type
	for _, s := range n.Slots {
		for _, a := range s.Args {
			argTypes = append(argTypes, a.Type())
		}
	}
	return &matchRows{all: vector.NewBatch(schemaTypes(n.Input.Schema()), 16), keys: vector.NewBatch(keyTypes, 16),
		args: vector.NewBatch(argTypes, 16)}
}

// add appends row i of src.
func (m *matchRows) add(src *matchRows, i int) {
	m.all.AppendFrom(src.all, i, types.Insert)
	m.keys.AppendFrom(src.keys, i, types.Insert)
	m.args.AppendFrom(src.args, i, types.Insert)
	m.ts = append(m.ts, src.ts[i])
}

// gather returns the rows at the positions sel.
func (m *matchRows) gather(sel []int) *matchRows {
	out := &matchRows{all: m.all.Gather(sel), keys: m.keys.Gather(sel), args: m.args.Gather(sel), ts: make([]int64, len(sel))}
	out.all.Kinds, out.keys.Kinds, out.args.Kinds = nil, nil, nil
	for j, i := range sel {
		out.ts[j] = m.ts[i]
	}
	return out
}

// part returns the partition of key k, creating it.
func (o *matchStream) part(k string) *matchPart {
	p := o.parts[k]
	if p == nil {
		p = &matchPart{wait: o.newRows(), waitTimes: map[int64]bool{}}
		p.run = &matchRun{op: o.op}
		p.setRows(o.newRows())
		o.parts[k] = p
	}
	return p
}

// setRows makes rs the rows the partition's NFA reads.
func (p *matchPart) setRows(rs *matchRows) {
	r := p.run
	r.all = rs.all
	r.keys = rs.keys.Cols
	r.args = r.args[:0]
	c := 0
	for _, s := range r.op.n.Slots {
		r.args = append(r.args, rs.args.Cols[c:c+len(s.Args)])
		c += len(s.Args)
	}
	r.rows = r.rows[:0]
	for i := range rs.all.N {
		r.rows = append(r.rows, i)
	}
	p.ranRows = rs
}

// consume buffers (rowtime) or matches (proctime) a batch's rows.
func (o *matchStream) consume(ctx context.Context, bt *vector.Batch) error {
	if bt.N == 0 {
		return nil
	}
	in := &matchRows{all: bt}
	keys, err := matchEvalAll(ctx, o.op.order, bt)
	if err != nil {
		return err
	}
	in.keys = &vector.Batch{Cols: keys, N: bt.N}
	var args []*vector.Vec
	for _, evs := range o.op.slotArgs {
		vs, err := matchEvalAll(ctx, evs, bt)
		if err != nil {
			return err
		}
		args = append(args, vs...)
	}
	in.args = &vector.Batch{Cols: args, N: bt.N}
	in.ts = make([]int64, bt.N)
	o.startOutput()
	for i := range bt.N {
		o.key = o.key[:0]
		for _, c := range o.op.n.Partition {
			o.key = vector.AppendKey(o.key, bt.Cols[c], i)
		}
		p := o.part(string(o.key))
		if o.op.n.Proctime {
			p.run.ctx, p.run.out = ctx, o.cur
			p.ranRows.add(in, i)
			p.run.rows = append(p.run.rows, len(p.run.rows))
			if err := p.run.step(len(p.run.rows) - 1); err != nil {
				return err
			}
			p.compact()
			continue
		}
		ts, ok := rowMillis(keys[0], i)
		if !ok || o.hasWM && ts <= o.wm {
			continue // no time, or late
		}
		in.ts[i] = ts
		heap.Push(&p.waiting, waitRow{ts: ts, i: p.wait.all.N})
		p.wait.add(in, i)
		if !p.waitTimes[ts] {
			p.waitTimes[ts] = true
			heap.Push(&o.timers, matchTimer{ts: ts, seq: o.seq, p: p})
			o.seq++
		}
		if o.hasWM && ts-o.delay > o.wm {
			o.wm = ts - o.delay
			if err := o.runDue(ctx, o.wm); err != nil {
				return err
			}
		}
	}
	o.endOutput()
	return nil
}

// fire runs every row the watermark wm has passed (the end of the
// input).
func (o *matchStream) fire(ctx context.Context, wm int64) error {
	o.startOutput()
	if err := o.runDue(ctx, wm); err != nil {
		return err
	}
	o.endOutput()
	return nil
}

func (o *matchStream) startOutput() {
	if o.cur == nil {
		o.cur = vector.NewBatch(schemaTypes(o.op.n.Cols), 16)
	}
}

// endOutput hands the rows emitted so far to the consumer.
func (o *matchStream) endOutput() {
	if o.cur != nil && o.cur.N > 0 {
		o.out = append(o.out, o.cur)
		o.cur = nil
	}
}

// runDue fires the timers at or before wm: each runs its partition's
// rows up to wm.
func (o *matchStream) runDue(ctx context.Context, wm int64) error {
	for len(o.timers) > 0 && o.timers[0].ts <= wm {
		t := heap.Pop(&o.timers).(matchTimer)
		if err := o.runPart(ctx, t.p, wm); err != nil {
			return err
		}
		if o.cur.N >= vector.BatchSize {
			o.endOutput()
			o.startOutput()
		}
	}
	return nil
}

// runPart feeds the NFA of p its waiting rows at or before wm, in order.
func (o *matchStream) runPart(ctx context.Context, p *matchPart, wm int64) error {
	w := p.wait
	var due []int
	for len(p.waiting) > 0 && p.waiting[0].ts <= wm {
		due = append(due, heap.Pop(&p.waiting).(waitRow).i)
	}
	if len(due) == 0 {
		return nil
	}
	// due is in time order, then arrival order; rows of one time go by
	// the other ORDER BY keys.
	keys := o.op.n.Order
	sort.SliceStable(due, func(a, b int) bool {
		i, j := due[a], due[b]
		if w.ts[i] != w.ts[j] {
			return w.ts[i] < w.ts[j]
		}
		return compareMatchKeys(keys[1:], w.keys.Cols[1:], i, j) < 0
	})
	r := p.run
	r.ctx, r.out = ctx, o.cur
	for _, i := range due {
		p.ranRows.add(w, i)
		r.rows = append(r.rows, len(r.rows))
		if err := r.step(len(r.rows) - 1); err != nil {
			return err
		}
		delete(p.waitTimes, w.ts[i])
	}
	switch {
	case len(p.waiting) == 0:
		p.wait = o.newRows()
	case w.all.N >= vector.BatchSize && w.all.N > 2*len(p.waiting):
		// Most of the buffer has run: keep only the waiting rows, in
		// arrival order (which the heap's ties keep).
		sel := make([]int, len(p.waiting))
		for k, x := range p.waiting {
			sel[k] = x.i
		}
		sort.Ints(sel)
		at := make(map[int]int, len(sel))
		for k, i := range sel {
			at[i] = k
		}
		for k := range p.waiting {
			p.waiting[k].i = at[p.waiting[k].i]
		}
		p.wait = w.gather(sel)
	}
	p.compact()
	return nil
}

// waitRow is a waiting row of a partition: its time and its index in the
// partition's buffer.
type waitRow struct {
	ts int64
	i  int
}

// waitHeap is a min-heap of waiting rows by time, then arrival
// (container/heap).
type waitHeap []waitRow

func (h waitHeap) Len() int { return len(h) }
func (h waitHeap) Less(i, j int) bool {
	if h[i].ts != h[j].ts {
		return h[i].ts < h[j].ts
	}
	return h[i].i < h[j].i
}
func (h waitHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *waitHeap) Push(x any)   { *h = append(*h, x.(waitRow)) }
func (h *waitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// compact drops the rows no partial match reads any more, once they are
// many: an unbounded input keeps only the rows of open matches.
func (p *matchPart) compact() {
	r := p.run
	n := len(r.rows)
	if n < vector.BatchSize {
		return
	}
	first := n
	for _, m := range r.active {
		first = min(first, m.start)
	}
	for _, m := range r.done {
		first = min(first, m.start)
	}
	if first < n/2 {
		return
	}
	sel := make([]int, 0, n-first)
	for i := first; i < n; i++ {
		sel = append(sel, i)
	}
	for _, m := range r.active {
		m.start -= first
	}
	for _, m := range r.done {
		m.start -= first
	}
	p.setRows(p.ranRows.gather(sel))
}

// rowMillis returns the time of row i of a rowtime vector in epoch
// milliseconds.
func rowMillis(v *vector.Vec, i int) (int64, bool) {
	if v.IsNull(i) {
		return 0, false
	}
	return eventTime(v.Get(i))
}

// matchTimer is a partition's waiting time: when the watermark passes
// it, the partition runs. seq orders timers of one time by registration.
type matchTimer struct {
	ts, seq int64
	p       *matchPart
}

// matchTimers is a min-heap of timers (container/heap).
type matchTimers []matchTimer

func (h matchTimers) Len() int { return len(h) }
func (h matchTimers) Less(i, j int) bool {
	if h[i].ts != h[j].ts {
		return h[i].ts < h[j].ts
	}
	return h[i].seq < h[j].seq
}
func (h matchTimers) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *matchTimers) Push(x any)   { *h = append(*h, x.(matchTimer)) }
func (h *matchTimers) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
