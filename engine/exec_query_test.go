package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine/ast"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/validate"
)

// openQuerySession opens a session whose current catalog is a sqlite
// catalog in a fresh store file.
func openQuerySession(t *testing.T) *Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	t.Cleanup(func() { mgr.Close(); store.Close() })
	lake := catalogs.CatalogDescriptor{Name: "lake", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, lake, nil, catalogs.OriginConfig); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "lake"); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustExec(t *testing.T, s *Session, sql string) {
	t.Helper()
	if _, err := s.Execute(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

var (
	intType = types.New(types.Int)
	strType = types.NewString()
)

// valuesPlan is VALUES of (INT, STRING) rows; a nil id is NULL and a
// zero divisor makes the row fail at run time (10 / 0).
func valuesPlan(rows ...[]any) plan.Node {
	v := &plan.Values{Cols: plan.Schema{{Name: "id", Type: intType}, {Name: "s", Type: strType}}}
	for _, r := range rows {
		id := plan.Expr(&plan.Literal{Value: r[0], T: intType})
		if r[0] == int32(0) {
			id = &plan.Call{Name: plan.OpDiv, T: intType, Args: []plan.Expr{
				&plan.Literal{Value: int32(10), T: intType}, &plan.Literal{Value: int32(0), T: intType}}}
		}
		v.Rows = append(v.Rows, []plan.Expr{id, &plan.Literal{Value: r[1], T: strType}})
	}
	return v
}

func (s *Session) insertPlan(t *testing.T, table string, overwrite bool, src plan.Node) *plan.Sink {
	t.Helper()
	ctx := context.Background()
	id, err := s.cat.Qualify(table)
	if err != nil {
		t.Fatal(err)
	}
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	sink, err := s.bindSink(id, entry,
		&ast.Insert{Table: &ast.ObjectName{Parts: []*ast.Ident{{Name: table}}}, Overwrite: overwrite}, src)
	if err != nil {
		t.Fatal(err)
	}
	return sink
}

// bindSink binds src as the query of ins into the table of entry, with the
// catalog the validator would resolve.
func (s *Session) bindSink(id catalogs.Identifier, entry catalogs.TableEntry, ins *ast.Insert, src plan.Node) (*plan.Sink, error) {
	cat, err := s.cat.Catalog(context.Background(), id.Catalog)
	if err != nil {
		return nil, err
	}
	entry.ID = id
	return validate.BindSink(entry, cat, ins, src)
}

func (s *Session) scanPlan(t *testing.T, table string) plan.Node {
	t.Helper()
	ctx := context.Background()
	id, _ := s.cat.Qualify(table)
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tbl := entry.Table.(*catalogs.CatalogTable)
	var phys plan.Schema
	for _, c := range tbl.Schema.Columns {
		phys = append(phys, plan.Column{Name: c.Name, Type: c.Type})
	}
	return &plan.Scan{Table: plan.TableID{Catalog: id.Catalog, Database: id.Database, Object: id.Object},
		Options: tbl.Options, Physical: phys, Bounded: true, Rowtime: -1}
}

func queryRows(t *testing.T, s *Session, n plan.Node) string {
	t.Helper()
	res, err := s.runQuery(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var lines []string
	for {
		row, ok, err := res.Rows.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return strings.Join(lines, "\n")
		}
		cells := []string{row.Kind.String()}
		for i, v := range row.Values {
			cells = append(cells, types.ValueString(v, res.Columns[i].Type))
		}
		lines = append(lines, strings.Join(cells, " "))
	}
}

func TestInsertIntoManagedSQLiteTable(t *testing.T) {
	s := openQuerySession(t)
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE t (id INT, s STRING)")
	ins := s.insertPlan(t, "t", false, valuesPlan([]any{int32(1), "Hello World"}, []any{int32(2), "Hi"}))
	if err := s.runSinks(ctx, s.connectors(), []*plan.Sink{ins}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := queryRows(t, s, s.scanPlan(t, "t")), "+I 1 Hello World\n+I 2 Hi"; got != want {
		t.Fatalf("after INSERT:\n%s\nwant:\n%s", got, want)
	}
	// A statement set whose second INSERT fails writes nothing at all.
	good := s.insertPlan(t, "t", false, valuesPlan([]any{int32(3), "x"}))
	bad := s.insertPlan(t, "t", false, valuesPlan([]any{int32(4), "y"}, []any{int32(0), "boom"}))
	err := s.runSinks(ctx, s.connectors(), []*plan.Sink{good, bad}, nil)
	if err == nil || !strings.Contains(err.Error(), "/ by zero") {
		t.Fatalf("err = %v, want / by zero", err)
	}
	if got, want := queryRows(t, s, s.scanPlan(t, "t")), "+I 1 Hello World\n+I 2 Hi"; got != want {
		t.Fatalf("after failed INSERT:\n%s\nwant:\n%s", got, want)
	}
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	over := s.insertPlan(t, "t", true, valuesPlan([]any{nil, "only"}))
	if err := s.runSinks(ctx, s.connectors(), []*plan.Sink{over}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := queryRows(t, s, s.scanPlan(t, "t")), "+I NULL only"; got != want {
		t.Fatalf("after INSERT OVERWRITE:\n%s\nwant:\n%s", got, want)
	}
	if _, err := s.execTruncate(ctx, &ast.Truncate{Table: &ast.ObjectName{Parts: []*ast.Ident{{Name: "t"}}}}); err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, s, s.scanPlan(t, "t")); got != "" {
		t.Fatalf("after TRUNCATE: %q", got)
	}
}

func TestInsertColumnCountMismatch(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "CREATE TABLE t3 (a INT, b STRING, c INT)")
	id, _ := s.cat.Qualify("t3")
	entry, _ := s.cat.GetTable(context.Background(), id)
	_, err := s.bindSink(id, entry,
		&ast.Insert{Table: &ast.ObjectName{Parts: []*ast.Ident{{Name: "t3"}}}}, valuesPlan([]any{int32(1), "a"}))
	if err == nil || !strings.Contains(err.Error(), "Different number of columns") {
		t.Fatalf("err = %v", err)
	}
	// With a column list the missing column is NULL.
	sink, err := s.bindSink(id, entry, &ast.Insert{
		Table:   &ast.ObjectName{Parts: []*ast.Ident{{Name: "t3"}}},
		Columns: []*ast.Ident{{Name: "c"}, {Name: "b"}}}, valuesPlan([]any{int32(7), "x"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.runSinks(context.Background(), s.connectors(), []*plan.Sink{sink}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := queryRows(t, s, s.scanPlan(t, "t3")), "+I NULL x 7"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestStreamingChangelogResult(t *testing.T) {
	s := openQuerySession(t)
	v := valuesPlan([]any{int32(1), "Hello World"}, []any{int32(2), "Hi"}, []any{int32(2), "Hi"})
	sch := v.Schema()
	bigint := types.New(types.BigInt).WithNullable(false)
	agg := &plan.Aggregate{Input: v, Group: []plan.Expr{sch.Ref(0)}, GroupNames: []string{"id"},
		Aggs: []plan.AggCall{{Name: "COUNT", Alias: "cnt", T: bigint}}}
	mustExec(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	if got, want := queryRows(t, s, agg), "+I 1 1\n+I 2 1\n-U 2 1\n+U 2 2"; got != want {
		t.Fatalf("streaming:\n%s\nwant:\n%s", got, want)
	}
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	if got, want := queryRows(t, s, agg), "+I 1 1\n+I 2 2"; got != want {
		t.Fatalf("batch:\n%s\nwant:\n%s", got, want)
	}
}
