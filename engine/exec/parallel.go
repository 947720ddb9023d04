package exec

import (
	"context"
	"fmt"
	"sync"

	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/vector"
)

// Parallel pipelines. In batch mode, with Options.Parallelism above 1, a
// pipeline (Project and Filter nodes down to one Scan) whose reader is
// shared (connectors.Concurrent) runs on several workers: each worker
// has its own instances of the pipeline's operators, built from the same
// plan with expressions compiled per worker, and pulls the reader's
// batches (morsels) one at a time. The reader's batches are numbered in
// the order the reader hands them out, which is the order one goroutine
// would read them in; a consumer that needs that order gets it back:
//   - the gather (gatherOp) returns the workers' batches in morsel order,
//     so the rows above it are exactly the serial plan's, in the same
//     order (a sort's ties, a LIMIT without ORDER BY and first-appearance
//     group order all stay as they are);
//   - a two-phase aggregation (parallelagg.go) aggregates each worker's
//     morsels into partial groups and merges them, and orders the groups
//     by their first morsel and row.
//
// A reader that turns out not to be concurrent (asked after its first
// batch, when a store's cursor is open) is read by the first worker's
// pipeline on the calling goroutine: the serial plan, exactly.

// parallelPipeline returns the scan of the pipeline n when n may run on
// several workers: a chain of Project and Filter nodes over a Scan, in
// batch mode, whose expressions hold no sub-query, correlation or
// non-deterministic call (a per-worker copy of RAND(42) would repeat the
// sequence). work reports whether the pipeline evaluates anything (a
// bare scan gains nothing from a gather).
func (b *Builder) parallelPipeline(n plan.Node) (scan *plan.Scan, work bool, ok bool) {
	if b.opts.Streaming || b.opts.Parallelism <= 1 || b.view != nil || b.opts.Tables == nil {
		return nil, false, false
	}
	for {
		switch x := n.(type) {
		case *plan.Project:
			if !workerSafe(x.Exprs...) {
				return nil, false, false
			}
			work, n = true, x.Input
		case *plan.Filter:
			if !workerSafe(x.Cond) {
				return nil, false, false
			}
			work, n = true, x.Input
		case *plan.Join:
			// A join whose table every worker probes (paralleljoin.go).
			if !pipelineJoin(x) {
				return nil, false, false
			}
			work, n = true, x.Left
		case *plan.Scan:
			if !workerSafe(x.Filters...) {
				return nil, false, false
			}
			return x, work || len(x.Filters) > 0, true
		default:
			return nil, false, false
		}
	}
}

// workerSafe reports whether every worker may evaluate its own compiled
// copy of the expressions with the serial plan's results.
func workerSafe(es ...plan.Expr) bool {
	ok := true
	for _, e := range es {
		plan.WalkExpr(e, func(x plan.Expr) bool {
			switch x := x.(type) {
			case *plan.SubQuery, *plan.CorrelRef:
				ok = false
			case *plan.Call:
				if x.Func != nil && !x.Func.Deterministic {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// morsels hands the batches of a shared reader to the workers of one
// parallel pipeline and collects what they make of each, by number.
type morsels struct {
	leader *scanOp // opens the reader and takes the pushdowns, once
	pipes  []Operator
	views  []*morselView
	n      int // workers
	// builds are the tables of the pipeline's joins, built at the start.
	builds []*sharedBuild

	started, serial, closed bool
	first                   *vector.Batch // the batch read to learn the reader's kind

	readMu   sync.Mutex // serializes the reader's Next, which numbers the batches
	seq      int64      // batches handed out
	srcEnded bool

	mu       sync.Mutex
	cond     *sync.Cond
	err      error
	reserved int64 // batches handed out or being read
	next     int64 // the first batch whose result the consumer has not taken
	total    int64 // the number of batches, once the reader ended; -1 before
	window   int64 // how many batches may be out beyond next
	ready    map[int64]*vector.Batch
	// unordered is set when no consumer takes the batches' results in
	// order (a two-phase aggregation): there is no window and no result.
	unordered bool
	// free is set when the answer does not depend on the reader's order
	// either (a global aggregation of functions that merge exactly): the
	// workers call the reader's Next at once, which lets a store decode
	// several batches at the same time.
	free bool
	// skip, when set (unordered), is told (m.mu held) of each batch a
	// worker's pipeline made nothing of, for a consumer that accounts
	// for every batch number (a partitioned aggregation).
	skip func(seq int64)

	cancel    context.CancelFunc
	rctx      context.Context // the workers' context
	stopWatch func() bool
	wg        sync.WaitGroup
}

// morselView is a worker's reader: its scan pulls the shared reader's
// batches through it.
type morselView struct {
	m       *morsels
	scan    *scanOp // the worker's scan, set when the worker is built
	pending int64   // the batch the worker holds (-1: none)
}

// newMorsels builds n workers' instances of the pipeline p over scan.
func (b *Builder) newMorsels(p plan.Node, scan *plan.Scan) (*morsels, error) {
	n := b.opts.Parallelism
	lop, err := b.scan(scan)
	if err != nil {
		return nil, err
	}
	m := &morsels{leader: lop.(*scanOp), n: n, total: -1, window: int64(8 * n), ready: map[int64]*vector.Batch{}}
	m.cond = sync.NewCond(&m.mu)
	shared, builds, err := b.sharedBuilds(p)
	if err != nil {
		lop.Close()
		return nil, err
	}
	m.builds = builds
	for range n {
		v := &morselView{m: m, pending: -1}
		o := b.opts
		o.Parallelism = 1
		wb := &Builder{opts: o, env: b.env, corr: b.corr, view: v, joinUse: b.joinUse, shared: shared}
		op, err := wb.Build(p)
		if err == nil && v.scan == nil {
			op.Close()
			err = fmt.Errorf("parallel pipeline without a scan: %T", p)
		}
		if err != nil {
			m.close()
			return nil, err
		}
		m.pipes = append(m.pipes, op)
		m.views = append(m.views, v)
	}
	return m, nil
}

// start opens the reader and reads its first batch; a concurrent reader
// then gets run workers, each on a goroutine of its own, and the others
// only the first pipeline, on the caller's goroutine (serial).
func (m *morsels) start(ctx context.Context, run func(ctx context.Context, w int) error) error {
	m.started = true
	over, err := buildShared(ctx, m.builds)
	if err != nil {
		return err
	}
	if err := m.leader.open(ctx); err != nil {
		return err
	}
	for _, v := range m.views {
		if err := v.scan.adopt(m.leader); err != nil {
			return err
		}
	}
	b, err := m.leader.r.Next(ctx)
	if err != nil {
		return err
	}
	m.first = b
	if b == nil {
		m.srcEnded = true
	}
	if b == nil || over || !connectors.IsConcurrent(m.leader.r) {
		m.serial = true
		return nil
	}
	rctx, cancel := context.WithCancel(ctx)
	m.cancel, m.rctx = cancel, rctx
	m.stopWatch = context.AfterFunc(rctx, func() {
		m.mu.Lock()
		if m.err == nil {
			m.err = rctx.Err()
		}
		m.cond.Broadcast()
		m.mu.Unlock()
	})
	for w := range m.n {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			defer func() {
				if r := recover(); r != nil {
					m.fail(fmt.Errorf("parallel worker: %v", r))
				}
			}()
			if err := run(rctx, w); err != nil {
				m.fail(err)
			}
		}()
	}
	return nil
}

// fail records the first error of a worker and stops the others.
func (m *morsels) fail(err error) {
	m.mu.Lock()
	if m.err == nil {
		m.err = err
	}
	m.cond.Broadcast()
	m.mu.Unlock()
	if m.cancel != nil {
		m.cancel()
	}
}

// Next implements connectors.Reader for a worker's scan: the shared
// reader's next batch. A worker that asks for another batch made nothing
// of the one it holds (its operators pass each batch on or drop it).
func (v *morselView) Next(ctx context.Context) (*vector.Batch, error) {
	m := v.m
	if m.serial {
		if b := m.first; b != nil {
			m.first = nil
			return b, nil
		}
		if m.srcEnded {
			return nil, nil
		}
		return m.leader.r.Next(ctx)
	}
	m.mu.Lock()
	if v.pending >= 0 && !m.unordered {
		m.putLocked(v.pending, nil)
	} else if v.pending >= 0 && m.skip != nil {
		m.skip(v.pending)
	}
	v.pending = -1
	for m.err == nil && m.total < 0 && !m.unordered && m.reserved-m.next >= m.window {
		m.cond.Wait()
	}
	if m.err != nil {
		err := m.err
		m.mu.Unlock()
		return nil, err
	}
	if m.total >= 0 {
		m.mu.Unlock()
		return nil, nil
	}
	m.reserved++
	m.mu.Unlock()

	m.readMu.Lock()
	var b *vector.Batch
	var err error
	switch {
	case m.srcEnded:
	case m.first != nil:
		b, m.first = m.first, nil
	case m.free:
		// The reader is concurrent: its calls overlap, numbered in the
		// order they end.
		m.readMu.Unlock()
		b, err = m.leader.r.Next(ctx)
		m.readMu.Lock()
		if b == nil && err == nil {
			m.srcEnded = true
		}
	default:
		b, err = m.leader.r.Next(ctx)
		if b == nil && err == nil {
			m.srcEnded = true
		}
	}
	seq := m.seq
	if b != nil {
		m.seq++
	}
	m.readMu.Unlock()

	m.mu.Lock()
	defer m.mu.Unlock()
	if b == nil {
		m.reserved--
		if err == nil && m.total < 0 {
			m.total = seq
		}
		m.cond.Broadcast()
		return nil, err
	}
	v.pending = seq
	return b, nil
}

// Close implements connectors.Reader; the shared reader closes with the
// pipeline.
func (v *morselView) Close() error { return nil }

// putLocked records the result of a batch (nil: no rows).
func (m *morsels) putLocked(seq int64, b *vector.Batch) {
	m.ready[seq] = b
	m.cond.Broadcast()
}

// done records what a worker made of the batch it holds, after its
// operators returned out (nil at the end of its input).
func (m *morsels) done(v *morselView, out *vector.Batch) error {
	if m.unordered {
		v.pending = -1
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v.pending < 0 {
		if out != nil {
			return fmt.Errorf("parallel pipeline returned rows of no batch")
		}
		return nil
	}
	m.putLocked(v.pending, out)
	v.pending = -1
	return nil
}

// take returns the result of the next batch in the reader's order,
// waiting for it; ok is false at the end.
func (m *morsels) take(ctx context.Context) (b *vector.Batch, ok bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for {
		if m.err != nil {
			return nil, false, m.err
		}
		if b, ok := m.ready[m.next]; ok {
			delete(m.ready, m.next)
			m.next++
			m.cond.Broadcast()
			return b, true, nil
		}
		if m.total >= 0 && m.next >= m.total {
			return nil, false, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		m.cond.Wait()
	}
}

// close stops the workers, waits for them and closes every pipeline and
// the reader.
func (m *morsels) close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	if m.cancel != nil {
		m.cancel()
		m.wg.Wait()
		m.stopWatch()
	}
	var first error
	for _, p := range m.pipes {
		if err := p.Close(); err != nil && first == nil {
			first = err
		}
	}
	if err := m.leader.Close(); err != nil && first == nil {
		first = err
	}
	if err := closeShared(m.builds); err != nil && first == nil {
		first = err
	}
	return first
}

// adopt gives a worker's scan the columns and filters the leader's reader
// took, with the residual filter compiled for this worker.
func (o *scanOp) adopt(leader *scanOp) error {
	if !leader.pushed {
		return nil
	}
	o.pushed, o.cols, o.out, o.cond = true, leader.cols, leader.out, nil
	if leader.residual != nil {
		ev, err := o.b.compile(leader.residual)
		if err != nil {
			return err
		}
		o.cond = ev
	}
	return nil
}

// gatherOp runs a pipeline on several workers and returns their batches
// in the reader's order.
type gatherOp struct {
	m *morsels
	// stage, when set before the first Next, is applied by each worker to
	// its pipeline's batches (a parallel join's probe, paralleljoin.go).
	stage func(ctx context.Context, w int, b *vector.Batch) (*vector.Batch, error)
}

func (b *Builder) gather(p plan.Node, scan *plan.Scan) (Operator, error) {
	m, err := b.newMorsels(p, scan)
	if err != nil {
		return nil, err
	}
	return &gatherOp{m: m}, nil
}

func (g *gatherOp) Next(ctx context.Context) (*vector.Batch, error) {
	m := g.m
	if !m.started {
		if err := m.start(ctx, g.work); err != nil {
			return nil, err
		}
	}
	for m.serial {
		b, err := m.pipes[0].Next(ctx)
		if err != nil || b == nil || g.stage == nil {
			return b, err
		}
		if b, err = g.stage(ctx, 0, b); err != nil || b != nil && b.N > 0 {
			return b, err
		}
	}
	for {
		b, ok, err := m.take(ctx)
		if err != nil || !ok {
			return nil, err
		}
		if b != nil && b.N > 0 {
			return b, nil
		}
	}
}

// work is worker w's loop: its pipeline's batches, each recorded under
// the number of the reader's batch it came from.
func (g *gatherOp) work(ctx context.Context, w int) error {
	m := g.m
	pipe, v := m.pipes[w], m.views[w]
	for {
		out, err := pipe.Next(ctx)
		if err != nil {
			return err
		}
		if out == nil {
			return m.done(v, nil)
		}
		if g.stage != nil {
			if out, err = g.stage(ctx, w, out); err != nil {
				return err
			}
		}
		if err := m.done(v, out); err != nil {
			return err
		}
	}
}

func (g *gatherOp) Close() error { return g.m.close() }

// error returns the first error of the workers, if any.
func (m *morsels) error() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// chanOp returns the batches sent on ch until it is closed; it fails
// with the workers' error once their context ends.
type chanOp struct {
	ch chan *vector.Batch
	m  *morsels
}

func (o *chanOp) Next(ctx context.Context) (*vector.Batch, error) {
	select {
	case b, ok := <-o.ch:
		if !ok {
			return nil, o.m.error()
		}
		return b, nil
	case <-o.m.rctx.Done():
		if err := o.m.error(); err != nil {
			return nil, err
		}
		return nil, o.m.rctx.Err()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (o *chanOp) Close() error { return nil }

// send passes b to ch unless the workers' context ends first.
func (m *morsels) send(ch chan *vector.Batch, b *vector.Batch) error {
	select {
	case ch <- b:
		return nil
	case <-m.rctx.Done():
		if err := m.error(); err != nil {
			return err
		}
		return m.rctx.Err()
	}
}

// serial returns a builder of operators that run on one goroutine within
// budget bytes (at least 1): a worker's, or a step after the workers.
func (b *Builder) serial(budget int64) *Builder {
	opts := b.opts
	opts.Parallelism = 1
	opts.MemoryBudget = max(budget, 1)
	return &Builder{opts: opts, env: b.env, corr: b.corr}
}

// byOrdinal returns the rows of in (whose last column is each row's
// ordinal) ordered by it, without it, through a sort that spills past
// its budget.
func (b *Builder) byOrdinal(in Operator, cols plan.Schema, budget int64) (Operator, error) {
	sb := b.serial(budget)
	last := len(cols) - 1
	n := &plan.Sort{Input: &plan.Values{Cols: cols}, Keys: []plan.SortKey{{Expr: &plan.ColumnRef{Index: last, T: cols[last].Type}}}}
	s, err := sb.newSortOp(n, in, -1)
	if err != nil {
		return nil, err
	}
	return &dropLastOp{in: s}, nil
}

// dropLastOp passes its input's batches on without their last column.
type dropLastOp struct{ in Operator }

func (o *dropLastOp) Next(ctx context.Context) (*vector.Batch, error) {
	b, err := o.in.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	return (&vector.Batch{Cols: b.Cols[:len(b.Cols)-1], Kinds: b.Kinds, N: b.N}).Inherit(b), nil
}

func (o *dropLastOp) Close() error { return o.in.Close() }
