package opt

import "eddy/engine/plan"

// rewriteFunc rewrites one plan.
type rewriteFunc func(plan.Node) (plan.Node, error)

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
	var out []plan.Expr
	for i, e := range es {
		r, err := mapExpr(e, fn)
		if err != nil {
			return nil, err
		}
		if r != e && out == nil {
			out = append([]plan.Expr(nil), es...)
		}
		if out != nil {
			out[i] = r
		}
	}
	if out == nil {
		return es, nil
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

// mapSubQueries rewrites the sub-query plans in the expressions of the
// nodes that hold them (filters, projections, join conditions, VALUES
// rows).
func mapSubQueries(n plan.Node, fn rewriteFunc) (plan.Node, error) {
	switch x := n.(type) {
	case *plan.Filter:
		c, err := mapExpr(x.Cond, fn)
		if err != nil || c == x.Cond {
			return n, err
		}
		return &plan.Filter{Input: x.Input, Cond: c}, nil
	case *plan.Project:
		es, err := mapExprs(x.Exprs, fn)
		if err != nil || sameExprs(es, x.Exprs) {
			return n, err
		}
		cp := *x
		cp.Exprs = es
		return &cp, nil
	case *plan.Join:
		r, err := mapExpr(x.Residual, fn)
		if err != nil || r == x.Residual {
			return n, err
		}
		cp := *x
		cp.Residual = r
		return &cp, nil
	case *plan.Values:
		var rows [][]plan.Expr
		for i, row := range x.Rows {
			r, err := mapExprs(row, fn)
			if err != nil {
				return nil, err
			}
			if !sameExprs(r, row) && rows == nil {
				rows = append([][]plan.Expr(nil), x.Rows...)
			}
			if rows != nil {
				rows[i] = r
			}
		}
		if rows == nil {
			return n, nil
		}
		cp := *x
		cp.Rows = rows
		return &cp, nil
	}
	return n, nil
}

func sameExprs(a, b []plan.Expr) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
