package connectors

import (
	"context"
	"sync"
	"sync/atomic"

	"eddy/catalogs"
	"eddy/engine/vector"
)

// prefetchDepth is how many batches a prefetching reader reads ahead.
const prefetchDepth = 4

// prefetchReader reads its source's batches on a goroutine of its own, a
// few batches ahead of the consumer, so parsing a file and the operators
// above the scan use two cores. Batches keep their order; an error comes
// after the batches before it, when the consumer gets that far. The
// goroutine starts at the first Next, ends with that call's context, at
// the end of the input, or on Close (which waits for it).
//
// Only its goroutine calls the source's Next, so several goroutines may
// share it (Concurrent) when its creator says the order of the batches
// does not matter to their meaning (shared: an insert-only source).
type prefetchReader struct {
	in      Reader
	cols    []int // the columns to keep when in cannot push them down
	shared  bool
	ch      chan prefetched
	cancel  context.CancelFunc
	done    chan struct{}
	once    sync.Once
	started atomic.Bool
	ended   atomic.Bool
}

type prefetched struct {
	b   *vector.Batch
	err error
}

func newPrefetchReader(in Reader) *prefetchReader { return &prefetchReader{in: in} }

var _ Pushdown = (*prefetchReader)(nil)

// Concurrent implements Concurrent.
func (p *prefetchReader) Concurrent() bool { return p.shared }

// PushFilters implements Pushdown by passing the filters on.
func (p *prefetchReader) PushFilters(fs []catalogs.RowFilter) []bool {
	if pd, ok := p.in.(Pushdown); ok && !p.started.Load() {
		return pd.PushFilters(fs)
	}
	return make([]bool, len(fs))
}

// PushColumns implements Pushdown by passing the columns on, or, for a
// source that reads every column, by keeping only these of each batch.
func (p *prefetchReader) PushColumns(cols []int) {
	if p.started.Load() {
		return
	}
	if pd, ok := p.in.(Pushdown); ok {
		pd.PushColumns(cols)
		return
	}
	p.cols = append([]int{}, cols...)
}

func (p *prefetchReader) Next(ctx context.Context) (*vector.Batch, error) {
	if p.ended.Load() {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.once.Do(func() {
		p.started.Store(true)
		pctx, cancel := context.WithCancel(ctx)
		p.cancel = cancel
		p.ch = make(chan prefetched, prefetchDepth)
		p.done = make(chan struct{})
		go p.run(pctx)
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case x, ok := <-p.ch:
		if !ok {
			p.ended.Store(true)
			return nil, nil
		}
		if x.err != nil {
			p.ended.Store(true)
			return nil, x.err
		}
		return x.b, nil
	}
}

func (p *prefetchReader) run(ctx context.Context) {
	defer close(p.done)
	defer close(p.ch)
	for {
		b, err := p.in.Next(ctx)
		if b == nil && err == nil {
			return
		}
		if b != nil && p.cols != nil {
			out := &vector.Batch{Cols: make([]*vector.Vec, len(p.cols)), Kinds: b.Kinds, N: b.N}
			for i, c := range p.cols {
				out.Cols[i] = b.Cols[c]
			}
			b = out.Inherit(b)
		}
		select {
		case p.ch <- prefetched{b: b, err: err}:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// Close stops the goroutine, waits for it and closes the source.
func (p *prefetchReader) Close() error {
	if p.started.Load() && p.cancel != nil {
		p.cancel()
		<-p.done
		p.cancel = nil
	}
	p.ended.Store(true)
	return p.in.Close()
}
