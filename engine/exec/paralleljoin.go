package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/vector"
)

// Parallel probe. A batch hash join whose probe (left) input is a
// parallel pipeline builds its hash table once, from the build input
// (itself parallel when it is such a pipeline), and then each worker
// probes the table with the batches it pulls, with its own compiled keys
// and residual condition and its own record of the build rows it
// matched. The gather returns the probed batches in the probe reader's
// order, which is the serial join's order; a RIGHT or FULL join's
// unmatched build rows follow once every worker is done, as in the
// serial join. A build side over the memory budget (a grace hash join)
// probes its partitions serially, its left rows gathered in order.

// parallelProbe is the parallel part of a join (joinOp.par).
type parallelProbe struct {
	b      *Builder
	g      *gatherOp
	probes []*joinOp // per worker: the shared table, its own keys and matches
	on     bool
}

// parallelJoinable reports whether n's probe can run on the workers of
// its left input's pipeline: an equi-join whose keys and condition every
// worker can compile.
func parallelJoinable(n *plan.Join) bool {
	if len(n.EquiKeys) == 0 || !workerSafe(n.Residual) {
		return false
	}
	for _, k := range n.EquiKeys {
		if !workerSafe(k.Left, k.Right) {
			return false
		}
	}
	return true
}

// buildLeft returns the operator of a join's left input: a gather when
// the probe may run in parallel (par is then set).
func (b *Builder) buildLeft(n *plan.Join) (Operator, *parallelProbe, error) {
	if scan, _, ok := b.parallelPipeline(n.Left); ok && parallelJoinable(n) {
		m, err := b.newMorsels(n.Left, scan)
		if err != nil {
			return nil, nil, err
		}
		g := &gatherOp{m: m}
		return g, &parallelProbe{b: b, g: g}, nil
	}
	op, err := b.Build(n.Left)
	return op, nil, err
}

// enable makes the workers probe o's table, once it is built in memory.
func (p *parallelProbe) enable(o *joinOp) error {
	n := p.g.m.n
	for range n {
		w := *o
		w.left, w.right, w.par, w.grace = nil, nil, nil, nil
		w.liBuf, w.riBuf, w.zeros = nil, nil, nil
		w.lkeys, w.residual = nil, nil
		w.matchedRight = nil
		if o.n.Kind == plan.RightJoin || o.n.Kind == plan.FullJoin {
			w.matchedRight = make([]bool, len(o.matchedRight))
		}
		for _, k := range o.n.EquiKeys {
			ev, err := p.b.compile(k.Left)
			if err != nil {
				return err
			}
			w.lkeys = append(w.lkeys, ev)
		}
		if o.n.Residual != nil {
			ev, err := p.b.compile(o.n.Residual)
			if err != nil {
				return err
			}
			w.residual = ev
		}
		p.probes = append(p.probes, &w)
	}
	p.g.stage = func(ctx context.Context, w int, bt *vector.Batch) (*vector.Batch, error) {
		out, err := p.probes[w].probe(ctx, bt)
		if err != nil {
			return nil, err
		}
		// The probe may reuse its buffers, never its output's vectors.
		return out, nil
	}
	p.on = true
	return nil
}

// next returns the next probed batch; at the end it merges the workers'
// matched build rows into o's.
func (p *parallelProbe) next(ctx context.Context, o *joinOp) (*vector.Batch, error) {
	out, err := p.g.Next(ctx)
	if err != nil || out != nil {
		return out, err
	}
	for _, w := range p.probes {
		for r, m := range w.matchedRight {
			if m {
				o.matchedRight[r] = true
			}
		}
	}
	return nil, nil
}
