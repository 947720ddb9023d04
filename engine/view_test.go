package engine_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine"
	"eddy/engine/types"
)

// openViewSession opens a session on the SQLite store at path with
// default_catalog (in memory) and _env_prod (sqlite, database `default`)
// current. close releases the store.
func openViewSession(t testing.TB, path string) (s *engine.Session, close func()) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	def := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{
		catalogs.OptionType: memory.Type, catalogs.OptionDefaultDatabase: "default_database"}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	env := catalogs.CatalogDescriptor{Name: "_env_prod", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, env, nil, catalogs.OriginConfig); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "_env_prod"); err != nil {
		t.Fatal(err)
	}
	s, err = engine.NewSession(engine.SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	return s, func() { mgr.Close(); store.Close() }
}

func exec(t *testing.T, s *engine.Session, sql string) *engine.Result {
	t.Helper()
	res, err := s.Execute(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res
}

// text returns a result's rows as lines of tab-separated cells.
func text(t *testing.T, res *engine.Result) string {
	t.Helper()
	var b strings.Builder
	if res.Rows == nil {
		return ""
	}
	defer res.Close()
	for {
		row, ok, err := res.Rows.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return b.String()
		}
		for i, v := range row.Values {
			if i > 0 {
				b.WriteByte('\t')
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
}

// columnList prints a Table's columns as "name TYPE, ...".
func columnList(t *engine.Table) string {
	var parts []string
	for _, c := range t.Columns() {
		parts = append(parts, c.Name+" "+c.Type.String())
	}
	return strings.Join(parts, ", ")
}

func failsWith(t *testing.T, s *engine.Session, sql, class, msg string) {
	t.Helper()
	_, err := s.Execute(context.Background(), sql)
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: want %s error, got %v", sql, class, err)
	}
	if e.Class != class || e.Message != msg {
		t.Fatalf("%s:\n got %s: %s\nwant %s: %s", sql, e.Class, e.Message, class, msg)
	}
}

const viewSetup = `CREATE TABLE orders (order_id BIGINT NOT NULL, customer_id INT, price DOUBLE) WITH ('connector' = 'datagen');
CREATE VIEW large_orders (id, customer) COMMENT 'big ones' AS SELECT order_id, customer_id FROM orders WHERE price > 50;
CREATE VIEW over_large AS SELECT * FROM large_orders l WHERE l.customer IS NOT NULL;
CREATE DATABASE other;
CREATE VIEW other.moved AS SELECT id FROM ` + "`default`" + `.large_orders;
ALTER VIEW other.moved RENAME TO other.renamed`

// TestViewsSurviveRestart creates views in a sqlite catalog, closes the
// store, opens it again and finds byte-identical SHOW CREATE VIEW and
// DESCRIBE answers (issue 6 rule 11).
func TestViewsSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	show := []string{"SHOW CREATE VIEW large_orders", "SHOW CREATE VIEW over_large", "SHOW CREATE VIEW other.renamed",
		"DESCRIBE large_orders", "SHOW VIEWS", "SHOW VIEWS FROM other", "SHOW TABLES"}
	answers := func(s *engine.Session) []string {
		var out []string
		for _, q := range show {
			out = append(out, text(t, exec(t, s, q)))
		}
		return out
	}
	s, closeStore := openViewSession(t, path)
	for _, st := range strings.Split(viewSetup, ";\n") {
		exec(t, s, st)
	}
	first := answers(s)
	closeStore()
	if !strings.Contains(first[0], "FROM `_env_prod`.`default`.`orders` AS `orders`") || !strings.Contains(first[0], "COMMENT 'big ones'") {
		t.Fatalf("unexpected SHOW CREATE VIEW:\n%s", first[0])
	}

	s2, closeStore2 := openViewSession(t, path)
	defer closeStore2()
	second := answers(s2)
	for i := range show {
		if first[i] != second[i] {
			t.Errorf("%s after a restart:\n%s\nbefore:\n%s", show[i], second[i], first[i])
		}
	}
	// The restored view still validates and reads the same objects.
	tbl, err := s2.SQLQuery(context.Background(), "SELECT * FROM over_large")
	if err != nil {
		t.Fatal(err)
	}
	if got := columnList(tbl); got != "id BIGINT NOT NULL, customer INT" {
		t.Errorf("columns after a restart: %s", got)
	}
}

// TestGoViewAPI covers the Go API of views: SQLQuery, CreateView and
// CreateTemporaryView with and without ignoreIfExists.
func TestGoViewAPI(t *testing.T) {
	ctx := context.Background()
	s, closeStore := openViewSession(t, filepath.Join(t.TempDir(), "eddy.db"))
	defer closeStore()
	exec(t, s, "CREATE TABLE orders (order_id BIGINT NOT NULL, price DOUBLE) WITH ('connector' = 'datagen')")

	tbl, err := s.SQLQuery(ctx, "SELECT order_id, price * 2 AS doubled FROM orders WHERE price > 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT `orders`.`order_id`, `orders`.`price` * 2 AS `doubled`\nFROM `_env_prod`.`default`.`orders` AS `orders`\nWHERE `orders`.`price` > 1"
	if tbl.ExpandedQuery() != want {
		t.Fatalf("expanded query:\n%s\nwant:\n%s", tbl.ExpandedQuery(), want)
	}
	// The Table keeps the names it resolved even if the current catalog changes.
	exec(t, s, "USE CATALOG default_catalog")
	created, err := s.CreateView(ctx, "_env_prod.`default`.doubled_orders", tbl, false)
	if err != nil || !created {
		t.Fatalf("CreateView: %v, %v", created, err)
	}
	created, err = s.CreateView(ctx, "_env_prod.`default`.doubled_orders", tbl, true)
	if err != nil || created {
		t.Fatalf("CreateView again with ignoreIfExists: created=%v err=%v", created, err)
	}
	_, err = s.CreateView(ctx, "_env_prod.`default`.doubled_orders", tbl, false)
	if e := engine.AsError(err); e == nil || e.Class != "TableAlreadyExistException" {
		t.Fatalf("CreateView of an existing view: %v", err)
	}
	_, err = s.CreateView(ctx, "_env_prod.`default`.orders", tbl, false)
	if e := engine.AsError(err); e == nil || e.Message != "Table (or view) default.orders already exists in Catalog _env_prod." {
		t.Fatalf("CreateView over a table: %v", err)
	}
	got := text(t, exec(t, s, "SHOW CREATE VIEW _env_prod.`default`.doubled_orders"))
	if !strings.Contains(got, "AS "+want+"\n") || !strings.Contains(got, "  `doubled`\n") {
		t.Fatalf("SHOW CREATE VIEW:\n%s", got)
	}

	created, err = s.CreateTemporaryView(ctx, "tmp", tbl, false)
	if err != nil || !created {
		t.Fatalf("CreateTemporaryView: %v %v", created, err)
	}
	if created, err = s.CreateTemporaryView(ctx, "tmp", tbl, true); err != nil || created {
		t.Fatalf("CreateTemporaryView again: %v %v", created, err)
	}
	if got := text(t, exec(t, s, "SHOW VIEWS")); got != "tmp\n" {
		t.Fatalf("SHOW VIEWS in default_catalog: %q", got)
	}
	if _, err := s.SQLQuery(ctx, "SHOW TABLES"); err == nil {
		t.Fatal("SQLQuery accepted a statement that is not a query")
	}
	if _, err := s.SQLQuery(ctx, "SELECT nope FROM tmp"); engine.AsError(err).Message != "Column 'nope' not found in any table" {
		t.Fatalf("SQLQuery of a bad query: %v", err)
	}
}

// TestCatalogLevelViews creates a view through the catalog API from an
// original and an expanded query and a schema (Flink's CatalogView), then
// lists, reads, alters, renames and drops it (seed 001).
func TestCatalogLevelViews(t *testing.T) {
	ctx := context.Background()
	s, closeStore := openViewSession(t, filepath.Join(t.TempDir(), "eddy.db"))
	defer closeStore()
	exec(t, s, "CREATE TABLE people (id INT, name STRING, age INT) WITH ('connector' = 'datagen')")
	cat, err := s.Catalogs().Catalog(ctx, "_env_prod")
	if err != nil {
		t.Fatal(err)
	}
	path := catalogs.NewObjectPath("default", "adults")
	v := &catalogs.CatalogView{
		OriginalQuery: "select id, name from people where age >= 18",
		ExpandedQuery: "SELECT `people`.`id`, `people`.`name`\nFROM `_env_prod`.`default`.`people` AS `people`\nWHERE `people`.`age` >= 18",
		Columns:       []catalogs.Column{{Name: "id", Type: types.New(types.Int)}, {Name: "name", Type: types.NewString()}},
		Comment:       "grown-ups",
	}
	if err := cat.CreateTable(ctx, path, v, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := cat.TableExists(ctx, path); err != nil || !ok {
		t.Fatalf("TableExists: %v %v", ok, err)
	}
	views, err := cat.ListViews(ctx, "default")
	if err != nil || fmt.Sprint(views) != "[adults]" {
		t.Fatalf("ListViews: %v %v", views, err)
	}
	got, err := cat.GetTable(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	gv, ok := got.(*catalogs.CatalogView)
	if !ok || gv.OriginalQuery != v.OriginalQuery || gv.ExpandedQuery != v.ExpandedQuery || gv.Comment != "grown-ups" {
		t.Fatalf("GetTable: %#v", got)
	}
	tbl, err := s.SQLQuery(ctx, "SELECT name FROM adults")
	if err != nil {
		t.Fatal(err)
	}
	if columnList(tbl) != "name STRING" {
		t.Fatalf("columns: %v", tbl.Columns())
	}
	v.ExpandedQuery = "SELECT `people`.`id`, `people`.`name`\nFROM `_env_prod`.`default`.`people` AS `people`\nWHERE `people`.`age` >= 21"
	if err := cat.AlterTable(ctx, path, v, false); err != nil {
		t.Fatal(err)
	}
	if err := cat.RenameTable(ctx, path, "grown_ups", false); err != nil {
		t.Fatal(err)
	}
	out := text(t, exec(t, s, "SHOW CREATE VIEW grown_ups"))
	if !strings.Contains(out, ">= 21") || !strings.Contains(out, "COMMENT 'grown-ups'") {
		t.Fatalf("SHOW CREATE VIEW after alter and rename:\n%s", out)
	}
	if err := cat.DropTable(ctx, catalogs.NewObjectPath("default", "grown_ups"), false); err != nil {
		t.Fatal(err)
	}
	if got := text(t, exec(t, s, "SHOW VIEWS")); got != "" {
		t.Fatalf("SHOW VIEWS after drop: %q", got)
	}
}

// noViews is a catalog type that declares it supports no view DDL, as a
// read-only or external-data catalog does.
type noViews struct{ *memory.Catalog }

func (noViews) SupportsViews() bool { return false }
func (noViews) Type() string        { return "examples" }

// TestViewDDLUnsupported checks rule 9: CREATE, ALTER and DROP VIEW in a
// catalog without view support fail with the catalog's kind and name.
func TestViewDDLUnsupported(t *testing.T) {
	ctx := context.Background()
	s, closeStore := openViewSession(t, filepath.Join(t.TempDir(), "eddy.db"))
	defer closeStore()
	mgr := s.Catalogs()
	ex := noViews{memory.New("examples", "marketplace")}
	if err := mgr.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: "examples"}, ex, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	orders := &catalogs.CatalogTable{Schema: catalogs.Schema{Columns: []catalogs.Column{{Name: "price", Type: types.New(types.Double)}}},
		Options: map[string]string{"connector": "datagen"}}
	if err := ex.CreateTable(ctx, catalogs.NewObjectPath("marketplace", "orders"), orders, false); err != nil {
		t.Fatal(err)
	}
	// Views elsewhere may read its tables.
	exec(t, s, "CREATE VIEW pricey AS SELECT price FROM examples.marketplace.orders WHERE price > 50")
	msg := "View DDL is not supported on examples catalog 'examples'"
	failsWith(t, s, "CREATE VIEW examples.marketplace.v AS SELECT 1 AS x", "ValidationException", msg)
	failsWith(t, s, "CREATE OR REPLACE VIEW examples.marketplace.v AS SELECT 1 AS x", "ValidationException", msg)
	failsWith(t, s, "DROP VIEW examples.marketplace.v", "ValidationException", msg)
}
