package sink

import (
	"context"
	"errors"
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

// stalling emits one batch, then waits for its context's end, as an
// unbounded query does when nothing reaches its sink.
type stalling struct{ sent bool }

func (s *stalling) Next(ctx context.Context) (*vector.Batch, error) {
	if !s.sent {
		s.sent = true
		bt := vector.NewBatch([]*types.Type{types.New(types.BigInt)}, 1)
		bt.AppendRow(types.Delete, []any{int64(1)})
		return bt, nil
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (s *stalling) Close() error { return nil }

// signalling is a countingWriter that reports each checkpoint.
type signalling struct {
	countingWriter
	checkpointed chan int
}

func (w *signalling) Checkpoint(ctx context.Context) error {
	n := w.held
	if err := w.countingWriter.Checkpoint(ctx); err != nil {
		return err
	}
	if n > 0 {
		w.checkpointed <- n
	}
	return nil
}

// TestRunCheckpointsWhileIdle: rows written before the input stalls are
// committed at the next checkpoint, without waiting for another row; a
// cancelled run ends with its context's error.
func TestRunCheckpointsWhileIdle(t *testing.T) {
	for _, interleave := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		w := &signalling{checkpointed: make(chan int, 1)}
		r := &Run{Checkpoints: &Checkpoints{Interval: 10 * time.Millisecond}, Interleave: interleave}
		r.Add(w, &stalling{})
		if interleave {
			r.Add(&countingWriter{}, &stalling{})
		}
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		select {
		case n := <-w.checkpointed:
			if n != 1 {
				t.Errorf("checkpoint of %d rows, want 1", n)
			}
		case err := <-done:
			t.Fatalf("the run ended: %v", err)
		case <-time.After(20 * time.Second):
			t.Fatal("the row written before the input stalled was never committed")
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled run: %v", err)
		}
	}
}

// blockingWriter holds each Write until release is closed, after telling
// entered.
type blockingWriter struct {
	countingWriter
	entered chan struct{}
	release chan struct{}
}

func (w *blockingWriter) Write(ctx context.Context, b *vector.Batch) error {
	w.entered <- struct{}{}
	<-w.release
	return w.countingWriter.Write(ctx, b)
}

// TestRunCancelledWhileWriting: a run cancelled while a batch is being
// written ends with the context's error once the write returns.
func TestRunCancelledWhileWriting(t *testing.T) {
	for range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		w := &blockingWriter{entered: make(chan struct{}, 1), release: make(chan struct{})}
		r := &Run{Checkpoints: &Checkpoints{Interval: time.Hour}}
		r.Add(w, &batches{n: 1000})
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		<-w.entered
		cancel()
		// Let the operator's goroutine see the cancellation first.
		time.Sleep(time.Millisecond)
		close(w.release)
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled run: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("a run cancelled while writing never ended")
		}
	}
}
