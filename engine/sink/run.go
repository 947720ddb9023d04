package sink

import (
	"context"
	"errors"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/exec"
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

// checkpoint commits, after a write to w, what the writers hold when a
// checkpoint is due: all of them when the interval has passed, w alone
// when it holds more than its share of memory.
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
