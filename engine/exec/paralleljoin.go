package exec

import (
	"context"
	"errors"

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
		w.liBuf, w.riBuf, w.zeros, w.spares = nil, nil, nil, nil
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

// Joins inside a pipeline. An inner, left, semi or anti hash join whose
// probe input is a pipeline is itself a step of the pipeline (Project
// and Filter nodes, such joins, down to one Scan): its build input is
// read and its table built once, before the workers start, and each
// worker's join probes that table with the batches it pulls. The
// consumer of the pipeline then runs as it does over any pipeline: an
// ordered gather, or a two-phase aggregation whose partial aggregates
// run on the workers next to the probes. A build input over the budget
// makes the whole pipeline run on one worker, whose join partitions it
// as the serial join does (joinspill.go). RIGHT and FULL joins, whose
// unmatched build rows follow the probe, keep the parallel probe above.

// pipelineJoin reports whether n may be a step of a parallel pipeline.
func pipelineJoin(n *plan.Join) bool {
	switch n.Kind {
	case plan.InnerJoin, plan.LeftJoin, plan.SemiJoin, plan.AntiJoin:
		return parallelJoinable(n)
	}
	return false
}

// sharedBuild is the table of a join in a pipeline, built once for the
// workers and read by all of them.
type sharedBuild struct {
	right   Operator // the build input, until a worker's grace join takes it
	t       *joinOp  // holds the table once built
	pending *vector.Batch
	over    bool // the build input went over the budget
}

// sharedBuilds makes the shared tables of the joins in the pipeline p,
// with their build inputs built by b.
func (b *Builder) sharedBuilds(p plan.Node) (map[*plan.Join]*sharedBuild, []*sharedBuild, error) {
	var m map[*plan.Join]*sharedBuild
	var list []*sharedBuild
	for p != nil {
		switch x := p.(type) {
		case *plan.Project:
			p = x.Input
		case *plan.Filter:
			p = x.Input
		case *plan.Join:
			s, err := b.newSharedBuild(x)
			if err != nil {
				closeShared(list)
				return nil, nil, err
			}
			if m == nil {
				m = map[*plan.Join]*sharedBuild{}
			}
			m[x], list = s, append(list, s)
			p = x.Left
		default:
			p = nil
		}
	}
	return m, list, nil
}

func (b *Builder) newSharedBuild(n *plan.Join) (*sharedBuild, error) {
	right, err := b.Build(n.Right)
	if err != nil {
		return nil, err
	}
	t := &joinOp{n: n, right: right,
		leftTypes: n.Left.Schema().Types(), rightTypes: n.Right.Schema().Types(), outTypes: n.Schema().Types(),
		budget: b.opts.JoinBudget, memBudget: b.memoryBudget(), streaming: b.opts.Streaming}
	for _, k := range n.EquiKeys {
		r, err := b.compile(k.Right)
		if err != nil {
			right.Close()
			return nil, err
		}
		t.rkeys = append(t.rkeys, r)
		t.nullSafe = append(t.nullSafe, k.NullSafe)
	}
	return &sharedBuild{right: right, t: t}, nil
}

// build reads the build input and builds the table, unless the input
// goes over the budget (over is then set).
func (s *sharedBuild) build(ctx context.Context) error {
	rows, pending, err := s.t.readBuild(ctx)
	if err != nil {
		return err
	}
	if pending != nil {
		s.t.rows, s.pending, s.over = rows, pending, true
		return nil
	}
	return s.t.buildTable(ctx, rows)
}

func (s *sharedBuild) close() error {
	if s.right == nil {
		return nil
	}
	err := s.right.Close()
	s.right = nil
	return err
}

func closeShared(list []*sharedBuild) error {
	var err error
	for _, s := range list {
		err = errors.Join(err, s.close())
	}
	return err
}

// buildShared builds the shared tables of a pipeline's joins, inner
// joins first; over reports whether one went over the budget.
func buildShared(ctx context.Context, list []*sharedBuild) (over bool, err error) {
	for i := len(list) - 1; i >= 0; i-- {
		if err := list[i].build(ctx); err != nil {
			return false, err
		}
		over = over || list[i].over
	}
	return over, nil
}

// adopt makes o probe the table t holds; o's matched build rows are its
// own (a pipeline's joins keep none).
func (o *joinOp) adopt(t *joinOp) {
	o.rows, o.table, o.intHead, o.intNext, o.intNullHead = t.rows, t.table, t.intHead, t.intNext, t.intNullHead
	o.dense, o.denseMin, o.unique = t.dense, t.denseMin, t.unique
	o.strHead, o.strKeys, o.strFirst = t.strHead, t.strKeys, t.strFirst
	o.matchedRight = nil
	o.built = true
}
