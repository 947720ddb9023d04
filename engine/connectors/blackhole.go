package connectors

import (
	"context"

	"eddy/engine/vector"
)

// blackholeFactory is the blackhole connector: a sink that discards every
// row, of any row kind.
func blackholeFactory() *Factory {
	return &Factory{
		Identifier: "blackhole",
		Required:   []string{"connector"},
		Sink: func(context.Context, *Env, *Table, WriteSpec) (Writer, error) {
			return discard{}, nil
		},
		Abilities: func(*Table) Abilities { return Abilities{Bounded: true, Accepts: FullChangelog} },
	}
}

type discard struct{}

func (discard) Write(context.Context, *vector.Batch) error { return nil }
func (discard) Commit(context.Context) error               { return nil }
func (discard) Abort() error                               { return nil }
