package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Two-phase aggregation. A batch aggregation over a parallel pipeline
// whose functions merge exactly (twoPhase) runs as partial aggregations,
// one per worker over the batches it pulls, and a final aggregation of
// their rows:
//
//	COUNT     -> partial COUNT, final SUM0 of the counts
//	SUM       -> partial SUM, final SUM (integers wrap, DECIMAL is exact:
//	             the same total in any order; FLOAT and DOUBLE are not,
//	             and stay serial)
//	MIN, MAX  -> the same function again (not over FLOAT or DOUBLE, whose
//	             NaN makes the answer depend on the order)
//
// Every row also carries its ordinal (the reader's batch number and the
// row's position in what the pipeline made of it), and each group the
// smallest: the groups come out in the order of their first row, as the
// serial aggregation gives them. A global aggregation (one group) needs
// no ordinal. Each partial aggregation holds a share
// of the memory budget and spills as a serial one does.

// ordinalShift places a batch number above a row's position in an
// ordinal.
const ordinalShift = 32

// twoPhase reports whether n's aggregate functions merge exactly.
func twoPhase(n *plan.Aggregate) bool {
	if n.GroupingSets != nil || len(n.Aggs) == 0 {
		return false
	}
	for _, a := range n.Aggs {
		if a.Distinct || len(a.OrderBy) > 0 || !workerSafe(a.Args...) || !workerSafe(a.Filter) {
			return false
		}
		switch a.Name {
		case "COUNT":
		case "SUM":
			switch a.T.Kind {
			case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Decimal:
			default:
				return false
			}
		case "MIN", "MAX":
			switch a.T.Kind {
			case types.Float, types.Double:
				return false
			case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Decimal, types.Boolean,
				types.Char, types.VarChar, types.Date, types.Time, types.Timestamp, types.TimestampLTZ:
			default:
				return false
			}
		default:
			return false
		}
	}
	return workerSafe(n.Group...)
}

// parallelAggOp is a two-phase aggregation over a parallel pipeline.
type parallelAggOp struct {
	b       *Builder
	n       *plan.Aggregate
	m       *morsels
	partial *plan.Aggregate    // over the pipeline's columns and the ordinal
	final   *plan.Aggregate    // over the partial rows
	rows    chan *vector.Batch // the partial rows
	out     Operator           // the serial aggregation, or the ordered final rows
}

func (b *Builder) parallelAggregate(n *plan.Aggregate, scan *plan.Scan) (Operator, error) {
	m, err := b.newMorsels(n.Input, scan)
	if err != nil {
		return nil, err
	}
	m.unordered = true
	m.free = len(n.Group) == 0
	in := n.Input.Schema()
	ordCol := &plan.ColumnRef{Index: len(in), Name: "$ordinal", T: types.New(types.BigInt).WithNullable(false)}
	partIn := append(plan.Schema{}, in...)
	if !m.free {
		partIn = append(partIn, plan.Column{Name: ordCol.Name, Type: ordCol.T})
	}
	partial := &plan.Aggregate{Input: &plan.Values{Cols: partIn}, Group: n.Group, GroupNames: n.GroupNames}
	final := &plan.Aggregate{GroupNames: n.GroupNames}
	k := len(n.Group)
	for i, g := range n.Group {
		final.Group = append(final.Group, &plan.ColumnRef{Index: i, Name: n.GroupNames[i], T: g.Type()})
	}
	for i, a := range n.Aggs {
		p := plan.AggCall{Name: a.Name, Func: a.Func, Args: a.Args, Filter: a.Filter, Alias: a.Alias, T: a.T}
		partial.Aggs = append(partial.Aggs, p)
		merge := a.Name
		if merge == "COUNT" {
			merge = "SUM0"
		}
		ref := &plan.ColumnRef{Index: k + i, Name: a.Alias, T: a.T}
		final.Aggs = append(final.Aggs, plan.AggCall{Name: merge, Args: []plan.Expr{ref}, Alias: a.Alias, T: a.T})
	}
	if !m.free {
		first := plan.AggCall{Name: "MIN", Args: []plan.Expr{ordCol}, Alias: ordCol.Name, T: ordCol.T}
		partial.Aggs = append(partial.Aggs, first)
		last := &plan.ColumnRef{Index: k + len(n.Aggs), Name: ordCol.Name, T: ordCol.T}
		final.Aggs = append(final.Aggs, plan.AggCall{Name: "MIN", Args: []plan.Expr{last}, Alias: ordCol.Name, T: ordCol.T})
	}
	final.Input = &plan.Values{Cols: partial.Schema()}
	return &parallelAggOp{b: b, n: n, m: m, partial: partial, final: final,
		rows: make(chan *vector.Batch, 2*m.n)}, nil
}

func (o *parallelAggOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		if err := o.run(ctx); err != nil {
			return nil, err
		}
	}
	return o.out.Next(ctx)
}

// run aggregates the whole input: on the workers, then the final
// aggregation of their rows, ordered by first appearance.
func (o *parallelAggOp) run(ctx context.Context) error {
	m := o.m
	if err := m.start(ctx, o.work); err != nil {
		return err
	}
	if m.serial {
		agg, err := o.b.newAggOp(o.n, m.pipes[0], false)
		if err != nil {
			return err
		}
		o.out = agg
		return nil
	}
	// The final aggregation takes the partial rows as the workers emit
	// them, and a sort by first appearance its groups: a quarter of the
	// budget each, the partial aggregations share the other half.
	go func() {
		m.wg.Wait()
		close(o.rows)
	}()
	budget := o.b.memoryBudget()
	opts := o.b.opts
	opts.Parallelism = 1
	opts.MemoryBudget = max(budget/4, 1)
	fb := &Builder{opts: opts, env: o.b.env, corr: o.b.corr}
	fin, err := fb.newAggOp(o.final, &chanOp{ch: o.rows, m: m}, false)
	if err != nil {
		return err
	}
	if m.free {
		// One group, no order to restore.
		o.out = fin
		return nil
	}
	out, err := o.b.byOrdinal(fin, o.final.Schema(), budget/4)
	if err != nil {
		fin.Close()
		return err
	}
	o.out = out
	return nil
}

// work is worker w: a partial aggregation of the batches it pulls, with
// a share of the memory budget.
func (o *parallelAggOp) work(ctx context.Context, w int) error {
	m := o.m
	opts := o.b.opts
	opts.Parallelism = 1
	opts.MemoryBudget = max(o.b.memoryBudget()/int64(2*m.n), 1)
	if opts.AggBudget > 0 {
		opts.AggBudget = max(opts.AggBudget/m.n, 1)
	}
	pb := &Builder{opts: opts, env: o.b.env, corr: o.b.corr}
	var in Operator = &ordinalOp{pipe: m.pipes[w], v: m.views[w]}
	if m.free {
		in = m.pipes[w]
	}
	agg, err := pb.newAggOp(o.partial, in, false)
	if err != nil {
		return err
	}
	defer agg.Close()
	for {
		bt, err := agg.Next(ctx)
		if err != nil {
			return err
		}
		if bt == nil {
			return nil
		}
		if err := m.send(o.rows, bt); err != nil {
			return err
		}
	}
}

func (o *parallelAggOp) Close() error {
	err := o.m.close()
	if o.out != nil {
		if e := o.out.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// ordinalOp passes a worker pipeline's batches on with each row's ordinal
// as one more column.
type ordinalOp struct {
	pipe Operator
	v    *morselView
}

func (o *ordinalOp) Next(ctx context.Context) (*vector.Batch, error) {
	bt, err := o.pipe.Next(ctx)
	if err != nil || bt == nil {
		return nil, err
	}
	base := o.v.pending << ordinalShift
	ords := make([]int64, bt.N)
	for i := range ords {
		ords[i] = base | int64(i)
	}
	col := &vector.Vec{T: types.New(types.BigInt).WithNullable(false), Class: vector.Int, Len: bt.N, Ints: ords}
	cols := append(append(make([]*vector.Vec, 0, len(bt.Cols)+1), bt.Cols...), col)
	return &vector.Batch{Cols: cols, Kinds: bt.Kinds, N: bt.N}, nil
}

func (o *ordinalOp) Close() error { return nil }
