package exec

import (
	"context"
	"hash/maphash"
	"sync"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Partitioned aggregation. A grouped batch aggregation over a parallel
// pipeline whose functions do not merge exactly (DISTINCT, FLOAT and
// DOUBLE sums, AVG, LISTAGG, FIRST_VALUE, ...) runs as one aggregation
// per partition of the groups: the workers run the pipeline, hash each
// row's group key to a partition and number it (its ordinal, see
// parallelagg.go); the consumer hands the workers' batches, in the
// reader's order, to every partition's aggregation, which takes its own
// rows. Each group's rows thus reach one aggregation in the serial order:
// every function gives the serial answer (a floating-point sum adds in
// the same order). The groups come out ordered by their first row, as
// the serial aggregation gives them.

// partitionable reports whether n may aggregate by partitions of its
// groups.
func partitionable(n *plan.Aggregate) bool {
	if n.GroupingSets != nil || len(n.Group) == 0 || !workerSafe(n.Group...) {
		return false
	}
	for _, a := range n.Aggs {
		if !workerSafe(a.Args...) || !workerSafe(a.Filter) {
			return false
		}
		for _, k := range a.OrderBy {
			if !workerSafe(k.Expr) {
				return false
			}
		}
	}
	return true
}

// partAggOp is a partitioned aggregation over a parallel pipeline.
type partAggOp struct {
	b     *Builder
	n     *plan.Aggregate
	g     *gatherOp
	wide  *plan.Aggregate // n over the input, ordinal and partition columns, with MIN(ordinal)
	seed  maphash.Seed
	width int
	out   Operator
	wg    sync.WaitGroup // the partitions' aggregations
}

func (b *Builder) partitionedAggregate(n *plan.Aggregate, scan *plan.Scan) (Operator, error) {
	m, err := b.newMorsels(n.Input, scan)
	if err != nil {
		return nil, err
	}
	in := n.Input.Schema()
	intT := types.New(types.BigInt).WithNullable(false)
	cols := append(append(plan.Schema{}, in...), plan.Column{Name: "$ordinal", Type: intT}, plan.Column{Name: "$part", Type: intT})
	wide := &plan.Aggregate{Input: &plan.Values{Cols: cols}, Group: n.Group, GroupNames: n.GroupNames,
		Aggs: append(append([]plan.AggCall{}, n.Aggs...), plan.AggCall{Name: "MIN",
			Args: []plan.Expr{&plan.ColumnRef{Index: len(in), Name: "$ordinal", T: intT}}, Alias: "$ordinal", T: intT})}
	o := &partAggOp{b: b, n: n, g: &gatherOp{m: m}, wide: wide, seed: maphash.MakeSeed(), width: len(in)}
	keyEvs := make([][]evaluator, m.n)
	for w := range m.n {
		wb := &Builder{opts: b.opts, env: b.env, corr: b.corr}
		if keyEvs[w], err = wb.compileAll(n.Group); err != nil {
			m.close()
			return nil, err
		}
	}
	o.g.stage = func(ctx context.Context, w int, bt *vector.Batch) (*vector.Batch, error) {
		keys, err := evalAll(ctx, keyEvs[w], bt)
		if err != nil {
			return nil, err
		}
		base := m.views[w].pending << ordinalShift
		ords, parts := make([]int64, bt.N), make([]int64, bt.N)
		var buf []byte
		for i := range bt.N {
			ords[i] = base | int64(i)
			buf = buf[:0]
			for _, k := range keys {
				buf = vector.AppendKey(buf, k, i)
			}
			parts[i] = int64(maphash.Bytes(o.seed, buf) % uint64(m.n))
		}
		cols := append(append(make([]*vector.Vec, 0, len(bt.Cols)+2), bt.Cols...),
			&vector.Vec{T: intT, Class: vector.Int, Len: bt.N, Ints: ords},
			&vector.Vec{T: intT, Class: vector.Int, Len: bt.N, Ints: parts})
		return &vector.Batch{Cols: cols, Kinds: bt.Kinds, N: bt.N}, nil
	}
	return o, nil
}

func (o *partAggOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		if err := o.run(ctx); err != nil {
			return nil, err
		}
	}
	return o.out.Next(ctx)
}

// run feeds the workers' batches, in order, to one aggregation per
// partition on goroutines of their own, and orders their groups.
func (o *partAggOp) run(ctx context.Context) error {
	m := o.g.m
	first, err := o.g.Next(ctx)
	if err != nil {
		return err
	}
	if m.serial {
		// The stage ran on the caller: aggregate its batches (input,
		// ordinal and partition columns) serially, which is the serial
		// plan over the input columns.
		agg, err := o.b.newAggOp(o.wide, &prependOp{first: first, in: o.g}, false)
		if err != nil {
			return err
		}
		o.out = &dropLastOp{in: agg}
		return nil
	}
	// Each partition aggregates with a share of half the budget; its
	// groups go, as it emits them, to a sort by first appearance, which
	// has the other half.
	rctx := m.rctx
	out := make(chan *vector.Batch, 2*m.n)
	chans := make([]chan *vector.Batch, m.n)
	for p := range m.n {
		chans[p] = make(chan *vector.Batch, 4)
	}
	for p := range m.n {
		opts := o.b.opts
		opts.Parallelism = 1
		opts.MemoryBudget = max(o.b.memoryBudget()/int64(2*m.n), 1)
		if opts.AggBudget > 0 {
			opts.AggBudget = max(opts.AggBudget/m.n, 1)
		}
		pb := &Builder{opts: opts, env: o.b.env, corr: o.b.corr}
		agg, err := pb.newAggOp(o.wide, &partFeedOp{ch: chans[p], part: int64(p), col: o.width + 1}, false)
		if err != nil {
			m.fail(err)
			for _, ch := range chans {
				close(ch)
			}
			return err
		}
		o.wg.Add(1)
		go func() {
			defer o.wg.Done()
			defer agg.Close()
			for {
				bt, err := agg.Next(rctx)
				if err == nil && bt != nil {
					err = m.send(out, bt)
				}
				if err != nil {
					m.fail(err)
					for range chans[p] {
					}
					return
				}
				if bt == nil {
					return
				}
			}
		}()
	}
	go func() {
		o.wg.Wait()
		close(out)
	}()
	bt := first
	for bt != nil {
		for _, ch := range chans {
			if err = m.send(ch, bt); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
		if bt, err = o.g.Next(ctx); err != nil {
			break
		}
	}
	for _, ch := range chans {
		close(ch)
	}
	if err != nil {
		return err
	}
	sorted, err := o.b.byOrdinal(&chanOp{ch: out, m: m}, o.wide.Schema(), o.b.memoryBudget()/2)
	if err != nil {
		return err
	}
	o.out = sorted
	return nil
}

func (o *partAggOp) Close() error {
	err := o.g.Close()
	o.wg.Wait()
	if o.out != nil {
		if e := o.out.Close(); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// partFeedOp is a partition's input: the rows of its partition (column
// col) of the batches sent on ch.
type partFeedOp struct {
	ch   chan *vector.Batch
	part int64
	col  int
}

func (o *partFeedOp) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		var bt *vector.Batch
		select {
		case b, ok := <-o.ch:
			if !ok {
				return nil, nil
			}
			bt = b
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		parts := bt.Cols[o.col].Ints
		var sel []int
		for i, p := range parts {
			if p == o.part {
				sel = append(sel, i)
			}
		}
		if len(sel) == 0 {
			continue
		}
		if len(sel) == bt.N {
			return bt, nil
		}
		return bt.Gather(sel), nil
	}
}

func (o *partFeedOp) Close() error { return nil }

// prependOp returns first, then in's batches.
type prependOp struct {
	first *vector.Batch
	in    Operator
}

func (o *prependOp) Next(ctx context.Context) (*vector.Batch, error) {
	if b := o.first; b != nil {
		o.first = nil
		return b, nil
	}
	return o.in.Next(ctx)
}

func (o *prependOp) Close() error { return o.in.Close() }

// dropLastOp passes its input's batches on without their last column.
type dropLastOp struct{ in Operator }

func (o *dropLastOp) Next(ctx context.Context) (*vector.Batch, error) {
	b, err := o.in.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	return &vector.Batch{Cols: b.Cols[:len(b.Cols)-1], Kinds: b.Kinds, N: b.N}, nil
}

func (o *dropLastOp) Close() error { return o.in.Close() }
