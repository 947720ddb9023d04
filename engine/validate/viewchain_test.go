package validate

import (
	"context"
	"fmt"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/functions"
	"eddy/engine/parser"
)

// chainManager returns a catalog manager whose default database holds the
// views v0 .. v<levels>: v0 is one row, each later view reads the one
// before twice (UNION ALL), so v<n> has 2^n rows and 2^n paths to v0.
func chainManager(t testing.TB, levels int) *catalogs.Manager {
	t.Helper()
	ctx := context.Background()
	m := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, memory.NewStore())
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{"type": memory.Type, "default-database": "default_database"}}
	if err := m.RegisterCatalog(ctx, desc, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := m.Use(ctx, "default_catalog", "default_database"); err != nil {
		t.Fatal(err)
	}
	reg := functions.NewRegistry()
	for i := 0; i <= levels; i++ {
		text := "SELECT 1 AS x"
		if i > 0 {
			text = fmt.Sprintf("SELECT x FROM v%d UNION ALL SELECT x FROM v%d", i-1, i-1)
		}
		q, err := parser.ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		id, err := m.Qualify(fmt.Sprintf("v%d", i))
		if err != nil {
			t.Fatal(err)
		}
		a := &Analyzer{Funcs: reg, Catalogs: m, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr, Source: text}
		s := &state{a: a, ctx: ctx, defining: &id}
		an, err := s.query(q, nil)
		if err != nil {
			t.Fatalf("v%d: %v", i, err)
		}
		// Defining v<i> validates each view below it once.
		if s.expansions != i {
			t.Fatalf("defining v%d validated %d view expansions, want %d", i, s.expansions, i)
		}
		v := &catalogs.CatalogView{OriginalQuery: text, ExpandedQuery: an.ExpandedText()}
		for _, c := range an.Columns {
			v.Columns = append(v.Columns, catalogs.Column{Name: c.Name, Type: c.Type})
		}
		if err := m.ReplaceView(ctx, id, v, false); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestViewChainValidatesEachViewOnce reads the top of a 30-level chain of
// views each reading the one before twice: each view is validated once
// per statement (30 expansions, not 2^31), and the plan shares the
// expansion of a view among its reads.
func TestViewChainValidatesEachViewOnce(t *testing.T) {
	const levels = 30
	m := chainManager(t, levels)
	text := fmt.Sprintf("SELECT COUNT(*) FROM v%d", levels)
	q, err := parser.ParseQuery(text)
	if err != nil {
		t.Fatal(err)
	}
	a := &Analyzer{Funcs: functions.NewRegistry(), Catalogs: m, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr, Source: text}
	s := &state{a: a, ctx: context.Background(), root: q}
	an, err := s.query(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.expansions != levels+1 {
		t.Errorf("validated %d view expansions, want %d", s.expansions, levels+1)
	}
	if an.Plan == nil {
		t.Fatalf("no plan: %v", an.PlanErr)
	}
	if got := s.expanded; len(got) != levels+1 {
		t.Errorf("%d distinct views expanded, want %d", len(got), levels+1)
	}
}

// BenchmarkAnalyzeViewChain validates a read of the top of a 30-level
// chain of views each reading the one before twice.
func BenchmarkAnalyzeViewChain(b *testing.B) {
	m := chainManager(b, 30)
	text := "SELECT COUNT(*) FROM v30"
	q, err := parser.ParseQuery(text)
	if err != nil {
		b.Fatal(err)
	}
	reg := functions.NewRegistry()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a := &Analyzer{Funcs: reg, Catalogs: m, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr, Source: text}
		if _, err := a.Query(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
}
