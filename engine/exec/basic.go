package exec

import (
	"context"
	"errors"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// values evaluates each row of a VALUES list once.
func (b *Builder) values(n *plan.Values) (Operator, error) {
	rows := make([][]evaluator, len(n.Rows))
	for i, r := range n.Rows {
		evs, err := b.compileAll(r)
		if err != nil {
			return nil, err
		}
		rows[i] = evs
	}
	ts := schemaTypes(n.Cols)
	return &valuesOp{b: b, rows: rows, rowExprs: n.Rows, types: ts}, nil
}

type valuesOp struct {
	b        *Builder
	rows     [][]evaluator
	rowExprs [][]plan.Expr
	types    []*types.Type
	pos      int
}

// oneRowBatch is a batch of one row and no columns: the input of a VALUES
// row.
func oneRowBatch() *vector.Batch { return &vector.Batch{N: 1} }

func (o *valuesOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.pos >= len(o.rows) {
		return nil, nil
	}
	out := vector.NewBatch(o.types, min(len(o.rows)-o.pos, vector.BatchSize))
	one := oneRowBatch()
	vals := make([]any, len(o.types))
	for o.pos < len(o.rows) && out.N < vector.BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for c, ev := range o.rows[o.pos] {
			v, err := ev(ctx, one)
			if err != nil {
				return nil, err
			}
			x := v.Get(0)
			from := o.rowExprs[o.pos][c].Type()
			if x != nil && vector.ClassOf(from) != vector.ClassOf(o.types[c]) || x != nil && needsCast(from, o.types[c]) {
				x, err = castOne(x, from, o.types[c], o.b.env.Loc)
				if err != nil {
					return nil, err
				}
			}
			vals[c] = x
		}
		out.AppendRow(types.Insert, vals)
		o.pos++
	}
	return out, nil
}

// needsCast reports whether a value of type from must be converted to be
// stored as type to (same class but a different representation).
func needsCast(from, to *types.Type) bool {
	switch to.Kind {
	case types.Decimal:
		return from.Kind != types.Decimal || from.Scale != to.Scale
	case types.Char:
		return from.Kind != types.Char || from.Length != to.Length
	case types.Timestamp, types.TimestampLTZ, types.Time:
		return from.Kind != to.Kind || from.Prec > to.Prec
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.Float:
		return from.Kind != to.Kind
	}
	return false
}

func (o *valuesOp) Close() error { return nil }

// scan reads a table through Tables, filters with the pushed-down
// conditions and projects.
func (b *Builder) scan(n *plan.Scan) (Operator, error) {
	if b.opts.Tables == nil {
		return nil, &UnsupportedError{What: "no table access for " + n.Table.String()}
	}
	var cond evaluator
	if f := plan.And(n.Filters...); f != nil {
		ev, err := b.compile(f)
		if err != nil {
			return nil, err
		}
		cond = ev
	}
	if b.view != nil {
		o := &scanOp{b: b, n: n, cond: cond, r: b.view}
		b.view.scan = o
		return o, nil
	}
	return &scanOp{b: b, n: n, cond: cond}, nil
}

type scanOp struct {
	b    *Builder
	n    *plan.Scan
	cond evaluator
	r    connectors.Reader
	done bool
	// pushed is set when the reader took columns and filters (see
	// openPushdown): its batches hold the columns cols, cond is the
	// filters it did not take (residual, over the read columns), out the
	// batch columns of the output.
	pushed   bool
	cols     []int
	out      []int
	residual plan.Expr
}

func (o *scanOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.done {
		return nil, nil
	}
	if o.r == nil {
		if err := o.open(ctx); err != nil {
			return nil, err
		}
	}
	proj := o.n.Projection
	if o.pushed {
		proj = o.out
	}
	return o.nextRows(ctx, proj)
}

// open opens the scan's reader and offers it the scan's columns and
// filters.
func (o *scanOp) open(ctx context.Context) error {
	r, err := o.b.opts.Tables.OpenScan(ctx, o.n)
	if err != nil {
		return err
	}
	o.r = r
	if pd, ok := r.(connectors.Pushdown); ok {
		return o.openPushdown(pd)
	}
	return nil
}

func (o *scanOp) Close() error {
	if o.r == nil {
		return nil
	}
	r := o.r
	o.r = nil
	return r.Close()
}

// filterBatch keeps the rows of bt where cond is TRUE.
func filterBatch(ctx context.Context, cond evaluator, bt *vector.Batch) (*vector.Batch, error) {
	c, err := cond(ctx, bt)
	if err != nil {
		return nil, err
	}
	sel := make([]int, 0, bt.N)
	for i := range bt.N {
		if !c.IsNull(i) && c.Bools[i] {
			sel = append(sel, i)
		}
	}
	if len(sel) == bt.N {
		return bt, nil
	}
	// The rows kept are copied: the input is done with.
	out := bt.Gather(sel)
	bt.Release()
	return out, nil
}

func (b *Builder) project(n *plan.Project) (Operator, error) {
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	evs, err := b.compileAll(n.Exprs)
	if err != nil {
		in.Close()
		return nil, err
	}
	return &projectOp{in: in, evs: evs, types: schemaTypes(n.Schema()), loc: b.env.Loc}, nil
}

type projectOp struct {
	in    Operator
	evs   []evaluator
	types []*types.Type
	loc   *time.Location
}

// conform gives a vector the declared type t: the same vector relabelled
// when the representation already fits, else its values cast one by one
// (a plan that leaves a widening to the executor).
func conform(v *vector.Vec, t *types.Type, loc *time.Location) (*vector.Vec, error) {
	if v.T == t {
		return v, nil
	}
	if v.Class == vector.ClassOf(t) && !needsCast(v.T, t) {
		cp := *v
		cp.T = t
		return &cp, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	out := vector.New(t, v.Len)
	for i := range v.Len {
		x := v.Get(i)
		if x != nil {
			c, err := castOne(x, v.T, t, loc)
			if err != nil {
				return nil, err
			}
			x = c
		}
		out.Append(x)
	}
	return out, nil
}

func (o *projectOp) Next(ctx context.Context) (*vector.Batch, error) {
	bt, err := o.in.Next(ctx)
	if err != nil || bt == nil {
		return nil, err
	}
	out := &vector.Batch{Cols: make([]*vector.Vec, len(o.evs)), Kinds: bt.Kinds, N: bt.N}
	for i, ev := range o.evs {
		v, err := ev(ctx, bt)
		if err != nil {
			return nil, err
		}
		if v, err = conform(v, o.types[i], o.loc); err != nil {
			return nil, err
		}
		out.Cols[i] = v
	}
	return out.Inherit(bt), nil
}

func (o *projectOp) Close() error { return o.in.Close() }

func (b *Builder) filter(n *plan.Filter) (Operator, error) {
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	cond, err := b.compile(n.Cond)
	if err != nil {
		in.Close()
		return nil, err
	}
	return &filterOp{in: in, cond: cond}, nil
}

type filterOp struct {
	in   Operator
	cond evaluator
}

func (o *filterOp) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := o.in.Next(ctx)
		if err != nil || bt == nil {
			return nil, err
		}
		out, err := filterBatch(ctx, o.cond, bt)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

func (o *filterOp) Close() error { return o.in.Close() }

// limit passes Offset..Offset+Fetch rows and stops pulling its input once
// it has them; above a Sort it becomes a Top-N.
func (b *Builder) limit(n *plan.Limit) (Operator, error) {
	if s, ok := n.Input.(*plan.Sort); ok && n.Fetch >= 0 && !b.opts.Streaming {
		in, err := b.sort(s, n.Offset+n.Fetch)
		if err != nil {
			return nil, err
		}
		return &limitOp{in: in, offset: n.Offset, fetch: n.Fetch}, nil
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	return &limitOp{in: in, offset: n.Offset, fetch: n.Fetch}, nil
}

type limitOp struct {
	in            Operator
	offset, fetch int64
	seen          int64 // rows passed or skipped so far
}

func (o *limitOp) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		if o.fetch >= 0 && o.seen >= o.offset+o.fetch {
			return nil, o.in.Close()
		}
		bt, err := o.in.Next(ctx)
		if err != nil || bt == nil {
			return nil, err
		}
		start, end := int64(0), int64(bt.N)
		if o.seen < o.offset {
			start = min(o.offset-o.seen, end)
		}
		if o.fetch >= 0 {
			end = min(end, o.offset+o.fetch-o.seen)
		}
		o.seen += int64(bt.N)
		if start >= end {
			continue
		}
		if start == 0 && end == int64(bt.N) {
			return bt, nil
		}
		sel := make([]int, 0, end-start)
		for i := start; i < end; i++ {
			sel = append(sel, int(i))
		}
		return bt.Gather(sel), nil
	}
}

func (o *limitOp) Close() error { return o.in.Close() }

// sink writes its input into a table and commits at the end; on any
// error the writer is aborted, so a failed INSERT writes nothing.
func (b *Builder) sink(n *plan.Sink) (Operator, error) {
	if b.opts.Tables == nil {
		return nil, &UnsupportedError{What: "no table access for " + n.Table.String()}
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	return &sinkOp{b: b, n: n, in: in}, nil
}

type sinkOp struct {
	b    *Builder
	n    *plan.Sink
	in   Operator
	done bool
	// Rows counts the rows written.
	Rows int64
}

func (o *sinkOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.done {
		return nil, nil
	}
	o.done = true
	w, err := o.b.opts.Tables.OpenSink(ctx, o.n)
	if err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, errors.Join(err, w.Abort())
		}
		bt, err := o.in.Next(ctx)
		if err != nil {
			return nil, errors.Join(err, w.Abort())
		}
		if bt == nil {
			break
		}
		if err := w.Write(ctx, bt); err != nil {
			return nil, errors.Join(err, w.Abort())
		}
		o.Rows += int64(bt.N)
	}
	if err := w.Commit(ctx); err != nil {
		return nil, errors.Join(err, w.Abort())
	}
	return nil, nil
}

func (o *sinkOp) Close() error { return o.in.Close() }
