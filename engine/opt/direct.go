package opt

import "eddy/engine/plan"

// DirectInsert marks (Sink.Direct) every Sink whose input is constant
// rows — a Values, possibly under projections without column references
// of their own input beyond the Values' columns and without sub-queries —
// writing into a table that keeps its rows in its catalog's store
// (Sources.StoresRows: the connector registry's answer, which a catalog
// supplying its tables' connector changes), without a static partition
// or OVERWRITE. An executor may then evaluate the rows once and hand them
// to the table's store without building operators; one that does not
// simply ignores the mark.
func DirectInsert(n plan.Node, src Sources) plan.Node {
	sk, ok := n.(*plan.Sink)
	if !ok || sk.Direct || sk.Overwrite || sk.StaticPartition != nil {
		return n
	}
	if !constantRows(sk.Input) || !src.StoresRows(sk) {
		return n
	}
	cp := *sk
	cp.Direct = true
	return &cp
}

// constantRows reports whether n is a Values under zero or more
// projections, none holding a sub-query.
func constantRows(n plan.Node) bool {
	for {
		switch x := n.(type) {
		case *plan.Values:
			for _, r := range x.Rows {
				for _, e := range r {
					if hasSubQuery(e) {
						return false
					}
				}
			}
			return true
		case *plan.Project:
			for _, e := range x.Exprs {
				if hasSubQuery(e) {
					return false
				}
			}
			n = x.Input
		default:
			return false
		}
	}
}

// stackedProjects reports whether n is a Project reading a Project.
func stackedProjects(n plan.Node) bool {
	p, ok := n.(*plan.Project)
	if !ok {
		return false
	}
	_, ok = p.Input.(*plan.Project)
	return ok
}
