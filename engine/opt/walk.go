package opt

import "eddy/engine/plan"

// rewriteFunc rewrites one plan.
type rewriteFunc func(plan.Node) (plan.Node, error)

// memo holds a pass's answer for each node it rewrote: a sub-plan that
// several nodes read (a view or a common table expression read twice) is
// rewritten once and stays shared, so a pass is linear in the distinct
// nodes of a plan, not in the paths to them.
type memo map[plan.Node]plan.Node

// once returns f's answer for n, computed at most once per node.
func (m memo) once(n plan.Node, f rewriteFunc) (plan.Node, error) {
	if out, ok := m[n]; ok {
		return out, nil
	}
	out, err := f(n)
	if err == nil {
		m[n] = out
	}
	return out, err
}

// mapNode returns n with its inputs rewritten by child and the plans the
// executor builds as roots of their own, when it runs them (the query of
// every sub-query in n's expressions, the right side of a Correlate), by
// nested. n is returned itself when nothing changed.
func mapNode(n plan.Node, child, nested rewriteFunc) (plan.Node, error) {
	kids := n.Children()
	out := make([]plan.Node, len(kids))
	changed := false
	for i, k := range kids {
		f := child
		if c, ok := n.(*plan.Correlate); ok && k == c.Right {
			f = nested
		}
		r, err := f(k)
		if err != nil {
			return nil, err
		}
		out[i] = r
		changed = changed || r != k
	}
	if changed {
		var err error
		if n, err = n.WithChildren(out...); err != nil {
			return nil, err
		}
	}
	return mapSubQueries(n, nested)
}

// mapExpr returns e with the query of every sub-query in it rewritten by
// fn.
func mapExpr(e plan.Expr, fn rewriteFunc) (plan.Expr, error) {
	if e == nil || !hasSubQuery(e) {
		return e, nil
	}
	var err error
	out := plan.RewriteExpr(e, func(x plan.Expr) plan.Expr {
		sq, ok := x.(*plan.SubQuery)
		if !ok || err != nil {
			return x
		}
		q, qerr := fn(sq.Query)
		if qerr != nil {
			err = qerr
			return x
		}
		cp := *sq
		cp.Query = q
		return &cp
	})
	return out, err
}

func mapExprs(es []plan.Expr, fn rewriteFunc) ([]plan.Expr, error) {
	out := make([]plan.Expr, len(es))
	for i, e := range es {
		r, err := mapExpr(e, fn)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

func hasSubQuery(e plan.Expr) bool {
	found := false
	plan.WalkExpr(e, func(x plan.Expr) bool {
		if _, ok := x.(*plan.SubQuery); ok {
			found = true
		}
		return !found
	})
	return found
}

// mapSubQueries rewrites the sub-query plans in the expressions n holds.
func mapSubQueries(n plan.Node, fn rewriteFunc) (plan.Node, error) {
	var err error
	out := plan.MapNodeExprs(n, func(e plan.Expr) plan.Expr {
		if err != nil {
			return e
		}
		r, rerr := mapExpr(e, fn)
		if rerr != nil {
			err = rerr
			return e
		}
		return r
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
