package opt

import (
	"eddy/engine/plan"
)

// Sources answers, at plan time, what the source of a scan takes from
// the push-down pass, and whether it ends. It is how the optimizer
// consults the abilities of connectors.
type Sources interface {
	// Push is asked once for every scan the push-down pass rewrites (one
	// that does not project yet and has no event-time column), with the
	// filter conjuncts directly above the scan, over its Physical schema
	// (ColumnRef.Index is a physical position). project says whether the
	// scan may read only the columns used above it (Scan.Projection);
	// accepted[i] whether filters[i] goes on the scan (Scan.Filters)
	// rather than staying in a Filter above it; a missing entry is false.
	// The executor still applies each Scan.Filters conjunct its reader
	// does not take at run time, so accepting a filter never changes a
	// result, only where it is applied.
	Push(scan *plan.Scan, filters []plan.Expr) (project bool, accepted []bool)
	// Bounded reports whether the scan's source ends (the changelog and
	// semi-join passes choose streaming algorithms by it).
	Bounded(scan *plan.Scan) bool
	// StoresRows reports whether the table a sink writes keeps its rows
	// in its catalog's own store (the storage of managed tables), which
	// then takes rows directly (the direct-insert pass).
	StoresRows(sk *plan.Sink) bool
}

// DefaultSources answers without a connector registry: each scan the
// pass rewrites reads only the used columns and carries every filter
// above it (the executor applies whatever its reader does not take); a
// source is bounded as the validator recorded it (plan.Scan.Bounded, from
// the connector's declared abilities); no sink is known to keep its rows
// in a store, so none is marked for direct writes.
type DefaultSources struct{}

// Push implements Sources.
func (DefaultSources) Push(_ *plan.Scan, filters []plan.Expr) (bool, []bool) {
	accepted := make([]bool, len(filters))
	for i := range accepted {
		accepted[i] = true
	}
	return true, accepted
}

// Bounded implements Sources.
func (DefaultSources) Bounded(s *plan.Scan) bool { return s.Bounded }

// StoresRows implements Sources.
func (DefaultSources) StoresRows(*plan.Sink) bool { return false }

// planBounded reports whether every source of a plan ends.
func planBounded(n plan.Node, src Sources) bool {
	bounded := true
	plan.Walk(n, func(x plan.Node) {
		if sc, ok := x.(*plan.Scan); ok && !src.Bounded(sc) {
			bounded = false
		}
	})
	return bounded
}
