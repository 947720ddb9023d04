package opt

import (
	"eddy/engine/plan"
	"eddy/engine/vector"
)

// SemiJoins turns, in a streaming plan, the first conjunct of a Filter
// that is an uncorrelated `x IN (SELECT ...)` or a `[NOT] EXISTS (SELECT
// ... WHERE inner = outer ...)` correlated only through equalities into a
// semi (anti) plan.Join of the Filter's input and the sub-query's input,
// run as a streaming join (Join.Strategy JoinStream), with the Filter's
// other conjuncts above it. Flink plans these shapes as semi (anti) joins,
// whose changelog follows both inputs: a left row is emitted when its
// first match arrives, retracted when its last match is retracted (the
// reverse for an anti join). Other sub-query forms keep the sub-query
// evaluation (over the sub-query's final rows). A Filter that bounds a
// rank is left to the top-n pass.
func SemiJoins(n plan.Node, src Sources) (plan.Node, error) {
	if src == nil {
		src = DefaultSources{}
	}
	s := semis{src: src, done: memo{}}
	return s.rewrite(n)
}

type semis struct {
	src  Sources
	done memo
}

func (s semis) rewrite(n plan.Node) (plan.Node, error) { return s.done.once(n, s.rewriteNode) }

func (s semis) rewriteNode(n plan.Node) (plan.Node, error) {
	if f, ok := n.(*plan.Filter); ok {
		if _, isRank := matchRank(f); !isRank {
			if m, ok := matchSemi(f, s.src); ok {
				left, err := s.rewrite(m.join.Left)
				if err != nil {
					return nil, err
				}
				right, err := s.rewrite(m.join.Right)
				if err != nil {
					return nil, err
				}
				j := *m.join
				j.Left, j.Right, j.Strategy = left, right, plan.JoinStream
				if len(m.rest) == 0 {
					return &j, nil
				}
				c, err := mapExpr(plan.And(m.rest...), s.rewrite)
				if err != nil {
					return nil, err
				}
				return &plan.Filter{Input: &j, Cond: c}, nil
			}
		}
	}
	return mapNode(n, s.rewrite, s.rewrite)
}

// semiMatch is a Filter conjunct that is a semi or anti join.
type semiMatch struct {
	join *plan.Join  // Left is the Filter's input
	rest []plan.Expr // the Filter's other conjuncts
}

// matchSemi finds the first conjunct of f that is an uncorrelated IN, or
// an EXISTS / NOT EXISTS correlated only through equalities.
func matchSemi(f *plan.Filter, src Sources) (semiMatch, bool) {
	conj := plan.Conjuncts(f.Cond)
	for i, c := range conj {
		j := semiJoinOf(f.Input, c)
		if j == nil {
			continue
		}
		if !planBounded(f.Input, src) && planBounded(j.Right, src) && !updating(j.Right, src) {
			// An unbounded input filtered by a fixed set: the sub-query's
			// rows are read once and the input streams through without
			// state, so memory stays flat (the join would keep every
			// input row for matches that cannot come).
			return semiMatch{}, false
		}
		rest := append(append([]plan.Expr(nil), conj[:i]...), conj[i+1:]...)
		return semiMatch{join: j, rest: rest}, true
	}
	return semiMatch{}, false
}

func semiJoinOf(left plan.Node, c plan.Expr) *plan.Join {
	kind := plan.SemiJoin
	if call, ok := c.(*plan.Call); ok && call.Func == nil && call.Name == plan.OpNot && len(call.Args) == 1 {
		kind = plan.AntiJoin
		c = call.Args[0]
	}
	sq, ok := c.(*plan.SubQuery)
	if !ok {
		return nil
	}
	switch {
	case sq.Kind == plan.SubIn && kind == plan.SemiJoin && sq.ID == 0:
		// NOT IN is null-aware (a NULL on either side makes it unknown):
		// it keeps the sub-query evaluation.
		if len(sq.Left) != len(sq.Query.Schema()) {
			return nil
		}
		j := &plan.Join{Kind: plan.SemiJoin, Left: left, Right: sq.Query}
		for i, l := range sq.Left {
			if hasCorrel(l) || !sameClass(l, sq.Query.Schema().Ref(i)) {
				return nil
			}
			j.EquiKeys = append(j.EquiKeys, plan.EquiKey{Left: l, Right: sq.Query.Schema().Ref(i)})
		}
		return j
	case sq.Kind == plan.SubExists && sq.ID != 0:
		right, keys, ok := decorrelate(sq.Query, sq.ID)
		if !ok || len(keys) == 0 {
			return nil
		}
		return &plan.Join{Kind: kind, Left: left, Right: right, EquiKeys: keys}
	}
	return nil
}

func hasCorrel(e plan.Expr) bool {
	found := false
	plan.WalkExpr(e, func(x plan.Expr) bool {
		if _, ok := x.(*plan.CorrelRef); ok {
			found = true
		}
		if _, ok := x.(*plan.SubQuery); ok {
			found = true
		}
		return !found
	})
	return found
}

// decorrelate turns the query of a correlated EXISTS, [Project over]
// Filter over an uncorrelated input, into that input filtered by the
// conjuncts without correlation, and join keys from the conjuncts
// `inner = outer`. ok is false for any other shape.
func decorrelate(q plan.Node, id int) (plan.Node, []plan.EquiKey, bool) {
	if p, ok := q.(*plan.Project); ok {
		for _, e := range p.Exprs {
			if hasCorrel(e) {
				return nil, nil, false
			}
		}
		q = p.Input
	}
	f, ok := q.(*plan.Filter)
	if !ok || len(plan.CorrelatedColumns(f.Input, id)) > 0 {
		return nil, nil, false
	}
	var keys []plan.EquiKey
	var rest []plan.Expr
	for _, c := range plan.Conjuncts(f.Cond) {
		if !hasCorrel(c) {
			rest = append(rest, c)
			continue
		}
		call, ok := c.(*plan.Call)
		if !ok || call.Func != nil || len(call.Args) != 2 || (call.Name != plan.OpEq && call.Name != plan.OpNotDistinct) {
			return nil, nil, false
		}
		a, b := call.Args[0], call.Args[1]
		if _, ok := a.(*plan.CorrelRef); ok {
			a, b = b, a
		}
		outer, ok := b.(*plan.CorrelRef)
		if !ok || outer.ID != id || hasCorrel(a) || vector.ClassOf(a.Type()) != vector.ClassOf(outer.T) {
			return nil, nil, false
		}
		keys = append(keys, plan.EquiKey{Left: &plan.ColumnRef{Index: outer.Index, Name: outer.Name, T: outer.T},
			Right: a, NullSafe: call.Name == plan.OpNotDistinct})
	}
	right := f.Input
	if len(rest) > 0 {
		right = &plan.Filter{Input: f.Input, Cond: plan.And(rest...)}
	}
	return right, keys, true
}

// sameClass reports whether two expressions' values encode alike as join
// keys (the sub-query evaluation compares across types; the join does
// not).
func sameClass(a, b plan.Expr) bool {
	return vector.ClassOf(a.Type()) == vector.ClassOf(b.Type())
}
