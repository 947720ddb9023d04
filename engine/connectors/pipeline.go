package connectors

import (
	"context"
	"sync"
)

// Pipeline is what the sources and sinks of one statement share: a
// connector finds there the others of its kind that registered (a Kafka
// sink writing in transactions finds the Kafka sources whose read
// positions it commits with its transactions). The engine gives the same
// Pipeline to every reader and writer it opens for a statement, in their
// contexts (PipelineOf).
type Pipeline struct {
	mu    sync.Mutex
	items map[any][]any
}

// NewPipeline returns an empty pipeline (it allocates nothing until a
// connector registers).
func NewPipeline() *Pipeline { return &Pipeline{} }

// Add registers v under key (a connector's own unexported key type).
func (p *Pipeline) Add(key, v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.items == nil {
		p.items = map[any][]any{}
	}
	p.items[key] = append(p.items[key], v)
}

// Items returns what was registered under key, in order.
func (p *Pipeline) Items(key any) []any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]any(nil), p.items[key]...)
}

type pipelineKey struct{}

// WithPipeline returns ctx carrying p.
func WithPipeline(ctx context.Context, p *Pipeline) context.Context {
	return context.WithValue(ctx, pipelineKey{}, p)
}

// PipelineOf returns the pipeline ctx carries, or nil.
func PipelineOf(ctx context.Context) *Pipeline {
	p, _ := ctx.Value(pipelineKey{}).(*Pipeline)
	return p
}
