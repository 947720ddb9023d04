package opt

import (
	"eddy/engine/plan"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// unorderableKeys refuses, in batch mode, a plan that groups, sorts or
// removes duplicates by a VARIANT: Flink's batch operators sort their keys
// and VARIANT has no order, so its planner fails with the error below.
// Streaming operators hash their keys and take it.
func unorderableKeys(root plan.Node) error {
	seen := map[plan.Node]bool{}
	var walk func(n plan.Node) error
	check := func(t *types.Type) error {
		if t.Kind != types.Variant {
			return nil
		}
		return sqlerr.Errorf("UnsupportedOperationException",
			"Type(%s) is not an orderable data type, it is not supported as a ORDER_BY/GROUP_BY/JOIN_EQUAL field.", t)
	}
	walk = func(n plan.Node) error {
		if n == nil || seen[n] {
			return nil
		}
		seen[n] = true
		var err error
		switch x := n.(type) {
		case *plan.Aggregate:
			for _, g := range x.Group {
				if err == nil {
					err = check(g.Type())
				}
			}
		case *plan.Sort:
			for _, k := range x.Keys {
				if err == nil {
					err = check(k.Expr.Type())
				}
			}
		case *plan.SetOp:
			if !x.All {
				for _, c := range x.Cols {
					if err == nil {
						err = check(c.Type)
					}
				}
			}
		}
		if err != nil {
			return err
		}
		for _, k := range n.Children() {
			if err := walk(k); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root)
}
