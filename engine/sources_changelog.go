package engine

import (
	"eddy/engine/connectors"
	"eddy/engine/opt"
	"eddy/engine/plan"
)

// Upsert implements opt.ChangelogSources: whether the connector declares
// that the scan's source produces an upsert stream by key
// (Abilities.Produces). A table that cannot be resolved produces inserts;
// resolving it again when the statement runs reports the error.
func (src planSources) Upsert(scan *plan.Scan) bool {
	a, err := src.abilities(scan)
	return err == nil && a.Produces == connectors.Upsert
}

var _ opt.ChangelogSources = planSources{}
