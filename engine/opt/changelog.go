package opt

import (
	"eddy/engine/plan"
	"eddy/engine/types"
)

// Changelog derives, in a streaming plan, which nodes produce only
// inserts and which produce updates or deletions, and records it where
// the executor needs it: Aggregate.InputUpdates (its functions must
// retract), TopN.InputUpdates (it must retract), Sink.InputUpdates (a
// table that stores rows receives the final rows), and Join.Strategy of
// the joins not yet given one: the batch hash join (JoinHash) for an inner or
// cross join of two bounded insert-only inputs, else the streaming join (JoinStream).
// A join that ties its inputs' event times becomes an interval or window
// join instead (timedJoin).
func Changelog(n plan.Node, src Sources) (plan.Node, error) {
	if src == nil {
		src = DefaultSources{}
	}
	c := changelog{src: src, done: memo{}}
	return c.rewrite(n)
}

type changelog struct {
	src  Sources
	done memo
}

func (c changelog) rewrite(n plan.Node) (plan.Node, error) { return c.done.once(n, c.rewriteNode) }

func (c changelog) rewriteNode(n plan.Node) (plan.Node, error) {
	n, err := mapNode(n, c.rewrite, c.rewrite)
	if err != nil {
		return nil, err
	}
	switch x := n.(type) {
	case *plan.Aggregate:
		if u := updating(x.Input, c.src); u != x.InputUpdates {
			cp := *x
			cp.InputUpdates = u
			return &cp, nil
		}
	case *plan.TopN:
		if u := updating(x.Input, c.src); u != x.InputUpdates {
			cp := *x
			cp.InputUpdates = u
			return &cp, nil
		}
	case *plan.Sink:
		if u := updating(x.Input, c.src); u != x.InputUpdates {
			cp := *x
			cp.InputUpdates = u
			return &cp, nil
		}
	case *plan.Join:
		if tj, err := timedJoin(x, c.src); tj != nil || err != nil {
			return tj, err // an interval or window join (interval.go)
		}
		if x.Strategy == plan.JoinStrategyUnset {
			cp := *x
			cp.Strategy = plan.JoinStream
			if (x.Kind == plan.InnerJoin || x.Kind == plan.CrossJoin) && planBounded(x.Left, c.src) && planBounded(x.Right, c.src) &&
				!updating(x.Left, c.src) && !updating(x.Right, c.src) {
				cp.Strategy = plan.JoinHash
			}
			return &cp, nil
		}
	}
	return n, nil
}

// Updates reports whether a plan's rows carry updates or deletions in
// streaming mode (aggregates, outer joins, Top-N...). It understands the
// plans of every pass: before the top-n and semi-join passes it
// recognises their shapes itself. src nil is DefaultSources.
func Updates(n plan.Node, src Sources) bool {
	if src == nil {
		src = DefaultSources{}
	}
	return updating(n, src)
}

func updating(n plan.Node, src Sources) bool {
	switch n := n.(type) {
	case *plan.ChangelogNormalize:
		return true
	case *plan.Aggregate:
		if w, ok := n.Input.(*plan.WindowTVF); ok && n.GroupingSets == nil && n.GroupsByWindow(w) {
			return updating(w.Input, src)
		}
		return true
	case *plan.Join:
		if n.Kind != plan.InnerJoin && n.Kind != plan.CrossJoin && n.Kind != plan.SemiJoin {
			return true
		}
	case *plan.TemporalJoin:
		// Its rows have the left rows' kinds, whatever the versions are.
		return updating(n.Left, src)
	case *plan.Limit:
		if _, ok := n.Input.(*plan.Sort); ok && n.Fetch >= 0 {
			return true
		}
	case *plan.TopN:
		if n.Func == "" {
			return true
		}
		return rankUpdates(n.Input, n.Order, n.Start, n.End, src)
	case *plan.SetOp:
		if !(n.Kind == plan.Union && n.All) {
			return true
		}
	case *plan.Filter:
		if m, ok := matchRank(n); ok {
			return rankUpdates(m.over.Input, m.call.Order, m.start, m.end, src)
		}
		if m, ok := matchSemi(n, src); ok {
			return m.join.Kind == plan.AntiJoin || updating(m.join.Left, src) || updating(m.join.Right, src)
		}
	case *plan.Project:
		if f, ok := n.Input.(*plan.Filter); ok {
			if m, ok := matchRank(f); ok {
				return rankUpdates(m.over.Input, m.call.Order, m.start, m.end, src)
			}
		}
	}
	for _, c := range n.Children() {
		if updating(c, src) {
			return true
		}
	}
	return false
}

// rankUpdates reports whether a Top-N's output updates: all do except a
// keep-first deduplication and a first-N of an append-only input.
func rankUpdates(input plan.Node, order []plan.SortKey, start, end int64, src Sources) bool {
	if updating(input, src) {
		return true
	}
	if len(order) == 1 && !order[0].Desc {
		switch order[0].Expr.Type().TimeAttr {
		case types.Proctime:
			return false
		case types.Rowtime:
			return !(start == 1 && end == 1)
		}
	}
	return true
}
