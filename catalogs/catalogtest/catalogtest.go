package catalogtest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// CatalogName is the name Open must give the catalog under test; its
// default database must be "default".
const CatalogName = "cat"

// Open returns a fresh, empty catalog named CatalogName.
type Open func(t *testing.T) catalogs.Catalog

// SampleTable returns a table using every part of a table definition.
func SampleTable() *catalogs.CatalogTable {
	ts := types.NewTimestamp(3)
	return &catalogs.CatalogTable{
		Schema: catalogs.Schema{
			Columns: []catalogs.Column{
				{Name: "user", Kind: catalogs.Physical, Type: types.New(types.BigInt).WithNullable(false), Comment: "the user"},
				{Name: "product", Kind: catalogs.Physical, Type: types.NewVarChar(32)},
				{Name: "amount", Kind: catalogs.Physical, Type: types.NewDecimal(10, 2)},
				{Name: "ts", Kind: catalogs.Physical, Type: ts.WithTimeAttr(types.Rowtime)},
				{Name: "ptime", Kind: catalogs.Computed, Type: types.NewTimestampLTZ(3).WithNullable(false).WithTimeAttr(types.Proctime), Expr: "PROCTIME()"},
				{Name: "tags", Kind: catalogs.Physical, Type: types.NewMap(types.NewString(), types.NewArray(types.New(types.Int)))},
				{Name: "offset", Kind: catalogs.Metadata, Type: types.New(types.BigInt), MetadataKey: "kafka.offset", Virtual: true},
				{Name: "part", Kind: catalogs.Physical, Type: types.NewString()},
			},
			PrimaryKey: &catalogs.PrimaryKey{Name: "PK_user", Columns: []string{"user"}},
			Watermarks: []catalogs.WatermarkSpec{{RowtimeColumn: "ts", Expr: "`ts` - INTERVAL '1' SECOND"}},
		},
		PartitionKeys: []string{"part"},
		Distribution:  &catalogs.Distribution{Kind: catalogs.DistHash, Keys: []string{"user"}, Buckets: 4},
		Options:       map[string]string{"connector": "datagen", "rows-per-second": "5"},
		Comment:       "orders of 'today'",
	}
}

// SampleView returns a view with a frozen schema.
func SampleView() *catalogs.CatalogView {
	return &catalogs.CatalogView{
		OriginalQuery: "select * from orders",
		ExpandedQuery: "SELECT `orders`.`user`, `orders`.`ts`\nFROM `cat`.`default`.`orders` AS `orders`",
		Columns: []catalogs.Column{
			{Name: "user", Kind: catalogs.Physical, Type: types.New(types.BigInt).WithNullable(false)},
			{Name: "ts", Kind: catalogs.Physical, Type: types.NewTimestamp(3).WithTimeAttr(types.Rowtime)},
		},
		Comment: "a view",
		Options: map[string]string{},
	}
}

// HostileNames are names that must be stored verbatim.
var HostileNames = []string{
	"it's", `say "hi"`, "a;b", "x -- y", "back`tick", "drop table t; --", "ünï", "sp ace", "%_\\",
}

type scenario struct {
	name string
	run  func(t *testing.T, ctx context.Context, c catalogs.Catalog)
}

func p(db, o string) catalogs.ObjectPath { return catalogs.NewObjectPath(db, o) }

func mustKind(t *testing.T, err error, k *catalogs.Kind, msg string) {
	t.Helper()
	if !errors.Is(err, k) {
		t.Fatalf("err = %v, want kind %v", err, k)
	}
	if msg != "" && err.Error() != msg {
		t.Fatalf("message = %q\nwant      %q", err.Error(), msg)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func equal(t *testing.T, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}

var scenarios = []scenario{
	{"default database exists", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		equal(t, c.DefaultDatabase(), "default")
		dbs, err := c.ListDatabases(ctx)
		must(t, err)
		equal(t, dbs, []string{"default"})
		ok, err := c.DatabaseExists(ctx, "default")
		must(t, err)
		equal(t, ok, true)
	}},
	{"create, get, alter and list databases", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		in := &catalogs.CatalogDatabase{Comment: "db one", Options: map[string]string{"k1": "v1"}}
		must(t, c.CreateDatabase(ctx, "db1", in, false))
		in.Options["k1"] = "changed by caller"
		got, err := c.GetDatabase(ctx, "db1")
		must(t, err)
		equal(t, got, &catalogs.CatalogDatabase{Comment: "db one", Options: map[string]string{"k1": "v1"}})
		got.Options["k2"] = "x"
		again, err := c.GetDatabase(ctx, "db1")
		must(t, err)
		equal(t, again.Options, map[string]string{"k1": "v1"})

		mustKind(t, c.CreateDatabase(ctx, "db1", &catalogs.CatalogDatabase{}, false), catalogs.ErrDatabaseAlreadyExist,
			"Database db1 already exists in Catalog cat.")
		must(t, c.CreateDatabase(ctx, "db1", &catalogs.CatalogDatabase{Comment: "ignored"}, true))
		got, _ = c.GetDatabase(ctx, "db1")
		equal(t, got.Comment, "db one")

		must(t, c.AlterDatabase(ctx, "db1", &catalogs.CatalogDatabase{Comment: "new", Options: map[string]string{"k1": "a", "k2": "b"}}, false))
		got, _ = c.GetDatabase(ctx, "db1")
		equal(t, got, &catalogs.CatalogDatabase{Comment: "new", Options: map[string]string{"k1": "a", "k2": "b"}})
		mustKind(t, c.AlterDatabase(ctx, "nope", &catalogs.CatalogDatabase{}, false), catalogs.ErrDatabaseNotExist,
			"Database nope does not exist in Catalog cat.")
		must(t, c.AlterDatabase(ctx, "nope", &catalogs.CatalogDatabase{}, true))
		_, err = c.GetDatabase(ctx, "nope")
		mustKind(t, err, catalogs.ErrDatabaseNotExist, "Database nope does not exist in Catalog cat.")

		must(t, c.CreateDatabase(ctx, "Db0", nil, false))
		dbs, err := c.ListDatabases(ctx)
		must(t, err)
		equal(t, dbs, []string{"Db0", "db1", "default"})
	}},
	{"drop databases", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		mustKind(t, c.DropDatabase(ctx, "db9", false, false), catalogs.ErrDatabaseNotExist, "Database db9 does not exist in Catalog cat.")
		must(t, c.DropDatabase(ctx, "db9", true, false))
		must(t, c.CreateDatabase(ctx, "db1", nil, false))
		must(t, c.CreateTable(ctx, p("db1", "t"), SampleTable(), false))
		must(t, c.CreateFunction(ctx, p("db1", "f"), &catalogs.CatalogFunction{ClassName: "a.B"}, false))
		mustKind(t, c.DropDatabase(ctx, "db1", false, false), catalogs.ErrDatabaseNotEmpty, "Database db1 in Catalog cat is not empty.")
		must(t, c.DropTable(ctx, p("db1", "t"), false))
		mustKind(t, c.DropDatabase(ctx, "db1", false, false), catalogs.ErrDatabaseNotEmpty, "")
		must(t, c.CreateTable(ctx, p("db1", "t"), SampleView(), false))
		must(t, c.DropDatabase(ctx, "db1", false, true))
		ok, _ := c.DatabaseExists(ctx, "db1")
		equal(t, ok, false)
		// Re-creating the database finds it empty: cascade removed everything.
		must(t, c.CreateDatabase(ctx, "db1", nil, false))
		names, err := c.ListTables(ctx, "db1")
		must(t, err)
		equal(t, len(names), 0)
		fns, err := c.ListFunctions(ctx, "db1")
		must(t, err)
		equal(t, len(fns), 0)
		must(t, c.DropDatabase(ctx, "db1", false, false))
	}},
	{"tables and views round-trip", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		in := SampleTable()
		must(t, c.CreateTable(ctx, p("default", "orders"), in, false))
		in.Options["connector"] = "changed by caller"
		in.Schema.Columns[0].Name = "changed"
		got, err := c.GetTable(ctx, p("default", "orders"))
		must(t, err)
		equal(t, got, catalogs.BaseTable(SampleTable()))
		got.(*catalogs.CatalogTable).Schema.PrimaryKey.Columns[0] = "mutated"
		got.(*catalogs.CatalogTable).Options["x"] = "y"
		again, _ := c.GetTable(ctx, p("default", "orders"))
		equal(t, again, catalogs.BaseTable(SampleTable()))

		must(t, c.CreateTable(ctx, p("default", "v1"), SampleView(), false))
		gv, err := c.GetTable(ctx, p("default", "v1"))
		must(t, err)
		equal(t, gv, catalogs.BaseTable(SampleView()))

		must(t, c.CreateTable(ctx, p("default", "B_upper"), &catalogs.CatalogTable{Options: map[string]string{}}, false))
		names, err := c.ListTables(ctx, "default")
		must(t, err)
		equal(t, names, []string{"B_upper", "orders", "v1"})
		views, err := c.ListViews(ctx, "default")
		must(t, err)
		equal(t, views, []string{"v1"})
		ok, err := c.TableExists(ctx, p("default", "v1"))
		must(t, err)
		equal(t, ok, true)
		ok, _ = c.TableExists(ctx, p("default", "nope"))
		equal(t, ok, false)
		ok, _ = c.TableExists(ctx, p("nodb", "v1"))
		equal(t, ok, false)
	}},
	{"create errors", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		mustKind(t, c.CreateTable(ctx, p("db", "t"), SampleTable(), false), catalogs.ErrDatabaseNotExist,
			"Database db does not exist in Catalog cat.")
		must(t, c.CreateTable(ctx, p("default", "v1"), SampleView(), false))
		mustKind(t, c.CreateTable(ctx, p("default", "v1"), SampleTable(), false), catalogs.ErrTableAlreadyExist,
			"Table (or view) default.v1 already exists in Catalog cat.")
		must(t, c.CreateTable(ctx, p("default", "v1"), SampleTable(), true))
		got, _ := c.GetTable(ctx, p("default", "v1"))
		equal(t, got.TableKind(), catalogs.KindView)
		_, err := c.GetTable(ctx, p("default", "nope"))
		mustKind(t, err, catalogs.ErrTableNotExist, "Table (or view) default.nope does not exist in Catalog cat.")
		_, err = c.ListTables(ctx, "nodb")
		mustKind(t, err, catalogs.ErrDatabaseNotExist, "Database nodb does not exist in Catalog cat.")
		_, err = c.ListViews(ctx, "nodb")
		mustKind(t, err, catalogs.ErrDatabaseNotExist, "")
	}},
	{"alter tables and views", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		must(t, c.CreateTable(ctx, p("default", "t"), SampleTable(), false))
		must(t, c.CreateTable(ctx, p("default", "v"), SampleView(), false))
		nt := SampleTable()
		nt.Options = map[string]string{"connector": "kafka"}
		nt.Schema.Columns = nt.Schema.Columns[:2]
		nt.Schema.Watermarks = nil
		nt.Distribution = nil
		nt.Comment = ""
		must(t, c.AlterTable(ctx, p("default", "t"), nt, false))
		got, _ := c.GetTable(ctx, p("default", "t"))
		equal(t, got, catalogs.BaseTable(nt))
		nv := SampleView()
		nv.ExpandedQuery = "SELECT 1"
		nv.Columns = nv.Columns[:1]
		must(t, c.AlterTable(ctx, p("default", "v"), nv, false))
		gv, _ := c.GetTable(ctx, p("default", "v"))
		equal(t, gv, catalogs.BaseTable(nv))
		if err := c.AlterTable(ctx, p("default", "v"), SampleTable(), false); err == nil {
			t.Fatal("altering a view into a table succeeded")
		}
		gv, _ = c.GetTable(ctx, p("default", "v"))
		equal(t, gv, catalogs.BaseTable(nv))
		mustKind(t, c.AlterTable(ctx, p("default", "nope"), nt, false), catalogs.ErrTableNotExist,
			"Table (or view) default.nope does not exist in Catalog cat.")
		must(t, c.AlterTable(ctx, p("default", "nope"), nt, true))
		ok, _ := c.TableExists(ctx, p("default", "nope"))
		equal(t, ok, false)
	}},
	{"rename and move", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		must(t, c.CreateTable(ctx, p("default", "t"), SampleTable(), false))
		must(t, c.CreateTable(ctx, p("default", "v"), SampleView(), false))
		must(t, c.RenameTable(ctx, p("default", "t"), "t2", false))
		got, err := c.GetTable(ctx, p("default", "t2"))
		must(t, err)
		equal(t, got, catalogs.BaseTable(SampleTable()))
		mustKind(t, c.RenameTable(ctx, p("default", "t2"), "v", false), catalogs.ErrTableAlreadyExist,
			"Table (or view) default.v already exists in Catalog cat.")
		mustKind(t, c.RenameTable(ctx, p("default", "t"), "x", false), catalogs.ErrTableNotExist,
			"Table (or view) default.t does not exist in Catalog cat.")
		must(t, c.RenameTable(ctx, p("default", "t"), "x", true))
		names, _ := c.ListTables(ctx, "default")
		equal(t, names, []string{"t2", "v"})
		mv, ok := c.(catalogs.Mover)
		if !ok {
			return
		}
		must(t, c.CreateDatabase(ctx, "db2", nil, false))
		must(t, mv.MoveTable(ctx, p("default", "v"), p("db2", "v9")))
		gv, err := c.GetTable(ctx, p("db2", "v9"))
		must(t, err)
		equal(t, gv, catalogs.BaseTable(SampleView()))
		names, _ = c.ListTables(ctx, "default")
		equal(t, names, []string{"t2"})
		mustKind(t, mv.MoveTable(ctx, p("default", "t2"), p("nodb", "t2")), catalogs.ErrDatabaseNotExist, "")
		names, _ = c.ListTables(ctx, "default")
		equal(t, names, []string{"t2"})
	}},
	{"drop tables", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		must(t, c.CreateTable(ctx, p("default", "t"), SampleTable(), false))
		must(t, c.DropTable(ctx, p("default", "t"), false))
		mustKind(t, c.DropTable(ctx, p("default", "t"), false), catalogs.ErrTableNotExist,
			"Table (or view) default.t does not exist in Catalog cat.")
		must(t, c.DropTable(ctx, p("default", "t"), true))
		must(t, c.DropTable(ctx, p("nodb", "t"), true))
	}},
	{"functions", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		fn := &catalogs.CatalogFunction{ClassName: "com.example.Lower", Language: catalogs.LangJava,
			Resources: []catalogs.Resource{{Type: "JAR", URI: "/tmp/udf.jar"}}}
		must(t, c.CreateFunction(ctx, p("default", "lower1"), fn, false))
		fn.Resources[0].URI = "changed"
		got, err := c.GetFunction(ctx, p("default", "lower1"))
		must(t, err)
		equal(t, got, &catalogs.CatalogFunction{ClassName: "com.example.Lower", Language: catalogs.LangJava,
			Resources: []catalogs.Resource{{Type: "JAR", URI: "/tmp/udf.jar"}}})
		mustKind(t, c.CreateFunction(ctx, p("default", "lower1"), fn, false), catalogs.ErrFunctionAlreadyExist,
			"Function default.lower1 already exists in Catalog cat.")
		must(t, c.CreateFunction(ctx, p("default", "lower1"), fn, true))
		mustKind(t, c.CreateFunction(ctx, p("nodb", "f"), fn, false), catalogs.ErrDatabaseNotExist, "")
		must(t, c.AlterFunction(ctx, p("default", "lower1"), &catalogs.CatalogFunction{ClassName: "com.example.Upper", Language: catalogs.LangPython}, false))
		got, _ = c.GetFunction(ctx, p("default", "lower1"))
		equal(t, got.ClassName, "com.example.Upper")
		equal(t, got.Language, catalogs.LangPython)
		mustKind(t, c.AlterFunction(ctx, p("default", "nope"), fn, false), catalogs.ErrFunctionNotExist,
			"Function default.nope does not exist in Catalog cat.")
		must(t, c.CreateFunction(ctx, p("default", "a_fn"), fn, false))
		names, err := c.ListFunctions(ctx, "default")
		must(t, err)
		equal(t, names, []string{"a_fn", "lower1"})
		ok, _ := c.FunctionExists(ctx, p("default", "a_fn"))
		equal(t, ok, true)
		must(t, c.DropFunction(ctx, p("default", "a_fn"), false))
		mustKind(t, c.DropFunction(ctx, p("default", "a_fn"), false), catalogs.ErrFunctionNotExist, "")
		must(t, c.DropFunction(ctx, p("default", "a_fn"), true))
		_, err = c.GetFunction(ctx, p("default", "a_fn"))
		mustKind(t, err, catalogs.ErrFunctionNotExist, "Function default.a_fn does not exist in Catalog cat.")
	}},
	{"hostile names stored verbatim", func(t *testing.T, ctx context.Context, c catalogs.Catalog) {
		for _, n := range HostileNames {
			must(t, c.CreateDatabase(ctx, n, &catalogs.CatalogDatabase{Comment: n, Options: map[string]string{n: n}}, false))
			tbl := SampleTable()
			tbl.Options[n] = n
			tbl.Comment = n
			must(t, c.CreateTable(ctx, p(n, n), tbl, false))
			got, err := c.GetTable(ctx, p(n, n))
			must(t, err)
			equal(t, got, catalogs.BaseTable(tbl))
			names, err := c.ListTables(ctx, n)
			must(t, err)
			equal(t, names, []string{n})
		}
		dbs, err := c.ListDatabases(ctx)
		must(t, err)
		want := append(slices.Clone(HostileNames), "default")
		slices.Sort(want)
		equal(t, dbs, want)
	}},
}

// Run runs every scenario against a fresh catalog from open.
func Run(t *testing.T, open Open) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			s.run(t, context.Background(), open(t))
		})
	}
}
