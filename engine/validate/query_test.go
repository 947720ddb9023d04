package validate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// TestQueries runs the files under querydata/ against a real catalog
// manager over in-memory catalogs. Directives:
//
//	table name [temporary]   input: columns, one a line, "name TYPE" (a
//	                         serializable type string, optionally followed
//	                         by *ROWTIME* or *PROCTIME*); creates or
//	                         replaces the table (name may be qualified).
//	view name [temporary]    input: a query; validates it as the view's
//	                         query and stores the view; prints its
//	                         columns and expanded text, or the error.
//	use catalog [database]   changes the current catalog and database.
//	drop name                drops a table or view.
//	query                    input: a query; output: one line per output
//	                         column "name TYPE", "----", the expanded text.
//	error                    input: a query that must fail; output:
//	                         "Class line:col: message".
//	plan                     input: a query; output: its logical plan
//	                         (plan.Format), or "no plan: " and the reason.
//
// Regenerate with: go test ./engine/validate -run TestQueries -rewrite
func TestQueries(t *testing.T) {
	ctx := context.Background()
	reg := functions.NewRegistry()
	datadriven.Walk(t, "querydata", func(t *testing.T, path string) {
		m := queryManager(t)
		analyzer := func(src string) *Analyzer {
			return &Analyzer{Funcs: reg, Catalogs: m, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr, Source: src}
		}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "table":
				id := qualifyArg(t, m, td)
				tbl := &catalogs.CatalogTable{Options: map[string]string{"connector": "datagen"}}
				for _, l := range lines(td.Input) {
					name, typ, _ := strings.Cut(l, " ")
					var wm bool
					if strings.HasSuffix(typ, " *ROWTIME*") {
						wm, typ = true, strings.TrimSuffix(typ, " *ROWTIME*")
					}
					ty, err := types.Parse(typ)
					if err != nil {
						t.Fatalf("%s: bad type %q: %v", td.Pos, typ, err)
					}
					tbl.Schema.Columns = append(tbl.Schema.Columns, catalogs.Column{Name: name, Type: ty})
					if wm {
						tbl.Schema.Watermarks = append(tbl.Schema.Watermarks, catalogs.WatermarkSpec{RowtimeColumn: name, Expr: "`" + name + "`"})
					}
				}
				if td.HasArg("temporary") {
					must(t, m.CreateTemporaryTable(ctx, id, tbl, false))
					return ""
				}
				_ = m.DropTable(ctx, id, true)
				must(t, m.CreateTable(ctx, id, tbl, false))
				return ""
			case "view":
				id := qualifyArg(t, m, td)
				q, err := parser.ParseQuery(td.Input)
				if err != nil {
					t.Fatalf("%s: %v", td.Pos, err)
				}
				an, err := analyzer(td.Input).ViewQuery(ctx, id, q)
				if err != nil {
					return describeError(t, err) + "\n"
				}
				v := &catalogs.CatalogView{OriginalQuery: td.Input, ExpandedQuery: an.ExpandedText()}
				for _, c := range an.Columns {
					v.Columns = append(v.Columns, catalogs.Column{Name: c.Name, Type: c.Type})
				}
				must(t, m.ReplaceView(ctx, id, v, td.HasArg("temporary")))
				return describeQuery(an)
			case "use":
				must(t, m.SetCurrentCatalog(ctx, td.CmdArgs[0].Key))
				if len(td.CmdArgs) > 1 {
					must(t, m.SetCurrentDatabase(ctx, td.CmdArgs[1].Key))
				}
				return ""
			case "drop":
				id := qualifyArg(t, m, td)
				if err := m.DropTable(ctx, id, true); err != nil {
					t.Fatal(err)
				}
				if err := m.DropView(ctx, id, true); err != nil {
					t.Fatal(err)
				}
				return ""
			case "plan":
				q, err := parser.ParseQuery(td.Input)
				if err != nil {
					t.Fatalf("%s: %v", td.Pos, err)
				}
				an, err := analyzer(td.Input).Query(ctx, q)
				if err != nil {
					t.Fatalf("%s: unexpected error: %v", td.Pos, err)
				}
				if an.Plan == nil {
					return "no plan: " + an.PlanErr.Error() + "\n"
				}
				if got, want := an.Plan.Schema().Types(), outputTypes(an); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: the plan's output types %v differ from the query's %v", td.Pos, got, want)
				}
				return plan.Format(an.Plan)
			case "query", "error":
				q, err := parser.ParseQuery(td.Input)
				if err != nil {
					t.Fatalf("%s: %v", td.Pos, err)
				}
				an, err := analyzer(td.Input).Query(ctx, q)
				if td.Cmd == "query" {
					if err != nil {
						t.Fatalf("%s: unexpected error: %v", td.Pos, err)
					}
					text := an.ExpandedText()
					if _, err := parser.ParseQuery(text); err != nil {
						t.Fatalf("%s: expanded text does not parse: %v\n%s", td.Pos, err, text)
					}
					return describeQuery(an)
				}
				if err == nil {
					t.Fatalf("%s: expected an error, got\n%s", td.Pos, describeQuery(an))
				}
				return describeError(t, err) + "\n"
			}
			t.Fatalf("%s: unknown directive %q", td.Pos, td.Cmd)
			return ""
		})
	})
}

func outputTypes(an *Analyzed) []*types.Type {
	out := make([]*types.Type, len(an.Columns))
	for i, c := range an.Columns {
		out[i] = c.Type
	}
	return out
}

func describeQuery(an *Analyzed) string {
	var b strings.Builder
	for _, c := range an.Columns {
		fmt.Fprintf(&b, "%s %s\n", c.Name, c.Type)
	}
	b.WriteString("----\n")
	b.WriteString(an.ExpandedText())
	b.WriteString("\n")
	return b.String()
}

func qualifyArg(t *testing.T, m *catalogs.Manager, td *datadriven.TestData) catalogs.Identifier {
	t.Helper()
	if len(td.CmdArgs) == 0 {
		t.Fatalf("%s: a name is needed", td.Pos)
	}
	id, err := m.Qualify(strings.Split(td.CmdArgs[0].Key, ".")...)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// queryManager returns a manager with the catalogs default_catalog
// (databases default_database and db2) and cat2 (database db).
func queryManager(t *testing.T) *catalogs.Manager {
	t.Helper()
	ctx := context.Background()
	m := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, memory.NewStore())
	for _, c := range []struct{ name, db string }{{"default_catalog", "default_database"}, {"cat2", "db"}} {
		desc := catalogs.CatalogDescriptor{Name: c.name, Options: map[string]string{"type": memory.Type, "default-database": c.db}}
		must(t, m.RegisterCatalog(ctx, desc, nil, catalogs.OriginBuiltIn))
	}
	must(t, m.CreateDatabase(ctx, "default_catalog", "db2", &catalogs.CatalogDatabase{}, false))
	must(t, m.Use(ctx, "default_catalog", "default_database"))
	return m
}
