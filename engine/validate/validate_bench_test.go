package validate

import (
	"context"
	"fmt"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/types"
)

// benchManager is a catalog manager over an in-memory catalog with tables
// orders (id, customer, amount, ts) and customers (name, region), and views
// v1 .. v5, each a filter over the one before (v1 over orders).
func benchManager(b *testing.B) *catalogs.Manager {
	b.Helper()
	ctx := context.Background()
	m := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, memory.NewStore())
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{"type": memory.Type, "default-database": "default_database"}}
	check := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	check(m.RegisterCatalog(ctx, desc, nil, catalogs.OriginBuiltIn))
	check(m.Use(ctx, "default_catalog", "default_database"))
	table := func(name string, cols ...catalogs.Column) {
		id, err := m.Qualify(name)
		check(err)
		check(m.CreateTable(ctx, id, &catalogs.CatalogTable{Options: map[string]string{"connector": "datagen"}, Schema: catalogs.Schema{Columns: cols}}, false))
	}
	table("orders",
		catalogs.Column{Name: "id", Type: types.New(types.BigInt)},
		catalogs.Column{Name: "customer", Type: types.NewString()},
		catalogs.Column{Name: "amount", Type: types.NewDecimal(10, 2)},
		catalogs.Column{Name: "ts", Type: types.NewTimestamp(3)})
	table("customers",
		catalogs.Column{Name: "name", Type: types.NewString()},
		catalogs.Column{Name: "region", Type: types.NewString()})
	reg := functions.NewRegistry()
	for i := 1; i <= 5; i++ {
		from := "orders"
		if i > 1 {
			from = fmt.Sprintf("v%d", i-1)
		}
		text := fmt.Sprintf("SELECT id, customer, amount FROM %s WHERE amount > %d", from, i)
		q, err := parser.ParseQuery(text)
		check(err)
		id, err := m.Qualify(fmt.Sprintf("v%d", i))
		check(err)
		an, err := (&Analyzer{Funcs: reg, Catalogs: m, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr, Source: text}).ViewQuery(ctx, id, q)
		check(err)
		v := &catalogs.CatalogView{OriginalQuery: text, ExpandedQuery: an.ExpandedText()}
		for _, c := range an.Columns {
			v.Columns = append(v.Columns, catalogs.Column{Name: c.Name, Type: c.Type})
		}
		check(m.ReplaceView(ctx, id, v, false))
	}
	return m
}

func benchAnalyze(b *testing.B, text string) {
	m := benchManager(b)
	reg := functions.NewRegistry()
	ctx := context.Background()
	q, err := parser.ParseQuery(text)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		an, err := (&Analyzer{Funcs: reg, Catalogs: m, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr, Source: text}).Query(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if an.Plan == nil {
			b.Fatalf("no plan: %v", an.PlanErr)
		}
	}
}

// BenchmarkAnalyzeJoinGroup validates and plans a join with grouping,
// HAVING and ordering.
func BenchmarkAnalyzeJoinGroup(b *testing.B) {
	benchAnalyze(b, `SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total,
  CASE WHEN SUM(o.amount) > 100 THEN 'big' ELSE 'small' END AS size
FROM orders AS o JOIN customers AS c ON o.customer = c.name
WHERE o.amount BETWEEN 1 AND 1000 AND o.customer LIKE 'a%' AND o.id IN (1, 2, 3)
GROUP BY c.region HAVING COUNT(*) > 1 ORDER BY total DESC LIMIT 10`)
}

// BenchmarkAnalyzeNestedViews validates a query through five nested views,
// each expanded from its stored text.
func BenchmarkAnalyzeNestedViews(b *testing.B) {
	benchAnalyze(b, "SELECT COUNT(*) FROM v5")
}

// BenchmarkExpr type-checks one expression against a scope.
func BenchmarkExpr(b *testing.B) {
	e, err := parser.ParseExpr("CASE WHEN a > 1 AND b LIKE 'x%' THEN UPPER(b) || CAST(a AS STRING) ELSE COALESCE(b, 'none') END")
	if err != nil {
		b.Fatal(err)
	}
	scope := NewScope(Column{Table: "t", Name: "a", Type: types.New(types.Int)}, Column{Table: "t", Name: "b", Type: types.NewString()})
	v := New(functions.NewRegistry())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.Expr(scope, e); err != nil {
			b.Fatal(err)
		}
	}
}
