package validate

import (
	"fmt"

	"eddy/engine/ast"
	"eddy/engine/plan"
)

// ErrLookupJoin is a lookup join Flink's planner refuses (its
// TableException): the query fails when it is planned.
var ErrLookupJoin = &Kind{"invalid lookup join", "TableException"}

// markLookup records a table read FOR SYSTEM_TIME AS OF a processing-time
// attribute.
func (s *state) markLookup(t *ast.TableName) {
	if s.lookups == nil {
		s.lookups = map[*ast.TableName]bool{}
	}
	s.lookups[t] = true
}

// isLookup reports whether the right side of a join is a table read FOR
// SYSTEM_TIME AS OF a processing-time attribute.
func (s *state) isLookup(te ast.TableExpr) bool {
	t, ok := te.(*ast.TableName)
	return ok && s.lookups[t]
}

// lookupJoin plans a processing-time temporal join (Flink's lookup join):
// the ON equalities between an expression of the left side and a column
// of the table are the lookup keys, the rest of the condition filters the
// joined rows. Flink's refusals: a join other than INNER or LEFT, no
// equality on a column of the table; a table with computed or metadata
// columns is not looked up by the local engine.
func (s *state) lookupJoin(j *ast.Join, kind plan.JoinKind, lp, rp plan.Node, cond plan.Expr, nLeft int) plan.Node {
	t := j.Right.(*ast.TableName)
	pos := t.Name.Position()
	scan, ok := rp.(*plan.Scan)
	if !ok {
		s.noPlanf(pos, "A lookup join of a table with computed or metadata columns is not supported by the local engine")
		return nil
	}
	if kind != plan.InnerJoin && kind != plan.LeftJoin {
		name := map[plan.JoinKind]string{plan.RightJoin: "RIGHT", plan.FullJoin: "FULL", plan.CrossJoin: "CROSS"}[kind]
		s.noPlan(errorf(pos, ErrLookupJoin, "Temporal table join currently only support INNER JOIN and LEFT JOIN, but was %s JOIN.", name))
		return nil
	}
	width := len(lp.Schema())
	lj := &plan.LookupJoin{Kind: kind, Input: lp, Table: scan}
	var rest []plan.Expr
	seen := map[int]bool{}
	for _, c := range plan.Conjuncts(cond) {
		if k, ok := lookupKey(c, width); ok && !seen[k.Column] {
			seen[k.Column] = true
			lj.Keys = append(lj.Keys, k)
			continue
		}
		rest = append(rest, c)
	}
	if len(lj.Keys) == 0 {
		s.noPlan(errorf(pos, ErrLookupJoin, "Temporal table join requires an equality condition on fields of table [%s].",
			fmt.Sprintf("%s.%s.%s", scan.Table.Catalog, scan.Table.Database, scan.Table.Object)))
		return nil
	}
	lj.Residual = plan.And(rest...)
	return lj
}

// lookupKey reads left-expr = table-column (either way round) as a lookup
// key; nLeft is the width of the left side.
func lookupKey(c plan.Expr, nLeft int) (plan.LookupKey, bool) {
	call, ok := c.(*plan.Call)
	if !ok || call.Func != nil || len(call.Args) != 2 || call.Name != plan.OpEq {
		return plan.LookupKey{}, false
	}
	for _, side := range [2][2]plan.Expr{{call.Args[0], call.Args[1]}, {call.Args[1], call.Args[0]}} {
		r := side[1]
		if cast, isCast := r.(*plan.Cast); isCast {
			r = cast.X // a column widened to the key's type
		}
		col, ok := r.(*plan.ColumnRef)
		if !ok || col.Index < nLeft || !readsOnlyLeft(side[0], nLeft) {
			continue
		}
		return plan.LookupKey{Left: side[0], Column: col.Index - nLeft}, true
	}
	return plan.LookupKey{}, false
}

// readsOnlyLeft reports whether e reads at least one column, all of the
// left side, and no sub-query.
func readsOnlyLeft(e plan.Expr, nLeft int) bool {
	cols, ok := 0, true
	plan.WalkExpr(e, func(x plan.Expr) bool {
		switch x := x.(type) {
		case *plan.ColumnRef:
			cols++
			if x.Index >= nLeft {
				ok = false
			}
		case *plan.SubQuery:
			ok = false
		}
		return ok
	})
	return ok && cols > 0
}
