package engine_test

import (
	"context"
	"strings"
	"testing"

	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// upsertEvent is one row of an upsert stream: its kind and values.
type upsertEvent struct {
	kind types.RowKind
	row  []any
}

// upsertFactory is a source that declares an upsert changelog (by the
// table's PRIMARY KEY) and emits events, in one batch each so that the
// normalization spans batches.
func upsertFactory(id string, events []upsertEvent) *connectors.Factory {
	return &connectors.Factory{
		Identifier: id,
		Required:   []string{"connector"},
		Source: func(_ context.Context, _ *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			var batches []*vector.Batch
			for _, e := range events {
				b := vector.NewBatch(t.Types(), 1)
				b.AppendRow(e.kind, e.row)
				batches = append(batches, b)
			}
			return connectors.SliceReader(batches), nil
		},
		Abilities: func(*connectors.Table) connectors.Abilities {
			return connectors.Abilities{Bounded: true, Produces: connectors.Upsert}
		},
	}
}

// An upsert source is read through ChangelogNormalize: the first row of a
// key is +I, a later one -U/+U with the row it replaces, a delete -D with
// the full row; a repeated row and a delete of an unknown key vanish, as
// Flink's ChangelogNormalize prints them.
func TestChangelogNormalizeOfUpsertSource(t *testing.T) {
	events := []upsertEvent{
		{types.Insert, []any{int32(1), "a"}},
		{types.Insert, []any{int32(2), "b"}},
		{types.UpdateAfter, []any{int32(1), "a2"}},
		{types.Insert, []any{int32(1), "a2"}}, // the same row again
		{types.Delete, []any{int32(3), nil}},  // a key never seen
		{types.Delete, []any{int32(2), nil}},  // a delete by key only
		{types.Insert, []any{int32(2), "c"}},
		{types.UpdateBefore, []any{int32(1), nil}},
	}
	var changes collectSink
	reg := connectors.NewRegistry()
	reg.Register(upsertFactory("upserts", events))
	reg.Register(changes.factory("changes", connectors.FullChangelog))
	s := registrySession(t, reg)
	execAll(t, s,
		"SET 'execution.runtime-mode' = 'streaming'",
		"CREATE TABLE u (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upserts')",
		"CREATE TABLE nokey (id INT, v STRING) WITH ('connector' = 'upserts')",
		"CREATE TABLE c (id INT, v STRING) WITH ('connector' = 'changes')",
		"CREATE TABLE n (cnt BIGINT) WITH ('connector' = 'changes')",
		"INSERT INTO c SELECT * FROM u",
	)
	want := "+I[1 a] +I[2 b] -U[1 a] +U[1 a2] -D[2 b] +I[2 c] -D[1 a2]"
	if got := changes.take(); got != want {
		t.Errorf("normalized changelog:\n got %s\nwant %s", got, want)
	}
	// The operators above read a full changelog: the count retracts.
	execAll(t, s, "INSERT INTO n SELECT COUNT(*) FROM u")
	if got := changes.take(); !strings.HasSuffix(got, "+U[1]") || !strings.Contains(got, "-U[2]") {
		t.Errorf("count over the normalized changelog: %s, want it to end at +U[1] after retracting 2", got)
	}
	plan, err := queryText(t, s, "EXPLAIN SELECT v FROM u WHERE id > 1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "ChangelogNormalize(key=[id])") {
		t.Errorf("EXPLAIN does not show ChangelogNormalize(key=[id]):\n%s", plan)
	}
	// Batch mode takes insert-only sources only, as Flink's planner says.
	execAll(t, s, "SET 'execution.runtime-mode' = 'batch'")
	if _, err := queryText(t, s, "EXPLAIN SELECT * FROM u"); err == nil ||
		!strings.Contains(err.Error(), "only possible for INSERT-only table sources") {
		t.Errorf("batch EXPLAIN of an upsert source: %v, want Flink's refusal", err)
	}
	execAll(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	if _, err := queryText(t, s, "SELECT * FROM nokey"); err == nil || !strings.Contains(err.Error(), "requires a PRIMARY KEY") {
		t.Errorf("an upsert source without a primary key: %v", err)
	}
}
