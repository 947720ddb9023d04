package engine_test

import (
	"context"
	"testing"

	"eddy/engine/plan"
)

// The direct-insert mark follows the connector registry: a table whose
// catalog supplies its connector (CatalogConnector) is not managed
// storage even without a 'connector' option, and its constant rows are
// not marked for a direct write; a managed table's are.
func TestDirectInsertAsksTheRegistry(t *testing.T) {
	s := registrySession(t, nil)
	execAll(t, s,
		"SET 'execution.runtime-mode' = 'batch'",
		"CREATE TABLE ext.db.t (n BIGINT) WITH ('end' = '3')",
		"CREATE TABLE m (n BIGINT)",
	)
	for _, c := range []struct {
		sql    string
		direct bool
	}{
		{"INSERT INTO ext.db.t VALUES (1)", false},
		{"INSERT INTO m VALUES (1)", true},
	} {
		_, trace, err := s.PlanPasses(context.Background(), c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		sk, ok := trace[len(trace)-1].Plan.(*plan.Sink)
		if !ok {
			t.Fatalf("%s: optimized plan %T, want a sink", c.sql, trace[len(trace)-1].Plan)
		}
		if sk.Direct != c.direct {
			t.Errorf("%s: direct %v, want %v", c.sql, sk.Direct, c.direct)
		}
	}
}
