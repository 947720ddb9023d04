package opt

import (
	"eddy/engine/plan"
)

// PushDown rewrites a plan so that every scan reads only the columns the
// operators above it use (Scan.Projection) and carries the filters
// directly above it (Scan.Filters), as far as src says the scan's source
// takes them (nil src is DefaultSources). The operators above a pruned
// scan get their column references renumbered. Plans with sub-queries or
// correlated joins are left as they are: their inner plans read the outer
// row by position.
func PushDown(n plan.Node, src Sources) plan.Node {
	if src == nil {
		src = DefaultSources{}
	}
	safe := true
	plan.WalkOnce(n, func(x plan.Node) {
		if _, ok := x.(*plan.Correlate); ok {
			safe = false
		}
		for _, e := range plan.NodeExprs(x) {
			plan.WalkExpr(e, func(e plan.Expr) bool {
				switch e.(type) {
				case *plan.SubQuery, *plan.CorrelRef:
					safe = false
				}
				return safe
			})
		}
	})
	if !safe {
		// The executor builds each sub-query plan and the right side of
		// each Correlate as a plan of its own when it runs it: those are
		// pushed down alone.
		out, err := pushNested(n, src)
		if err != nil {
			return n
		}
		return out
	}
	p := pruner{src: src, done: map[pruneKey]pruned{}}
	out, _, ok := p.prune(n, nil)
	if !ok {
		return n
	}
	return out
}

// pushNested pushes down the plans below n that the executor builds as
// roots of their own, and leaves the rest as it is.
func pushNested(n plan.Node, src Sources) (plan.Node, error) {
	return mapNode(n, func(c plan.Node) (plan.Node, error) { return pushNested(c, src) },
		func(q plan.Node) (plan.Node, error) { return PushDown(q, src), nil })
}

// remapExpr renumbers the column references of e with m (old position to
// new).
func remapExpr(e plan.Expr, m []int) plan.Expr { return plan.RemapColumns(e, m) }

func remapKeys(ks []plan.SortKey, m []int) []plan.SortKey {
	out := make([]plan.SortKey, len(ks))
	for i, k := range ks {
		out[i] = k
		out[i].Expr = remapExpr(k.Expr, m)
	}
	return out
}

// prune returns n rewritten so that the scans below it read only what is
// needed to produce the columns of need (nil: all), and m, the new
// position of each of n's output columns (-1 for one no longer produced;
// nil when nothing moved). ok is false when a node could not be rebuilt.
func (p pruner) prune(n plan.Node, need plan.ColSet) (plan.Node, []int, bool) {
	key := pruneKey{n: n, need: needKey(need)}
	if r, ok := p.done[key]; ok {
		return r.n, r.m, r.ok
	}
	out, m, ok := p.pruneNode(n, need)
	p.done[key] = pruned{out, m, ok}
	return out, m, ok
}

// needKey spells a plan.ColSet as a map key ("*" for every column).
func needKey(need plan.ColSet) string {
	if need == nil {
		return "*"
	}
	b := make([]byte, len(need))
	for i, x := range need {
		b[i] = '0'
		if x {
			b[i] = '1'
		}
	}
	return string(b)
}

func (p pruner) pruneNode(n plan.Node, need plan.ColSet) (plan.Node, []int, bool) {
	switch x := n.(type) {
	case *plan.Scan:
		return p.pruneScan(x, nil, need)
	case *plan.Filter:
		if s, isScan := x.Input.(*plan.Scan); isScan {
			return p.pruneScan(s, plan.Conjuncts(x.Cond), need)
		}
		width := len(x.Input.Schema())
		in, m, ok := p.prune(x.Input, plan.NeedOf(width, need, x.Cond))
		if !ok {
			return nil, nil, false
		}
		return &plan.Filter{Input: in, Cond: remapExpr(x.Cond, m)}, m, true
	case *plan.Project:
		width := len(x.Input.Schema())
		in, m, ok := p.prune(x.Input, plan.NeedOf(width, plan.ColSet{}, x.Exprs...))
		if !ok {
			return nil, nil, false
		}
		cp := *x
		cp.Input = in
		cp.Exprs = make([]plan.Expr, len(x.Exprs))
		for i, e := range x.Exprs {
			cp.Exprs[i] = remapExpr(e, m)
		}
		return &cp, nil, true
	case *plan.Aggregate:
		width := len(x.Input.Schema())
		in, m, ok := p.prune(x.Input, plan.NeedOf(width, plan.ColSet{}, plan.NodeExprs(x)...))
		if !ok {
			return nil, nil, false
		}
		cp := *x
		cp.Input = in
		cp.Group = make([]plan.Expr, len(x.Group))
		for i, e := range x.Group {
			cp.Group[i] = remapExpr(e, m)
		}
		cp.Aggs = make([]plan.AggCall, len(x.Aggs))
		for i, a := range x.Aggs {
			a.Args = append([]plan.Expr(nil), a.Args...)
			for j, e := range a.Args {
				a.Args[j] = remapExpr(e, m)
			}
			a.Filter = remapExpr(a.Filter, m)
			a.OrderBy = remapKeys(a.OrderBy, m)
			cp.Aggs[i] = a
		}
		return &cp, nil, true
	case *plan.Sort:
		width := len(x.Input.Schema())
		in, m, ok := p.prune(x.Input, plan.NeedOf(width, need, plan.NodeExprs(x)...))
		if !ok {
			return nil, nil, false
		}
		cp := *x
		cp.Input = in
		cp.Keys = remapKeys(x.Keys, m)
		return &cp, m, true
	case *plan.Limit:
		in, m, ok := p.prune(x.Input, need)
		if !ok {
			return nil, nil, false
		}
		cp := *x
		cp.Input = in
		return &cp, m, true
	case *plan.Join:
		return p.pruneJoin(x, need)
	case *plan.Over:
		return p.pruneOver(x, need)
	}
	// Any other node keeps every column of its inputs.
	kids := n.Children()
	if len(kids) == 0 {
		return n, nil, true
	}
	pruned := make([]plan.Node, len(kids))
	for i, k := range kids {
		pk, _, ok := p.prune(k, nil)
		if !ok {
			return nil, nil, false
		}
		pruned[i] = pk
	}
	out, err := n.WithChildren(pruned...)
	if err != nil {
		return nil, nil, false
	}
	return out, nil, true
}

// pruner holds what the push-down pass asks of the sources.
// pruner pushes down one plan; done holds its answer for each node and
// need already pruned, so a shared sub-plan read with the same need is
// pruned once and stays shared.
type pruner struct {
	src  Sources
	done map[pruneKey]pruned
}

type pruneKey struct {
	n    plan.Node
	need string
}

type pruned struct {
	n  plan.Node
	m  []int
	ok bool
}

// pruneScan gives a scan the filters directly above it that its source
// accepts and, when the source takes a projection, a projection of the
// needed columns; the filters it does not accept stay in a Filter above.
// Scans that already project, and event-time scans, take nothing.
func (p pruner) pruneScan(s *plan.Scan, filters []plan.Expr, need plan.ColSet) (plan.Node, []int, bool) {
	// A scan that already projects keeps its shape, and so does an
	// event-time scan: its watermark reads the physical row.
	if s.Projection != nil || s.Watermark != nil || s.Rowtime >= 0 {
		if len(filters) == 0 {
			return s, nil, true
		}
		return &plan.Filter{Input: s, Cond: plan.And(filters...)}, nil, true
	}
	project, accepted := p.src.Push(s, filters)
	var kept, rejected []plan.Expr
	for i, f := range filters {
		if i < len(accepted) && accepted[i] {
			kept = append(kept, f)
		} else {
			rejected = append(rejected, f)
		}
	}
	if len(kept) == 0 && (!project || need == nil) {
		if len(rejected) == 0 {
			return s, nil, true
		}
		return &plan.Filter{Input: s, Cond: plan.And(rejected...)}, nil, true
	}
	cp := *s
	if len(kept) > 0 {
		cp.Filters = append(append([]plan.Expr(nil), s.Filters...), kept...)
	}
	var m []int
	if project && need != nil {
		need = plan.NeedOf(len(s.Physical), need, rejected...)
		m = make([]int, len(s.Physical))
		cp.Projection = []int{}
		for i := range s.Physical {
			m[i] = -1
			if need.Has(i) {
				m[i] = len(cp.Projection)
				cp.Projection = append(cp.Projection, i)
			}
		}
		if len(cp.Projection) == len(s.Physical) {
			cp.Projection, m = nil, nil
		}
	}
	if len(rejected) > 0 {
		return &plan.Filter{Input: &cp, Cond: remapExpr(plan.And(rejected...), m)}, m, true
	}
	return &cp, m, true
}

func (p pruner) pruneJoin(j *plan.Join, need plan.ColSet) (plan.Node, []int, bool) {
	nl, nr := len(j.Left.Schema()), len(j.Right.Schema())
	semi := j.Kind == plan.SemiJoin || j.Kind == plan.AntiJoin
	needL, needR := make(plan.ColSet, nl), make(plan.ColSet, nr)
	for i := range nl {
		needL[i] = need.Has(i)
	}
	for i := range nr {
		needR[i] = !semi && need.Has(nl+i)
	}
	var lefts, rights []plan.Expr
	for _, k := range j.EquiKeys {
		lefts = append(lefts, k.Left)
		rights = append(rights, k.Right)
	}
	both := plan.NeedOf(nl+nr, plan.ColSet{}, j.Residual)
	for i, b := range both {
		if b && i < nl {
			needL[i] = true
		} else if b {
			needR[i-nl] = true
		}
	}
	needL = plan.NeedOf(nl, needL, lefts...)
	needR = plan.NeedOf(nr, needR, rights...)
	l, ml, ok := p.prune(j.Left, needL)
	if !ok {
		return nil, nil, false
	}
	r, mr, ok := p.prune(j.Right, needR)
	if !ok {
		return nil, nil, false
	}
	if ml == nil {
		ml = plan.Identity(nl)
	}
	if mr == nil {
		mr = plan.Identity(nr)
	}
	newNL := len(l.Schema())
	m := make([]int, nl+nr)
	for i, p := range ml {
		m[i] = p
	}
	for i, p := range mr {
		m[nl+i] = -1
		if p >= 0 {
			m[nl+i] = newNL + p
		}
	}
	cp := *j
	cp.Left, cp.Right = l, r
	cp.EquiKeys = make([]plan.EquiKey, len(j.EquiKeys))
	for i, k := range j.EquiKeys {
		cp.EquiKeys[i] = plan.EquiKey{Left: remapExpr(k.Left, ml), Right: remapExpr(k.Right, mr), NullSafe: k.NullSafe}
	}
	cp.Residual = remapExpr(j.Residual, m)
	if semi {
		return &cp, ml, true
	}
	return &cp, m, true
}

func (p pruner) pruneOver(o *plan.Over, need plan.ColSet) (plan.Node, []int, bool) {
	nin := len(o.Input.Schema())
	needIn := make(plan.ColSet, nin)
	for i := range nin {
		needIn[i] = need.Has(i)
	}
	var exprs []plan.Expr
	for _, c := range o.Calls {
		exprs = append(exprs, c.Args...)
		exprs = append(exprs, c.Partition...)
		for _, k := range c.Order {
			exprs = append(exprs, k.Expr)
		}
		exprs = append(exprs, c.Frame.Start.Offset, c.Frame.End.Offset)
	}
	in, m, ok := p.prune(o.Input, plan.NeedOf(nin, needIn, exprs...))
	if !ok {
		return nil, nil, false
	}
	if m == nil {
		m = plan.Identity(nin)
	}
	cp := *o
	cp.Input = in
	cp.Calls = make([]plan.WindowCall, len(o.Calls))
	for i, c := range o.Calls {
		c.Args = append([]plan.Expr(nil), c.Args...)
		for j, e := range c.Args {
			c.Args[j] = remapExpr(e, m)
		}
		c.Partition = append([]plan.Expr(nil), c.Partition...)
		for j, e := range c.Partition {
			c.Partition[j] = remapExpr(e, m)
		}
		c.Order = remapKeys(c.Order, m)
		c.Frame.Start.Offset = remapExpr(c.Frame.Start.Offset, m)
		c.Frame.End.Offset = remapExpr(c.Frame.End.Offset, m)
		cp.Calls[i] = c
	}
	newIn := len(in.Schema())
	out := make([]int, nin+len(o.Calls))
	copy(out, m)
	for i := range o.Calls {
		out[nin+i] = newIn + i
	}
	return &cp, out, true
}
