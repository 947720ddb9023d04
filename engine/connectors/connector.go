package connectors

import (
	"context"

	"eddy/engine/vector"
)

// Reader yields a source's rows in batches. Next returns a nil batch at the
// end of the input and ctx.Err() when the context is cancelled.
type Reader interface {
	Next(ctx context.Context) (*vector.Batch, error)
	Close() error
}

// Writer receives a sink's rows. Nothing is visible to readers before
// Commit; Abort (or Close without Commit) discards what was written.
type Writer interface {
	Write(ctx context.Context, b *vector.Batch) error
	Commit(ctx context.Context) error
	Abort() error
}

// SliceReader returns a Reader over batches held in memory.
func SliceReader(batches []*vector.Batch) Reader { return &sliceReader{batches: batches} }

type sliceReader struct {
	batches []*vector.Batch
	i       int
}

func (r *sliceReader) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.i >= len(r.batches) {
		return nil, nil
	}
	b := r.batches[r.i]
	r.i++
	return b, nil
}

func (r *sliceReader) Close() error { return nil }
