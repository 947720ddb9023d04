package connectors

import (
	"bufio"
	"context"
	"io"
	"strings"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// The print sink (connectors.md §2): one line per row, written as the rows
// arrive, in the form of Flink's Row.toString (`+I[1, abc]`, NULL as
// `null`), prefixed with `<print-identifier>> ` when the option is set
// (eddy runs every sink with parallelism 1, so no task index is shown).
// 'standard-error' = 'true' selects the session's error writer.

// printFactory is the print connector: a sink only, taking a changelog
// as it is (every row shows its kind).
func printFactory() *Factory {
	return &Factory{
		Identifier: "print",
		Required:   []string{"connector"},
		Optional:   []string{"print-identifier", "standard-error", "sink.parallelism"},
		Sink: func(_ context.Context, env *Env, t *Table, _ WriteSpec) (Writer, error) {
			return openPrintWriter(env, t)
		},
		Abilities: func(*Table) Abilities { return Abilities{Bounded: true, Accepts: FullChangelog} },
	}
}

type printWriter struct {
	w      *bufio.Writer
	prefix string
	ts     []*types.Type
}

func openPrintWriter(env *Env, t *Table) (Writer, error) {
	toErr := false
	if v, ok := t.Options["standard-error"]; ok {
		b, err := parseBool("standard-error", v)
		if err != nil {
			return nil, err
		}
		toErr = b
	}
	out := env.Stdout
	if toErr {
		out = env.Stderr
	}
	if out == nil {
		out = io.Discard
	}
	prefix := ""
	if id, ok := t.Options["print-identifier"]; ok {
		prefix = id + "> "
	}
	return &printWriter{w: bufio.NewWriter(out), prefix: prefix, ts: t.Types()}, nil
}

func (p *printWriter) Write(ctx context.Context, b *vector.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var line strings.Builder
	for i := range b.N {
		line.Reset()
		line.WriteString(p.prefix)
		line.WriteString(b.Kind(i).String())
		line.WriteByte('[')
		for c, v := range b.Cols {
			if c > 0 {
				line.WriteString(", ")
			}
			x := v.Get(i)
			if x == nil {
				line.WriteString("null")
			} else {
				line.WriteString(types.ValueString(x, p.ts[c]))
			}
		}
		line.WriteString("]\n")
		if _, err := p.w.WriteString(line.String()); err != nil {
			return err
		}
	}
	// Rows are shown as they arrive, as Flink's print sink does.
	return p.w.Flush()
}

func (p *printWriter) Commit(context.Context) error { return p.w.Flush() }
func (p *printWriter) Abort() error                 { return p.w.Flush() }
