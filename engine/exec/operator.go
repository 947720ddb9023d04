package exec

import (
	"context"
	"fmt"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Operator produces a plan node's rows. Next returns the next non-empty
// batch, or nil at the end; Close releases inputs and may be called at any
// time, more than once.
type Operator interface {
	Next(ctx context.Context) (*vector.Batch, error)
	Close() error
}

// Tables opens the sources and sinks of the tables a plan reads and
// writes.
type Tables interface {
	// OpenScan returns a reader of every physical column of the scanned
	// table, in the order of Scan.Physical. It may apply Scan.Filters; the
	// executor applies them again.
	OpenScan(ctx context.Context, scan *plan.Scan) (connectors.Reader, error)
	// OpenSink returns a writer for the sink's table.
	OpenSink(ctx context.Context, sink *plan.Sink) (connectors.Writer, error)
}

// Options configure a statement's execution.
type Options struct {
	// Streaming selects streaming mode: aggregates emit changelogs.
	Streaming bool
	// Loc is table.local-time-zone (nil: UTC).
	Loc *time.Location
	// Now is the statement's start time (zero: time.Now()).
	Now time.Time
	// Tables opens table sources and sinks; nil when the plan reads none.
	Tables Tables
	// Catalog and Database are the session's current catalog and
	// database, for CURRENT_CATALOG and CURRENT_DATABASE.
	Catalog, Database string
	// MemoryBudget is the number of bytes (estimated) that a sort, a batch
	// aggregation or the build side of a hash join may hold before it
	// spills to unlinked temporary files (0: DefaultMemoryBudget); the
	// session sets it from eddy.exec.memory-budget.
	MemoryBudget int64
	// AggBudget, when positive, also caps the number of groups a batch
	// aggregation holds in memory before it spills the rows of further
	// groups.
	AggBudget int
	// SortBudget, when positive, also caps the number of rows a sort holds
	// in memory before it spills a sorted run.
	SortBudget int
	// JoinBudget, when positive, also caps the number of build rows a hash
	// join holds before it partitions both inputs to disk.
	JoinBudget int
	// Parallelism is how many workers a batch query's parallel pipelines
	// run on (see parallel.go); 0 or 1: one, the calling goroutine. The
	// session sets it from eddy.exec.parallelism.
	Parallelism int
	// MiniBatch is table.exec.mini-batch.* in streaming mode (minibatch.go).
	MiniBatch MiniBatch
}

// Builder turns plans into operators for one statement.
type Builder struct {
	opts Options
	env  *functions.Env
	// correlation bindings: the current outer row of each correlation id.
	corr map[int]*binding
	// view, in the builder of a parallel pipeline's worker, is the
	// worker's share of the scan's reader (parallel.go).
	view *morselView
	// joinUse is which output columns of each join are read (joinuse.go),
	// over every plan the builder was asked to build.
	joinUse *colUse
	// shared, in a worker's builder, is the table of each join in the
	// pipeline, built once for all workers (paralleljoin.go).
	shared map[*plan.Join]*sharedBuild
}

// binding is the current row of an outer input, read by CorrelRefs.
type binding struct {
	batch *vector.Batch
	row   int
}

// NewBuilder returns a builder for one statement.
func NewBuilder(opts Options) *Builder {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	loc := opts.Loc
	if loc == nil {
		loc = time.UTC
	}
	env := &functions.Env{Loc: loc, Now: opts.Now, Catalog: opts.Catalog, Database: opts.Database}
	return &Builder{opts: opts, env: env, corr: map[int]*binding{}}
}

// UnsupportedError reports a plan the executor cannot run yet.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return "Unsupported query: " + e.What }

// Class returns Flink's exception class for the error.
func (e *UnsupportedError) Class() string { return "TableException" }

// Build returns the operator for a plan. The plan is run as it is given:
// the caller optimizes it first (engine/opt), which prunes its scans and
// makes the streaming shapes (Top-N, semi joins, join strategies,
// changelog modes) explicit.
func (b *Builder) Build(n plan.Node) (Operator, error) {
	if b.joinUse == nil {
		b.joinUse = newColUse()
	}
	b.joinUse.root(n)
	if scan, work, ok := b.parallelPipeline(n); ok && work {
		return b.gather(n, scan)
	}
	switch n := n.(type) {
	case *plan.TopN:
		return b.topN(n)
	case *plan.Values:
		return b.values(n)
	case *plan.Scan:
		return b.scan(n)
	case *plan.Project:
		return b.project(n)
	case *plan.Filter:
		return b.filter(n)
	case *plan.Limit:
		return b.limit(n)
	case *plan.Sort:
		return b.sort(n, -1)
	case *plan.Join:
		// In streaming mode a join keeps the state of both inputs and
		// emits its changelog, unless the optimizer chose the batch hash
		// join (bounded insert-only inputs).
		if b.opts.Streaming && n.Strategy != plan.JoinHash {
			return b.streamJoin(n)
		}
		return b.join(n)
	case *plan.Aggregate:
		return b.aggregate(n)
	case *plan.SetOp:
		return b.setOp(n)
	case *plan.Over:
		return b.over(n)
	case *plan.Correlate:
		return b.correlate(n)
	case *plan.LookupJoin:
		return b.lookupJoin(n)
	case *plan.TemporalJoin:
		return b.temporalJoin(n)
	case *plan.IntervalJoin:
		return b.intervalJoin(n)
	case *plan.WindowJoin:
		return b.windowJoin(n)
	case *plan.Unnest:
		return b.unnest(n)
	case *plan.Sink:
		return b.sink(n)
	case *plan.WindowTVF:
		return b.windowTVF(n)
	case *plan.Match:
		return b.match(n)
	case *plan.ChangelogNormalize:
		return b.changelogNormalize(n)
	}
	return nil, &UnsupportedError{What: fmt.Sprintf("%T", n)}
}

func schemaTypes(s plan.Schema) []*types.Type { return s.Types() }

// emptyOp is an input with no rows.
type emptyOp struct{}

func (emptyOp) Next(context.Context) (*vector.Batch, error) { return nil, nil }
func (emptyOp) Close() error                                { return nil }

// Drain runs an operator to its end and returns all its rows in one batch
// of the given column types, copied once into columns of their total
// length (concatBatches).
func Drain(ctx context.Context, op Operator, ts []*types.Type) (*vector.Batch, error) {
	var batches []*vector.Batch
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			releaseAll(batches)
			return nil, err
		}
		b, err := op.Next(ctx)
		if err != nil {
			releaseAll(batches)
			return nil, err
		}
		if b == nil {
			return concatBatches(ts, batches, n), nil
		}
		batches = append(batches, b)
		n += b.N
	}
}

// concatBatches copies batches, n rows in all, into one batch of columns
// of types ts, allocated once, and gives each batch back to its producer:
// a batch is kept as it came until then (its producer refills it only
// once released), where growing the columns batch by batch would copy
// them again at each doubling and leave the old arrays behind.
func concatBatches(ts []*types.Type, batches []*vector.Batch, n int) *vector.Batch {
	rows := vector.NewBatch(ts, max(n, vector.BatchSize))
	for _, bt := range batches {
		rows.AppendBatch(bt)
		bt.Release()
	}
	return rows
}

// releaseAll gives batches back to their producers.
func releaseAll(batches []*vector.Batch) {
	for _, bt := range batches {
		bt.Release()
	}
}

// sliceOp returns one materialised batch in chunks of BatchSize.
type sliceOp struct {
	b   *vector.Batch
	pos int
}

func (s *sliceOp) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.b == nil || s.pos >= s.b.N {
		return nil, nil
	}
	if s.pos == 0 && s.b.N <= vector.BatchSize {
		s.pos = s.b.N
		return s.b, nil
	}
	end := min(s.pos+vector.BatchSize, s.b.N)
	sel := make([]int, end-s.pos)
	for i := range sel {
		sel[i] = s.pos + i
	}
	s.pos = end
	return s.b.Gather(sel), nil
}

func (s *sliceOp) Close() error { return nil }

// pullChanges feeds the batches of in to consume until consume returns a
// non-empty batch, which it returns; at the input's end it sets *done and
// returns nil. It is the loop of operators that answer each input batch
// with the changes it causes (streaming aggregates, Top-N).
func pullChanges(ctx context.Context, in Operator, done *bool,
	consume func(context.Context, *vector.Batch) (*vector.Batch, error)) (*vector.Batch, error) {
	for !*done {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if bt == nil {
			*done = true
			break
		}
		out, err := consume(ctx, bt)
		if err != nil {
			return nil, err
		}
		if out != nil && out.N > 0 {
			return out, nil
		}
	}
	return nil, nil
}
