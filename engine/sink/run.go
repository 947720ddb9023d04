package sink

import (
	"context"
	"errors"
	"sync"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/exec"
	"eddy/engine/vector"
)

// Run is a prepared set of sinks: their writers are open and their
// operators built, so Run needs nothing of the session (it may run in a
// job's goroutine).
type Run struct {
	writers []connectors.Writer
	ops     []exec.Operator
	// Interleave pumps the sinks in turn, a batch each (a statement set
	// over unbounded sources: each sink makes progress); otherwise each
	// sink is written to its end before the next starts.
	Interleave bool
	// Checkpoints, when set, makes the writers that can (Checkpointer)
	// commit what they hold while the statement runs, so that an unbounded
	// stream is never buffered whole: see Checkpoints.
	Checkpoints *Checkpoints
	// last is when the writers last committed at a checkpoint.
	last time.Time
}

// Checkpoints is when the writers of a run commit before its end: every
// Interval, and whenever one holds more than MaxBuffered bytes (an early
// checkpoint of that writer). A committed row stays when the statement
// later fails or is stopped. Interval 0 is a statement that commits only
// at its end (batch mode, all or nothing): a writer that holds more than
// MaxBuffered bytes spills them out of memory instead (Spill), uncommitted.
type Checkpoints struct {
	Interval    time.Duration
	MaxBuffered int64
}

// DefaultCheckpointInterval is the interval of a streaming INSERT when
// execution.checkpointing.interval is not set. Flink takes no checkpoints
// then, and its sinks that commit on checkpoints never commit an
// unbounded stream; SQL client users set the option, most often to a few
// seconds. Ten seconds bounds both the rows a stopped statement loses and
// the commits a fast stream makes.
const DefaultCheckpointInterval = 10 * time.Second

// Checkpointer is a writer that can commit the rows written so far and go
// on (the row store's writer).
type Checkpointer interface {
	// Checkpoint commits the rows written since the last checkpoint.
	Checkpoint(ctx context.Context) error
	// Buffered returns the estimated bytes of the rows it holds in memory.
	Buffered() int64
	// Spill moves the rows it holds out of memory, uncommitted: Commit
	// writes them, Abort drops them.
	Spill(ctx context.Context) error
}

// Add adds a sink: its open writer and the operator of its rows.
func (r *Run) Add(w connectors.Writer, op exec.Operator) {
	r.writers = append(r.writers, w)
	r.ops = append(r.ops, op)
}

// AddWriter adds the writer of a sink whose operator cannot be built: Abort
// then discards its output too.
func (r *Run) AddWriter(w connectors.Writer) { r.writers = append(r.writers, w) }

// Abort closes the operators, discards every writer's output and returns
// err joined with their errors.
func (r *Run) Abort(err error) error {
	for _, op := range r.ops {
		op.Close()
	}
	for _, w := range r.writers {
		err = errors.Join(err, w.Abort())
	}
	return err
}

// Run writes every sink's rows, then commits all writers; on any failure
// every writer not yet committed is aborted.
func (r *Run) Run(ctx context.Context) error {
	if r.Checkpoints != nil && r.Checkpoints.Interval > 0 {
		if err := r.pumpTimed(ctx); err != nil {
			return r.Abort(err)
		}
		return r.commit(ctx)
	}
	if r.Interleave && len(r.ops) > 1 {
		if err := r.pumpInTurn(ctx); err != nil {
			return r.Abort(err)
		}
		return r.commit(ctx)
	}
	for i, op := range r.ops {
		w := r.writers[i]
		err := func() error {
			defer op.Close()
			for {
				bt, err := op.Next(ctx)
				if err != nil {
					return err
				}
				if bt == nil {
					return nil
				}
				if err := w.Write(ctx, bt); err != nil {
					return err
				}
				if err := r.checkpoint(ctx, w); err != nil {
					return err
				}
			}
		}()
		if err != nil {
			return r.Abort(err)
		}
	}
	return r.commit(ctx)
}

// pumpInTurn writes a batch of each unfinished sink in turn until all
// have ended.
func (r *Run) pumpInTurn(ctx context.Context) error {
	done := make([]bool, len(r.ops))
	for left := len(r.ops); left > 0; {
		for i, op := range r.ops {
			if done[i] {
				continue
			}
			bt, err := op.Next(ctx)
			if err != nil {
				return err
			}
			if bt == nil {
				done[i] = true
				left--
				op.Close()
				continue
			}
			if err := r.writers[i].Write(ctx, bt); err != nil {
				return err
			}
			if err := r.checkpoint(ctx, r.writers[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// pumpTimed writes the sinks' rows (all at once when Interleave is set,
// else each to its end before the next) and checkpoints the writers
// every Interval even while no row arrives: an operator's Next runs in a
// goroutine of its own, which hands each batch over and waits until it is
// written before it asks for the next, so that an updating query whose
// last changes were buffered (a retraction, then nothing for a long time)
// still commits them at the next checkpoint.
func (r *Run) pumpTimed(ctx context.Context) error {
	if r.Interleave {
		all := make([]int, len(r.ops))
		for i := range all {
			all[i] = i
		}
		return r.pumpTicking(ctx, all)
	}
	for i := range r.ops {
		if err := r.pumpTicking(ctx, []int{i}); err != nil {
			return err
		}
	}
	return nil
}

// pulled is a batch (or the end, or an error) of the operator of sink i.
type pulled struct {
	i   int
	b   *vector.Batch
	err error
}

// pumpTicking writes the rows of the sinks idx until all have ended,
// checkpointing on a timer; their operators are closed when it returns.
func (r *Run) pumpTicking(ctx context.Context, idx []int) error {
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan pulled)
	acks := make(map[int]chan struct{}, len(idx))
	var wg sync.WaitGroup
	for _, i := range idx {
		ack := make(chan struct{})
		acks[i] = ack
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				b, err := r.ops[i].Next(ctx)
				select {
				case out <- pulled{i: i, b: b, err: err}:
				case <-ctx.Done():
					return
				}
				if err != nil || b == nil {
					return
				}
				select {
				case <-ack:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	defer func() {
		cancel()
		wg.Wait()
		for _, i := range idx {
			r.ops[i].Close()
		}
	}()
	tick := time.NewTicker(r.Checkpoints.Interval)
	defer tick.Stop()
	for left := len(idx); left > 0; {
		select {
		case p := <-out:
			if p.err != nil {
				return p.err
			}
			if p.b == nil {
				left--
				continue
			}
			w := r.writers[p.i]
			if err := w.Write(ctx, p.b); err != nil {
				return err
			}
			if err := r.checkpoint(ctx, w); err != nil {
				return err
			}
			// The operator's goroutine waits for this, unless the run was
			// cancelled meanwhile: it has then gone.
			select {
			case acks[p.i] <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
		case <-tick.C:
			if err := r.checkpoint(ctx, nil); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// commit commits every writer; after a failure the writers not yet
// committed are discarded.
func (r *Run) commit(ctx context.Context) error {
	for i, w := range r.writers {
		if err := w.Commit(ctx); err != nil {
			// Writers before i have committed; the rest are discarded.
			r.writers = r.writers[i+1:]
			r.ops = nil
			return r.Abort(err)
		}
	}
	return nil
}

// checkpoint commits, after a write to w (nil: none, a tick of the
// clock), what the writers hold when a checkpoint is due: all of them
// when the interval has passed, w alone when it holds more than its share
// of memory.
func (r *Run) checkpoint(ctx context.Context, w any) error {
	cp := r.Checkpoints
	if cp == nil {
		return nil
	}
	now := time.Now()
	if r.last.IsZero() {
		r.last = now
	}
	if cp.Interval > 0 && now.Sub(r.last) >= cp.Interval {
		r.last = now
		for _, w := range r.writers {
			if c, ok := w.(Checkpointer); ok {
				if err := c.Checkpoint(ctx); err != nil {
					return err
				}
			}
		}
		return nil
	}
	c, ok := w.(Checkpointer)
	if !ok || cp.MaxBuffered <= 0 || c.Buffered() <= cp.MaxBuffered {
		return nil
	}
	if cp.Interval <= 0 {
		return c.Spill(ctx)
	}
	return c.Checkpoint(ctx)
}
