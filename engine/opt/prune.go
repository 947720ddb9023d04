package opt

import "eddy/engine/plan"

// PruneProjections drops, from every Project that reads another Project,
// the inner expressions the outer one never reads (the prune-projections
// pass). A view is inlined as a projection that casts to its frozen
// column types; a query reading one column of it must not evaluate (and
// fail on) the casts of the others, as Flink's planner prunes them too. A pair whose outer expressions hold
// a sub-query is left alone: the sub-query may read the inner row by
// position.
func PruneProjections(n plan.Node) (plan.Node, error) {
	return pruneProjections(n, memo{})
}

func pruneProjections(n plan.Node, done memo) (plan.Node, error) {
	if out, ok := done[n]; ok {
		return out, nil
	}
	out, err := pruneProjectionsOnce(n, done)
	if err == nil {
		done[n] = out
	}
	return out, err
}

func pruneProjectionsOnce(n plan.Node, done memo) (plan.Node, error) {
	kids := n.Children()
	if len(kids) > 0 {
		pruned := make([]plan.Node, len(kids))
		changed := false
		for i, k := range kids {
			p, err := pruneProjections(k, done)
			if err != nil {
				return nil, err
			}
			pruned[i] = p
			changed = changed || p != k
		}
		if changed {
			var err error
			if n, err = n.WithChildren(pruned...); err != nil {
				return nil, err
			}
		}
	}
	outer, ok := n.(*plan.Project)
	if !ok {
		return n, nil
	}
	inner, ok := outer.Input.(*plan.Project)
	if !ok {
		return n, nil
	}
	used := make([]bool, len(inner.Exprs))
	safe := true
	for _, e := range outer.Exprs {
		plan.WalkExpr(e, func(x plan.Expr) bool {
			switch x := x.(type) {
			case *plan.ColumnRef:
				if x.Index >= 0 && x.Index < len(used) {
					used[x.Index] = true
				}
			case *plan.SubQuery:
				safe = false
			}
			return true
		})
	}
	remap := make([]int, len(inner.Exprs))
	var exprs []plan.Expr
	var names []string
	for i, u := range used {
		remap[i] = -1
		if u {
			remap[i] = len(exprs)
			exprs = append(exprs, inner.Exprs[i])
			names = append(names, inner.Names[i])
		}
	}
	if !safe || len(exprs) == len(inner.Exprs) {
		return n, nil
	}
	out := &plan.Project{Input: &plan.Project{Input: inner.Input, Exprs: exprs, Names: names}, Names: outer.Names}
	for _, e := range outer.Exprs {
		out.Exprs = append(out.Exprs, plan.RewriteExpr(e, func(x plan.Expr) plan.Expr {
			if c, ok := x.(*plan.ColumnRef); ok {
				cp := *c
				cp.Index = remap[c.Index]
				return &cp
			}
			return x
		}))
	}
	return out, nil
}
