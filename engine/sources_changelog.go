package engine

import (
	"context"

	"eddy/engine/connectors"
	"eddy/engine/opt"
	"eddy/engine/plan"
)

// optSources is what the optimizer asks of the session's sources: what
// every source takes by default (opt.DefaultSources), and the changelog
// each one declares it produces (opt.ChangelogSources), from the
// session's connector registry.
type optSources struct {
	opt.DefaultSources
	s *Session
}

// Produces implements opt.ChangelogSources: the connector's declared
// Abilities.Produces. A table that cannot be resolved produces inserts;
// resolving it again when the statement runs reports the error.
func (src optSources) Produces(scan *plan.Scan) connectors.ChangelogMode {
	t, err := src.s.scanTable(context.Background(), scan)
	if err != nil {
		return connectors.InsertOnly
	}
	return src.s.conns.Abilities(t).Produces
}

var _ opt.ChangelogSources = optSources{}
