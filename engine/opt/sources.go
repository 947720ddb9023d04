package opt

import (
	"eddy/engine/connectors"
	"eddy/engine/plan"
)

// Sources answers, at plan time, what the source of a scan takes from
// the push-down pass, and whether it ends.
type Sources interface {
	// Push is asked once for every scan the push-down pass may rewrite,
	// with the filter conjuncts directly above the scan (over its
	// Physical schema). project says whether the scan may read only the
	// columns used above it (Scan.Projection); accepted[i] whether
	// filters[i] goes on the scan (Scan.Filters) rather than staying in a
	// Filter above it. accepted has the length of filters. The executor
	// still applies every Scan.Filters conjunct its reader does not take
	// at run time, so accepting a filter never changes the result.
	Push(scan *plan.Scan, filters []plan.Expr) (project bool, accepted []bool)
	// Bounded reports whether the scan's source ends.
	Bounded(scan *plan.Scan) bool
}

// DefaultSources is what every connector takes today: a scan without an
// event-time column (whose watermark reads the physical row) and not yet
// projected reads only the used columns and carries all the filters above
// it; any other scan takes nothing. A source is bounded as
// connectors.Bounded says.
type DefaultSources struct{}

// Push implements Sources.
func (DefaultSources) Push(s *plan.Scan, filters []plan.Expr) (bool, []bool) {
	ok := s.Projection == nil && s.Watermark == nil && s.Rowtime < 0
	accepted := make([]bool, len(filters))
	for i := range accepted {
		accepted[i] = ok
	}
	return ok, accepted
}

// Bounded implements Sources.
func (DefaultSources) Bounded(s *plan.Scan) bool {
	return connectors.Bounded(s.Options, s.Physical.Names())
}

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
