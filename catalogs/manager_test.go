package catalogs_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
	"eddy/catalogs/memory"
)

var ctx = context.Background()

func newManager(t *testing.T) *catalogs.Manager {
	t.Helper()
	m := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, memory.NewStore())
	desc := catalogs.CatalogDescriptor{Name: "default_catalog",
		Options: map[string]string{"type": memory.Type, "default-database": "default_database"}}
	if err := m.RegisterCatalog(ctx, desc, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := m.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	return m
}

func id(c, d, o string) catalogs.Identifier { return catalogs.NewIdentifier(c, d, o) }

func dc(o string) catalogs.Identifier { return id("default_catalog", "default_database", o) }

func inMemory(name string) catalogs.CatalogDescriptor {
	return catalogs.CatalogDescriptor{Name: name, Options: map[string]string{"type": memory.Type}}
}

// flinkErr asserts kind, Flink class and exact message.
func flinkErr(t *testing.T, err error, kind *catalogs.Kind, class, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s: %s", class, msg)
	}
	if !errors.Is(err, kind) {
		t.Errorf("err %v is not of kind %v", err, kind)
	}
	var c interface{ Class() string }
	if !errors.As(err, &c) || c.Class() != class {
		t.Errorf("class = %v, want %s", c, class)
	}
	if err.Error() != msg {
		t.Errorf("message = %q\nwant      %q", err.Error(), msg)
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

func table() *catalogs.CatalogTable { return catalogtest.SampleTable() }
func view() *catalogs.CatalogView   { return catalogtest.SampleView() }

func TestQualify(t *testing.T) {
	m := newManager(t)
	got, err := m.Qualify("t")
	must(t, err)
	equal(t, got, dc("t"))
	got, _ = m.Qualify("db", "t")
	equal(t, got, id("default_catalog", "db", "t"))
	got, _ = m.Qualify("c", "db", "t")
	equal(t, got, id("c", "db", "t"))
	_, err = m.Qualify("a", "b", "c", "d")
	flinkErr(t, err, catalogs.ErrInvalidIdentifier, "ValidationException", "Object identifier must consist of 1 to 3 parts.")
	_, err = m.Qualify(" ")
	flinkErr(t, err, catalogs.ErrInvalidIdentifier, "ValidationException", "Parts of the object identifier are null or whitespace-only.")
	equal(t, got.String(), "`c`.`db`.`t`")
	equal(t, id("a`b", "d", "o").String(), "`a``b`.`d`.`o`")
	equal(t, id("a`b", "d", "o").SummaryString(), "a`b.d.o")

	m.UnsetCurrent()
	_, err = m.Qualify("t")
	flinkErr(t, err, catalogs.ErrNoCurrentCatalog, "ValidationException",
		"A current catalog has not been set. Please use a fully qualified identifier (such as 'my_catalog.my_database.my_table') or set a current catalog using 'USE CATALOG my_catalog'.")
	got, err = m.Qualify("c", "db", "t")
	must(t, err)
	equal(t, got, id("c", "db", "t"))
	must(t, m.SetCurrentCatalog(ctx, "default_catalog"))
	// A catalog whose default database is missing leaves no current database.
	m2 := catalogs.NewManager(nil, nil)
	must(t, m2.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: "c"}, memory.New("c", ""), catalogs.OriginBuiltIn))
	must(t, m2.SetCurrentCatalog(ctx, "c"))
	_, err = m2.Qualify("t")
	flinkErr(t, err, catalogs.ErrNoCurrentDatabase, "ValidationException",
		"A current database has not been set. Please use a fully qualified identifier (such as 'my_database.my_table' or 'my_catalog.my_database.my_table') or set a current database using 'USE my_database'.")
}

func TestCatalogStatements(t *testing.T) {
	m := newManager(t)
	// catalog_database.q, in order.
	flinkErr(t, m.SetCurrentDatabase(ctx, "non_existing_db"), catalogs.ErrDatabaseNotExist, "CatalogException",
		"A database with name [non_existing_db] does not exist in the catalog: [default_catalog].")
	flinkErr(t, m.SetCurrentCatalog(ctx, "non_existing_catalog"), catalogs.ErrCatalogNotExist, "CatalogException",
		"A catalog with name [non_existing_catalog] does not exist.")
	flinkErr(t, m.CreateDatabase(ctx, "my", "db", nil, false), catalogs.ErrCatalogNotExist, "ValidationException",
		"Catalog my does not exist")

	must(t, m.CreateCatalog(ctx, inMemory("c1"), false))
	names, err := m.ListCatalogs(ctx, nil)
	must(t, err)
	equal(t, names, []string{"c1", "default_catalog"})
	names, _ = m.ListCatalogs(ctx, &catalogs.LikeFilter{Pattern: "%c1"})
	equal(t, names, []string{"c1"})
	names, _ = m.ListCatalogs(ctx, &catalogs.LikeFilter{Pattern: "default%", Not: true})
	equal(t, names, []string{"c1"})
	names, _ = m.ListCatalogs(ctx, &catalogs.LikeFilter{Pattern: "%C1", CaseInsensitive: true})
	equal(t, names, []string{"c1"})

	must(t, m.SetCurrentCatalog(ctx, "c1"))
	equal(t, m.CurrentCatalog(), "c1")
	equal(t, m.CurrentDatabase(), "default")
	must(t, m.DropCatalog(ctx, "default_catalog", false))
	flinkErr(t, m.DropCatalog(ctx, "c1", false), catalogs.ErrCatalogInUse, "CatalogException",
		"Cannot drop a catalog which is currently in use.")
	flinkErr(t, m.DropCatalog(ctx, "c9", false), catalogs.ErrCatalogNotExist, "CatalogException", "Catalog c9 does not exist.")
	must(t, m.DropCatalog(ctx, "c9", true))

	cc := catalogs.CatalogDescriptor{Name: "cat_comment", Comment: "hello 'catalog'",
		Options: map[string]string{"type": memory.Type, "default-database": "db"}}
	must(t, m.CreateCatalog(ctx, cc, false))
	info, err := m.DescribeCatalog(ctx, "cat_comment")
	must(t, err)
	equal(t, info, catalogs.CatalogInfo{Descriptor: cc, Origin: catalogs.OriginStore})
	must(t, m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "cat_comment", Comment: "hello", Options: map[string]string{"type": memory.Type}}, true))
	info, _ = m.DescribeCatalog(ctx, "cat_comment")
	equal(t, info.Descriptor.Comment, "hello 'catalog'")
	flinkErr(t, m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "cat_comment", Options: map[string]string{"type": memory.Type}}, false),
		catalogs.ErrCatalogAlreadyExist, "CatalogException", "Catalog cat_comment already exists.")

	must(t, m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "cat2", Options: map[string]string{"type": memory.Type, "default-database": "db"}}, false))
	must(t, m.AlterCatalogOptions(ctx, "cat2", map[string]string{"default-database": "db_new"}, nil))
	info, _ = m.DescribeCatalog(ctx, "cat2")
	equal(t, info.Descriptor.Options, map[string]string{"type": memory.Type, "default-database": "db_new"})
	must(t, m.AlterCatalogOptions(ctx, "cat2", nil, []string{"default-database", "k1"}))
	info, _ = m.DescribeCatalog(ctx, "cat2")
	equal(t, info.Descriptor.Options, map[string]string{"type": memory.Type})
	flinkErr(t, m.AlterCatalogOptions(ctx, "cat2", nil, []string{"type"}), catalogs.ErrInvalidOption, "ValidationException",
		"ALTER CATALOG RESET does not support changing 'type'")
	flinkErr(t, m.AlterCatalogOptions(ctx, "cat2", nil, []string{}), catalogs.ErrInvalidOption, "ValidationException",
		"ALTER CATALOG RESET does not support empty key")
	must(t, m.AlterCatalogComment(ctx, "cat2", "comment for catalog 'cat2'"))
	info, _ = m.DescribeCatalog(ctx, "cat2")
	equal(t, info.Descriptor.Comment, "comment for catalog 'cat2'")
	// A bad option leaves the catalog as it was.
	if err := m.AlterCatalogOptions(ctx, "cat2", map[string]string{"bogus": "1"}, nil); err == nil {
		t.Fatal("unsupported option accepted")
	}
	info, _ = m.DescribeCatalog(ctx, "cat2")
	equal(t, info.Descriptor.Options, map[string]string{"type": memory.Type})

	_, err = m.ListDatabases(ctx, "c0", nil)
	flinkErr(t, err, catalogs.ErrCatalogNotExist, "ValidationException", "Catalog c0 does not exist")

	// Keyword-named catalog: cannot drop the current database or catalog.
	must(t, m.CreateCatalog(ctx, inMemory("mod"), false))
	must(t, m.SetCurrentCatalog(ctx, "mod"))
	must(t, m.SetCurrentDatabase(ctx, "default"))
	flinkErr(t, m.DropDatabase(ctx, "mod", "default", false, false), catalogs.ErrDatabaseInUse, "ValidationException",
		"Cannot drop a database which is currently in use.")
	flinkErr(t, m.DropCatalog(ctx, "mod", false), catalogs.ErrCatalogInUse, "CatalogException",
		"Cannot drop a catalog which is currently in use.")
	must(t, m.SetCurrentCatalog(ctx, "c1"))
	must(t, m.DropCatalog(ctx, "mod", false))
}

func TestCatalogTypes(t *testing.T) {
	m := newManager(t)
	err := m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "h", Options: map[string]string{"type": "hive"}}, false)
	flinkErr(t, err, catalogs.ErrUnsupportedType, "ValidationException",
		"Unsupported catalog type 'hive' for catalog 'h'. Supported catalog types are: generic_in_memory")
	err = m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "h", Options: map[string]string{}}, false)
	flinkErr(t, err, catalogs.ErrMissingOption, "ValidationException",
		"Catalog 'h' has no 'type' option. Supported catalog types are: generic_in_memory")
	ok, err := m.CatalogExists(ctx, "h")
	must(t, err)
	equal(t, ok, false)
}

func TestDatabaseStatements(t *testing.T) {
	m := newManager(t)
	must(t, m.CreateDatabase(ctx, "default_catalog", "db1", &catalogs.CatalogDatabase{Comment: "c"}, false))
	flinkErr(t, m.CreateDatabase(ctx, "default_catalog", "db1", nil, false), catalogs.ErrDatabaseAlreadyExist,
		"DatabaseAlreadyExistException", "Database db1 already exists in Catalog default_catalog.")
	must(t, m.CreateDatabase(ctx, "default_catalog", "db1", nil, true))
	flinkErr(t, m.DropDatabase(ctx, "default_catalog", "db9", false, false), catalogs.ErrDatabaseNotExist,
		"DatabaseNotExistException", "Database db9 does not exist in Catalog default_catalog.")
	must(t, m.DropDatabase(ctx, "default_catalog", "db9", true, false))
	flinkErr(t, m.DropDatabase(ctx, "nocat", "db9", false, false), catalogs.ErrCatalogNotExist,
		"CatalogNotExistException", "Catalog nocat does not exist.")
	must(t, m.CreateTable(ctx, id("default_catalog", "db1", "t"), table(), false))
	flinkErr(t, m.DropDatabase(ctx, "default_catalog", "db1", false, false), catalogs.ErrDatabaseNotEmpty,
		"DatabaseNotEmptyException", "Database db1 in Catalog default_catalog is not empty.")
	must(t, m.AlterDatabase(ctx, "default_catalog", "db1", &catalogs.CatalogDatabase{Options: map[string]string{"k1": "a"}}, false))
	db, err := m.GetDatabase(ctx, "default_catalog", "db1")
	must(t, err)
	equal(t, db.Options, map[string]string{"k1": "a"})
	must(t, m.CreateDatabase(ctx, "default_catalog", "Abc", nil, false))
	dbs, err := m.ListDatabases(ctx, "default_catalog", nil)
	must(t, err)
	equal(t, dbs, []string{"Abc", "db1", "default_database"})
	dbs, _ = m.ListDatabases(ctx, "default_catalog", &catalogs.LikeFilter{Pattern: "DB%", CaseInsensitive: true})
	equal(t, dbs, []string{"db1"})

	// USE c.db switches both or neither.
	must(t, m.CreateCatalog(ctx, inMemory("c2"), false))
	err = m.Use(ctx, "c2", "nope")
	flinkErr(t, err, catalogs.ErrDatabaseNotExist, "CatalogException", "A database with name [nope] does not exist in the catalog: [c2].")
	equal(t, m.CurrentCatalog()+"."+m.CurrentDatabase(), "default_catalog.default_database")
	must(t, m.Use(ctx, "c2", "default"))
	equal(t, m.CurrentCatalog()+"."+m.CurrentDatabase(), "c2.default")
	must(t, m.Use(ctx, "", "default"))
	must(t, m.DropDatabase(ctx, "default_catalog", "db1", false, true))
}

func TestTableStatements(t *testing.T) {
	m := newManager(t)
	must(t, m.CreateTable(ctx, dc("v1"), view(), false))
	flinkErr(t, m.CreateTable(ctx, dc("v1"), view(), false), catalogs.ErrTableAlreadyExist, "TableAlreadyExistException",
		"Table (or view) default_database.v1 already exists in Catalog default_catalog.")
	must(t, m.CreateTable(ctx, dc("v1"), view(), true))
	flinkErr(t, m.CreateTable(ctx, id("default_catalog", "db", "t"), table(), false), catalogs.ErrDatabaseNotExist,
		"DatabaseNotExistException", "Database db does not exist in Catalog default_catalog.")
	flinkErr(t, m.CreateTable(ctx, id("my", "db", "t"), table(), false), catalogs.ErrCatalogNotExist,
		"ValidationException", "Catalog my does not exist.")
	flinkErr(t, m.DropTable(ctx, id("my", "db", "t"), false), catalogs.ErrTableNotExist,
		"ValidationException", "Table with identifier 'my.db.t' does not exist.")

	// Temporary objects: no catalog check; shadowing; duplicate error.
	must(t, m.CreateTemporaryTable(ctx, id("nocat", "nodb", "tmp"), table(), false))
	must(t, m.CreateTemporaryTable(ctx, dc("v1"), view(), false))
	flinkErr(t, m.CreateTemporaryTable(ctx, dc("v1"), view(), false), catalogs.ErrTableAlreadyExist, "ValidationException",
		"Temporary table '`default_catalog`.`default_database`.`v1`' already exists")
	must(t, m.CreateTemporaryTable(ctx, dc("v1"), table(), true))
	e, err := m.GetTable(ctx, dc("v1"))
	must(t, err)
	equal(t, e.Temporary, true)

	// Dropping the permanent view while the temporary one exists.
	flinkErr(t, m.DropView(ctx, dc("v1"), false), catalogs.ErrTemporaryExists, "ValidationException",
		"Temporary view with identifier '`default_catalog`.`default_database`.`v1`' exists. Drop it first before removing the permanent view.")
	must(t, m.CreateTable(ctx, dc("t1"), table(), false))
	must(t, m.CreateTemporaryTable(ctx, dc("t1"), table(), false))
	flinkErr(t, m.DropTable(ctx, dc("t1"), false), catalogs.ErrTemporaryExists, "ValidationException",
		"Temporary table with identifier '`default_catalog`.`default_database`.`t1`' exists. Drop it first before removing the permanent table.")

	// Kind filtering of DROP TABLE / DROP VIEW.
	flinkErr(t, m.DropTable(ctx, dc("non_exist"), false), catalogs.ErrTableNotExist, "ValidationException",
		"Table with identifier 'default_catalog.default_database.non_exist' does not exist.")
	must(t, m.DropTemporaryView(dc("v1"), false))
	flinkErr(t, m.DropTable(ctx, dc("v1"), false), catalogs.ErrTableNotExist, "ValidationException",
		"Table with identifier 'default_catalog.default_database.v1' does not exist.")
	flinkErr(t, m.DropView(ctx, dc("non_exist"), false), catalogs.ErrTableNotExist, "ValidationException",
		"View with identifier 'default_catalog.default_database.non_exist' does not exist.")
	must(t, m.DropTemporaryTable(dc("t1"), false))
	flinkErr(t, m.DropView(ctx, dc("t1"), false), catalogs.ErrTableNotExist, "ValidationException",
		"View with identifier 'default_catalog.default_database.t1' does not exist.")
	must(t, m.DropView(ctx, dc("t1"), true))
	flinkErr(t, m.DropTemporaryTable(dc("t1"), false), catalogs.ErrTableNotExist, "ValidationException",
		"Temporary table or view with identifier 'default_catalog.default_database.t1' does not exist.")
	must(t, m.DropTemporaryTable(dc("t1"), true))
	must(t, m.DropView(ctx, dc("v1"), false))
	must(t, m.DropTable(ctx, dc("t1"), false))
	ok, err := m.TableExists(ctx, dc("t1"))
	must(t, err)
	equal(t, ok, false)
	_, err = m.GetTable(ctx, dc("t1"))
	flinkErr(t, err, catalogs.ErrTableNotExist, "TableNotExistException",
		"Table (or view) default_database.t1 does not exist in Catalog default_catalog.")
	e, err = m.GetTable(ctx, id("nocat", "nodb", "tmp"))
	must(t, err)
	equal(t, e.Table, catalogs.BaseTable(table()))
}

func TestAlterAndRename(t *testing.T) {
	m := newManager(t)
	flinkErr(t, m.AlterTable(ctx, dc("non_exist"), table(), false), catalogs.ErrTableNotExist, "ValidationException",
		"Table `default_catalog`.`default_database`.`non_exist` doesn't exist or is a temporary table.")
	must(t, m.AlterTable(ctx, dc("non_exist"), table(), true))
	must(t, m.CreateTable(ctx, dc("t"), table(), false))
	must(t, m.CreateTable(ctx, dc("v"), view(), false))
	nt := table()
	nt.Options["k"] = "v"
	must(t, m.AlterTable(ctx, dc("t"), nt, false))
	e, _ := m.GetTable(ctx, dc("t"))
	equal(t, e.Table, catalogs.BaseTable(nt))
	flinkErr(t, m.AlterTable(ctx, dc("v"), nt, false), catalogs.ErrWrongKind, "ValidationException",
		"ALTER TABLE for a view is not allowed")
	flinkErr(t, m.AlterView(ctx, dc("t"), view()), catalogs.ErrWrongKind, "ValidationException",
		"ALTER VIEW for a table is not allowed")
	flinkErr(t, m.AlterView(ctx, dc("nv"), view()), catalogs.ErrTableNotExist, "ValidationException",
		"View `default_catalog`.`default_database`.`nv` doesn't exist or is a temporary view.")
	must(t, m.CreateTemporaryTable(ctx, dc("tt"), table(), false))
	flinkErr(t, m.AlterTable(ctx, dc("tt"), nt, false), catalogs.ErrTableNotExist, "ValidationException",
		"Table `default_catalog`.`default_database`.`tt` doesn't exist or is a temporary table.")

	// Rename within the database, into another database, not across catalogs.
	flinkErr(t, m.RenameTable(ctx, dc("t"), dc("v"), false), catalogs.ErrTableAlreadyExist, "TableAlreadyExistException",
		"Table (or view) default_database.v already exists in Catalog default_catalog.")
	must(t, m.RenameTable(ctx, dc("t"), dc("t2"), false))
	must(t, m.CreateDatabase(ctx, "default_catalog", "db2", nil, false))
	must(t, m.RenameView(ctx, dc("v"), id("default_catalog", "db2", "v")))
	names, err := m.ListTables(ctx, "default_catalog", "db2", nil)
	must(t, err)
	equal(t, names, []string{"v"})
	must(t, m.CreateCatalog(ctx, inMemory("other"), false))
	err = m.RenameTable(ctx, dc("t2"), id("other", "default", "t2"), false)
	if !errors.Is(err, catalogs.ErrInvalidIdentifier) {
		t.Fatalf("cross-catalog rename: %v", err)
	}
	names, _ = m.ListTables(ctx, "default_catalog", "default_database", nil)
	equal(t, names, []string{"t2", "tt"})
}

func TestReplaceView(t *testing.T) {
	m := newManager(t)
	must(t, m.ReplaceView(ctx, dc("v"), view(), false))
	v2 := view()
	v2.Comment = "replaced"
	must(t, m.ReplaceView(ctx, dc("v"), v2, false))
	e, _ := m.GetTable(ctx, dc("v"))
	equal(t, e.Table.GetComment(), "replaced")
	must(t, m.CreateTable(ctx, dc("t"), table(), false))
	flinkErr(t, m.ReplaceView(ctx, dc("t"), v2, false), catalogs.ErrTableAlreadyExist, "TableAlreadyExistException",
		"Table (or view) default_database.t already exists in Catalog default_catalog.")
	must(t, m.ReplaceView(ctx, dc("tv"), v2, true))
	must(t, m.ReplaceView(ctx, dc("tv"), view(), true))
	e, _ = m.GetTable(ctx, dc("tv"))
	equal(t, e.Temporary, true)
	equal(t, e.Table.GetComment(), "a view")
}

func TestListing(t *testing.T) {
	m := newManager(t)
	for _, n := range []string{"person", "dim", "address", "Zeta"} {
		must(t, m.CreateTable(ctx, dc(n), table(), false))
	}
	must(t, m.CreateTable(ctx, dc("v_person"), view(), false))
	must(t, m.CreateTable(ctx, dc("v_address"), view(), false))
	must(t, m.CreateTemporaryTable(ctx, dc("v_person"), view(), false)) // listed once
	must(t, m.CreateTemporaryTable(ctx, dc("tmp_t"), table(), false))
	must(t, m.CreateTemporaryTable(ctx, id("default_catalog", "other", "x"), view(), false))
	names, err := m.ListTables(ctx, "default_catalog", "default_database", nil)
	must(t, err)
	equal(t, names, []string{"Zeta", "address", "dim", "person", "tmp_t", "v_address", "v_person"})
	views, err := m.ListViews(ctx, "default_catalog", "default_database", nil)
	must(t, err)
	equal(t, views, []string{"v_address", "v_person"})
	names, _ = m.ListTables(ctx, "default_catalog", "default_database", &catalogs.LikeFilter{Pattern: "%person%"})
	equal(t, names, []string{"person", "v_person"})
	names, _ = m.ListTables(ctx, "default_catalog", "default_database", &catalogs.LikeFilter{Pattern: "%person%", Not: true})
	equal(t, names, []string{"Zeta", "address", "dim", "tmp_t", "v_address"})
	names, _ = m.ListTables(ctx, "default_catalog", "default_database", &catalogs.LikeFilter{Pattern: "p_r%"})
	equal(t, names, []string{"person"})
	views, _ = m.ListViews(ctx, "default_catalog", "default_database", &catalogs.LikeFilter{Pattern: "%p_r%"})
	equal(t, views, []string{"v_person"})
	_, err = m.ListTables(ctx, "default_catalog", "nodb", nil)
	flinkErr(t, err, catalogs.ErrDatabaseNotExist, "ValidationException", "Database nodb does not exist")
	_, err = m.ListViews(ctx, "nocat", "nodb", nil)
	flinkErr(t, err, catalogs.ErrCatalogNotExist, "ValidationException", "Catalog nocat does not exist")
	equal(t, len(m.ListTemporaryTables()), 3)
}

func TestMatchLike(t *testing.T) {
	tests := []struct {
		s, pattern string
		ci, want   bool
	}{
		{"db1", "db%", false, true},
		{"default", "db%", false, false},
		{"DB1", "db%", false, false},
		{"DB1", "db%", true, true},
		{"person", "p_r%", false, true},
		{"pxrson", "p_r%", false, true},
		{"prson", "p_r%", false, false},
		{"a%b", `a\%b`, false, true},
		{"axb", `a\%b`, false, false},
		{"a_b", `a\_b`, false, true},
		{"axb", `a\_b`, false, false},
		{`a\b`, `a\\b`, false, true},
		{"", "%", false, true},
		{"", "_", false, false},
		{"äbc", "_bc", false, true},
		{"abc", "%%%c", false, true},
		{"abc", "a%b%c%", false, true},
		{"mississippi", "%iss%ipp_", false, true},
	}
	for _, tt := range tests {
		f := &catalogs.LikeFilter{Pattern: tt.pattern, CaseInsensitive: tt.ci}
		if got := f.Match(tt.s); got != tt.want {
			t.Errorf("LIKE %q matching %q (ILIKE %v) = %v", tt.pattern, tt.s, tt.ci, got)
		}
		f.Not = true
		if got := f.Filter([]string{tt.s}); (len(got) == 0) != tt.want {
			t.Errorf("NOT LIKE %q filtering %q (ILIKE %v) kept %v", tt.pattern, tt.s, tt.ci, got)
		}
	}
}

func TestFunctions(t *testing.T) {
	m := newManager(t)
	fn := &catalogs.CatalogFunction{ClassName: "a.Lower", Language: catalogs.LangJava}
	must(t, m.CreateFunction(ctx, dc("MyLower"), fn, false))
	e, err := m.GetFunction(ctx, dc("mylower"))
	must(t, err)
	equal(t, e, catalogs.FunctionEntry{ID: dc("mylower"), Function: fn})
	flinkErr(t, m.CreateFunction(ctx, dc("mylower"), fn, false), catalogs.ErrFunctionAlreadyExist, "FunctionAlreadyExistException",
		"Function default_database.mylower already exists in Catalog default_catalog.")
	must(t, m.CreateTemporaryFunction(dc("mylower"), &catalogs.CatalogFunction{ClassName: "b.Tmp"}, false))
	e, _ = m.GetFunction(ctx, dc("MYLOWER"))
	equal(t, e.Temporary, true)
	equal(t, e.Function.ClassName, "b.Tmp")
	flinkErr(t, m.CreateTemporaryFunction(dc("myLower"), fn, false), catalogs.ErrFunctionAlreadyExist, "ValidationException",
		"Could not register temporary catalog function. A function 'default_catalog.default_database.myLower' does already exist.")
	must(t, m.DropTemporaryFunction(dc("mylower"), false))
	flinkErr(t, m.DropTemporaryFunction(dc("mylower"), false), catalogs.ErrFunctionNotExist, "ValidationException",
		"Temporary catalog function `default_catalog`.`default_database`.`mylower` doesn't exist")
	must(t, m.CreateTemporarySystemFunction("Sys1", fn, false))
	flinkErr(t, m.CreateTemporarySystemFunction("sys1", fn, false), catalogs.ErrFunctionAlreadyExist, "ValidationException",
		"Could not register temporary system function. A function named 'sys1' does already exist.")
	se, ok := m.GetTemporarySystemFunction("SYS1")
	equal(t, ok, true)
	equal(t, se.System, true)
	names, err := m.ListUserFunctions(ctx, "default_catalog", "default_database", nil)
	must(t, err)
	equal(t, names, []string{"mylower", "sys1"})
	must(t, m.DropTemporarySystemFunction("SYS1", false))
	flinkErr(t, m.DropTemporarySystemFunction("sys1", false), catalogs.ErrFunctionNotExist, "ValidationException",
		"Could not drop temporary system function. A function named 'sys1' doesn't exist.")
	must(t, m.AlterFunction(ctx, dc("mylower"), &catalogs.CatalogFunction{ClassName: "c.New"}, false))
	must(t, m.DropFunction(ctx, dc("mylower"), false))
	_, err = m.GetFunction(ctx, dc("mylower"))
	flinkErr(t, err, catalogs.ErrFunctionNotExist, "FunctionNotExistException",
		"Function default_database.mylower does not exist in Catalog default_catalog.")
}

func TestRegisterClash(t *testing.T) {
	store := memory.NewStore()
	m := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, store)
	must(t, m.CreateCatalog(ctx, inMemory("_env_prod"), false))
	// A new session on the same store sees the catalog made by CREATE CATALOG...
	m2 := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, store)
	names, err := m2.ListCatalogs(ctx, nil)
	must(t, err)
	equal(t, names, []string{"_env_prod"})
	must(t, m2.SetCurrentCatalog(ctx, "_env_prod"))
	equal(t, m2.CurrentDatabase(), "default")
	// ...and a configuration catalog of that name is an error naming both.
	m3 := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, store)
	err = m3.RegisterCatalog(ctx, inMemory("_env_prod"), nil, catalogs.OriginConfig)
	if !errors.Is(err, catalogs.ErrCatalogAlreadyExist) || !strings.Contains(err.Error(), "configuration") ||
		!strings.Contains(err.Error(), "CREATE CATALOG") {
		t.Fatalf("clash error: %v", err)
	}
	must(t, m3.RegisterCatalog(ctx, inMemory("yaml_cat"), nil, catalogs.OriginConfig))
	err = m3.RegisterCatalog(ctx, inMemory("yaml_cat"), nil, catalogs.OriginConfig)
	if !errors.Is(err, catalogs.ErrCatalogAlreadyExist) {
		t.Fatalf("duplicate register: %v", err)
	}
	flinkErr(t, m3.AlterCatalogComment(ctx, "yaml_cat", "x"), catalogs.ErrCatalogNotExist, "CatalogException",
		"Catalog yaml_cat does not exist in the catalog store.")
	must(t, m3.DropCatalog(ctx, "_env_prod", false))
	ok, _ := store.Contains(ctx, "_env_prod")
	equal(t, ok, false)
}

// limited is a catalog that declares the optional capabilities.
type limited struct {
	*memory.Catalog
	readOnly, views bool
}

func (l limited) ReadOnly() bool      { return l.readOnly }
func (l limited) SupportsViews() bool { return l.views }
func (l limited) Type() string        { return "examples" }

func TestCapabilities(t *testing.T) {
	m := newManager(t)
	ro := limited{Catalog: memory.New("ro", "default"), readOnly: true, views: true}
	must(t, m.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: "ro"}, ro, catalogs.OriginBuiltIn))
	err := m.CreateTable(ctx, id("ro", "default", "t"), table(), false)
	if !errors.Is(err, catalogs.ErrReadOnly) {
		t.Fatalf("create in read-only catalog: %v", err)
	}
	if err := m.CreateDatabase(ctx, "ro", "d", nil, false); !errors.Is(err, catalogs.ErrReadOnly) {
		t.Fatalf("create database in read-only catalog: %v", err)
	}
	names, err := m.ListTables(ctx, "ro", "default", nil)
	must(t, err)
	equal(t, len(names), 0)

	nv := limited{Catalog: memory.New("ex", "default"), views: false}
	must(t, m.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: "ex"}, nv, catalogs.OriginBuiltIn))
	must(t, m.CreateTable(ctx, id("ex", "default", "t"), table(), false))
	flinkErr(t, m.CreateTable(ctx, id("ex", "default", "v"), view(), false), catalogs.ErrViewsUnsupported, "ValidationException",
		"View DDL is not supported on examples catalog 'ex'")
	flinkErr(t, m.ReplaceView(ctx, id("ex", "default", "v"), view(), false), catalogs.ErrViewsUnsupported, "ValidationException",
		"View DDL is not supported on examples catalog 'ex'")
	must(t, m.DropTable(ctx, id("ex", "default", "t"), false))
}

func TestIsSensitiveOption(t *testing.T) {
	for key, want := range map[string]bool{"password": true, "jdbc.Password": true, "client.secret.key": true,
		"auth-TOKEN": true, "connector": false, "path": false, "passwd": false} {
		if got := catalogs.IsSensitiveOption(key); got != want {
			t.Errorf("IsSensitiveOption(%q) = %v", key, got)
		}
	}
}
