package sink

import (
	"context"
	"testing"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// batches is an operator of n one-row batches.
type batches struct{ n int }

func (b *batches) Next(ctx context.Context) (*vector.Batch, error) {
	if b.n == 0 {
		return nil, nil
	}
	b.n--
	bt := vector.NewBatch([]*types.Type{types.New(types.BigInt)}, 1)
	bt.AppendRow(types.Insert, []any{int64(b.n)})
	return bt, nil
}

func (b *batches) Close() error { return nil }

// countingWriter holds rows as a row store's writer does and counts what
// the run asks of it.
type countingWriter struct {
	held, committed, spilled     int
	checkpoints, spills, commits int
}

func (w *countingWriter) Write(_ context.Context, b *vector.Batch) error {
	w.held += b.N
	return nil
}
func (w *countingWriter) Commit(context.Context) error {
	w.committed += w.held + w.spilled
	w.held, w.spilled = 0, 0
	w.commits++
	return nil
}
func (w *countingWriter) Abort() error { w.held, w.spilled = 0, 0; return nil }
func (w *countingWriter) Checkpoint(context.Context) error {
	w.committed += w.held
	w.held = 0
	w.checkpoints++
	return nil
}
func (w *countingWriter) Buffered() int64 { return int64(w.held) * 100 }
func (w *countingWriter) Spill(context.Context) error {
	w.spilled += w.held
	w.held = 0
	w.spills++
	return nil
}

func TestRunCheckpoints(t *testing.T) {
	ctx := context.Background()
	// Streaming: a writer over its share commits early.
	w := &countingWriter{}
	r := &Run{Checkpoints: &Checkpoints{Interval: time.Hour, MaxBuffered: 250}}
	r.Add(w, &batches{n: 10})
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if w.committed != 10 || w.checkpoints != 3 || w.spills != 0 {
		t.Errorf("streaming: %+v, want 10 rows committed in 3 early checkpoints and the end", *w)
	}
	// Batch (no interval): the writer spills instead, and commits once.
	w = &countingWriter{}
	r = &Run{Checkpoints: &Checkpoints{MaxBuffered: 250}}
	r.Add(w, &batches{n: 10})
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if w.committed != 10 || w.checkpoints != 0 || w.spills != 3 || w.commits != 1 {
		t.Errorf("batch: %+v, want 3 spills and one commit of 10 rows", *w)
	}
	// An elapsed interval commits every writer.
	a, b := &countingWriter{}, &countingWriter{}
	r = &Run{Checkpoints: &Checkpoints{Interval: time.Nanosecond}, Interleave: true}
	r.Add(a, &batches{n: 3})
	r.Add(b, &batches{n: 3})
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if a.checkpoints == 0 || b.checkpoints == 0 || a.committed != 3 || b.committed != 3 {
		t.Errorf("interval: %+v %+v, want both writers to checkpoint", *a, *b)
	}
	// Without checkpoints the rows are committed once, at the end.
	w = &countingWriter{}
	r = &Run{}
	r.Add(w, &batches{n: 10})
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if w.committed != 10 || w.checkpoints != 0 || w.spills != 0 || w.commits != 1 {
		t.Errorf("no checkpoints: %+v", *w)
	}
}
