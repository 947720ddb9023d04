package engine

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
)

// openCompletionSession opens a session on a sqlite default_catalog and a
// generic_in_memory catalog mem, with -D style base options.
func openCompletionSession(t *testing.T, base map[string]string) *Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	t.Cleanup(func() { mgr.Close(); store.Close() })
	for _, d := range []catalogs.CatalogDescriptor{
		{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: sqlite.Type, catalogs.OptionDefaultDatabase: "default_database"}},
		{Name: "mem", Options: map[string]string{catalogs.OptionType: memory.Type}},
	} {
		if err := mgr.RegisterCatalog(ctx, d, nil, catalogs.OriginConfig); err != nil {
			t.Fatal(err)
		}
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(SessionConfig{Catalogs: mgr, Options: base})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func execAll(t *testing.T, s *Session, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.Execute(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestCompletionNames: the names completion reads are live — objects
// created a moment ago, temporary ones, views and other catalogs.
func TestCompletionNames(t *testing.T) {
	ctx := context.Background()
	s := openCompletionSession(t, nil)
	execAll(t, s,
		"CREATE TABLE orders (id INT, amount DOUBLE)",
		"CREATE VIEW big AS SELECT id AS big_id FROM orders WHERE amount > 10",
		"CREATE TEMPORARY TABLE scratch (note STRING)",
		"CREATE DATABASE sales",
		"CREATE TABLE sales.leads (lead_id INT)",
		"CREATE TABLE mem.`default`.t1 (x INT)",
	)
	if got := s.CatalogNames(ctx); !slices.Equal(got, []string{"default_catalog", "mem"}) {
		t.Errorf("CatalogNames = %q", got)
	}
	if got := s.DatabaseNames(ctx, ""); !slices.Equal(got, []string{"default_database", "sales"}) {
		t.Errorf("DatabaseNames = %q", got)
	}
	if got := s.ObjectNames(ctx, "", ""); !slices.Equal(got, []string{"big", "orders", "scratch"}) {
		t.Errorf("ObjectNames = %q", got)
	}
	if got := s.ObjectNames(ctx, "mem", "default"); !slices.Equal(got, []string{"t1"}) {
		t.Errorf("ObjectNames(mem.default) = %q", got)
	}
	for _, tc := range []struct {
		name []string
		want []string
	}{
		{[]string{"orders"}, []string{"id", "amount"}},
		{[]string{"big"}, []string{"big_id"}},
		{[]string{"scratch"}, []string{"note"}},
		{[]string{"sales", "leads"}, []string{"lead_id"}},
		{[]string{"mem", "default", "t1"}, []string{"x"}},
		{[]string{"missing"}, nil},
	} {
		if got := s.ColumnNames(ctx, tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("ColumnNames(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	fns := s.FunctionNames(ctx)
	if !slices.Contains(fns, "upper") || !slices.Contains(fns, "count") {
		t.Errorf("FunctionNames lacks upper or count: %d names", len(fns))
	}
	if got := s.OptionValues("execution.runtime-mode"); !slices.Equal(got, []string{"streaming", "batch", "automatic"}) {
		t.Errorf("OptionValues(runtime-mode) = %q", got)
	}
	if got := s.OptionValues("sql-client.verbose"); !slices.Equal(got, []string{"true", "false"}) {
		t.Errorf("OptionValues(verbose) = %q", got)
	}
	if got := s.OptionValues("pipeline.name"); got != nil {
		t.Errorf("OptionValues(pipeline.name) = %q", got)
	}
}

// TestOptionIsSet tells an option's own value from its default.
func TestOptionIsSet(t *testing.T) {
	s := openCompletionSession(t, map[string]string{"sql-client.verbose": "true"})
	const cost = "sql-client.display.print-time-cost"
	if s.OptionIsSet(cost) || !s.OptionIsSet("sql-client.verbose") {
		t.Errorf("before SET: %v %v", s.OptionIsSet(cost), s.OptionIsSet("sql-client.verbose"))
	}
	execAll(t, s, "SET 'sql-client.display.print-time-cost' = 'true'", "SET 'my.key' = 'v'")
	if !s.OptionIsSet(cost) {
		t.Error("SET value not seen")
	}
	keys := s.OptionKeys()
	if !slices.Contains(keys, "my.key") || !slices.Contains(keys, "sql-client.display.output-format") || !slices.IsSorted(keys) {
		t.Errorf("OptionKeys = %q", keys)
	}
	execAll(t, s, "RESET 'sql-client.display.print-time-cost'")
	if s.OptionIsSet(cost) {
		t.Error("RESET value still seen")
	}
}
