package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
)

var ctx = context.Background()

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

func TestOpenStoreCreatesPrivateWALFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	fi, err := os.Stat(path)
	must(t, err)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("store mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(filepath.Dir(path))
	must(t, err)
	if di.Mode().Perm() != 0o700 {
		t.Errorf("store directory mode %v, want 0700", di.Mode().Perm())
	}
	var mode string
	must(t, s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
	equal(t, mode, "wal")
	var v string
	must(t, s.db.QueryRow(`SELECT value FROM eddy_meta WHERE key = 'schema_version'`).Scan(&v))
	equal(t, v, strconv.Itoa(SchemaVersion))
	// A second open of the same file is a no-op migration.
	s2, err := OpenStore(path)
	must(t, err)
	s2.Close()
}

func snapshot(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return b
}

func TestOpenStoreRefusesNonSQLiteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	content := []byte("these are my notes, not a database\n")
	must(t, os.WriteFile(path, content, 0o644))
	_, err := OpenStore(path)
	if !errors.Is(err, ErrNotSQLite) {
		t.Fatalf("err = %v, want ErrNotSQLite", err)
	}
	if !bytes.Contains([]byte(err.Error()), []byte(path)) {
		t.Errorf("error does not name the file: %v", err)
	}
	if !bytes.Equal(snapshot(t, path), content) {
		t.Fatal("file changed")
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a WAL file was created next to a non-SQLite file")
	}
}

func TestOpenStoreRefusesForeignSQLiteDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	_, err = db.Exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY); INSERT INTO accounts VALUES (1)`)
	must(t, err)
	must(t, db.Close())
	before := snapshot(t, path)
	_, err = OpenStore(path)
	if !errors.Is(err, ErrNotSQLite) {
		t.Fatalf("err = %v, want ErrNotSQLite", err)
	}
	if !bytes.Equal(snapshot(t, path), before) {
		t.Fatal("foreign database changed")
	}
}

func TestOpenStoreRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	_, err = s.db.Exec(`UPDATE eddy_meta SET value = '99' WHERE key = 'schema_version'`)
	must(t, err)
	must(t, s.Close())
	before := snapshot(t, path)
	_, err = OpenStore(path)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("err = %v, want ErrNewerSchema", err)
	}
	want := "Store " + path + " has schema version 99, but this eddy understands versions up to " + strconv.Itoa(SchemaVersion) + ". Use a newer eddy; the store is left untouched."
	equal(t, err.Error(), want)
	if !bytes.Equal(snapshot(t, path), before) {
		t.Fatal("newer store changed")
	}
}

func TestCatalogStore(t *testing.T) {
	s := openTestStore(t)
	d := catalogs.CatalogDescriptor{Name: "c1", Comment: "it's", Options: map[string]string{"type": "sqlite", "default-database": "d"}}
	must(t, s.StoreCatalog(ctx, d))
	err := s.StoreCatalog(ctx, d)
	if !errors.Is(err, catalogs.ErrCatalogAlreadyExist) {
		t.Fatalf("duplicate store: %v", err)
	}
	got, ok, err := s.GetCatalog(ctx, "c1")
	must(t, err)
	equal(t, ok, true)
	equal(t, got, d)
	d.Comment = ""
	d.Options["k"] = "v"
	must(t, s.ReplaceCatalog(ctx, d))
	got, _, _ = s.GetCatalog(ctx, "c1")
	equal(t, got, d)
	if err := s.ReplaceCatalog(ctx, catalogs.CatalogDescriptor{Name: "nope"}); !errors.Is(err, catalogs.ErrCatalogNotExist) {
		t.Fatalf("replace missing: %v", err)
	}
	must(t, s.StoreCatalog(ctx, catalogs.CatalogDescriptor{Name: "a0", Options: map[string]string{"type": "x"}}))
	names, err := s.ListCatalogs(ctx)
	must(t, err)
	equal(t, names, []string{"a0", "c1"})
	must(t, s.RemoveCatalog(ctx, "c1", false))
	if err := s.RemoveCatalog(ctx, "c1", false); !errors.Is(err, catalogs.ErrCatalogNotExist) {
		t.Fatalf("remove missing: %v", err)
	}
	must(t, s.RemoveCatalog(ctx, "c1", true))
	ok, err = s.Contains(ctx, "c1")
	must(t, err)
	equal(t, ok, false)
	_, ok, err = s.GetCatalog(ctx, "c1")
	must(t, err)
	equal(t, ok, false)
}

func TestFactoryOptions(t *testing.T) {
	s := openTestStore(t)
	if _, err := s.Create("c", map[string]string{"bogus": "1", "alpha": "2"}); !errors.Is(err, catalogs.ErrInvalidOption) {
		t.Fatalf("unsupported option: %v", err)
	} else {
		want := "Unsupported options found for catalog 'c' of type 'sqlite'.\n\nUnsupported options:\n\nalpha\nbogus\n\nSupported options:\n\ndefault-database\npath"
		equal(t, err.Error(), want)
	}
	c, err := s.Create("c", map[string]string{"default-database": "dd"})
	must(t, err)
	equal(t, c.DefaultDatabase(), "dd")
	ok, err := c.DatabaseExists(ctx, "dd")
	must(t, err)
	equal(t, ok, true)
}

func TestPathOptionKeepsContentsInOtherFile(t *testing.T) {
	s := openTestStore(t)
	other := filepath.Join(t.TempDir(), "other", "team.db")
	c, err := s.Create("team", map[string]string{"path": other})
	must(t, err)
	must(t, c.CreateTable(ctx, catalogs.NewObjectPath("default", "t"), catalogtest.SampleTable(), false))
	must(t, c.Close())
	var n int
	must(t, s.db.QueryRow(`SELECT count(*) FROM objects`).Scan(&n))
	equal(t, n, 0)
	o, err := OpenStore(other)
	must(t, err)
	defer o.Close()
	must(t, o.db.QueryRow(`SELECT count(*) FROM objects WHERE catalog = 'team'`).Scan(&n))
	equal(t, n, 1)
}

// A DDL that fails half-way leaves the store exactly as it was: here a
// trigger makes the last statement of DROP DATABASE ... CASCADE fail after
// its tables and functions were deleted inside the transaction.
func TestFailedDDLLeavesStoreUnchanged(t *testing.T) {
	s := openTestStore(t)
	c, err := s.Create("cat", nil)
	must(t, err)
	must(t, c.CreateDatabase(ctx, "db1", nil, false))
	must(t, c.CreateTable(ctx, catalogs.NewObjectPath("db1", "t"), catalogtest.SampleTable(), false))
	must(t, c.CreateTable(ctx, catalogs.NewObjectPath("db1", "v"), catalogtest.SampleView(), false))
	must(t, c.CreateFunction(ctx, catalogs.NewObjectPath("db1", "f"), &catalogs.CatalogFunction{ClassName: "a.B"}, false))
	_, err = s.db.Exec(`CREATE TRIGGER no_db_delete BEFORE DELETE ON databases BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`)
	must(t, err)
	dump := func() string { return dumpStore(t, s) }
	before := dump()
	err = c.DropDatabase(ctx, "db1", false, true)
	if err == nil || !errors.Is(err, catalogs.ErrStore) {
		t.Fatalf("err = %v, want a store error", err)
	}
	equal(t, dump(), before)
	tables, err := c.ListTables(ctx, "db1")
	must(t, err)
	equal(t, tables, []string{"t", "v"})
}

// dumpStore returns every row of the catalog tables as text.
func dumpStore(t *testing.T, s *Store) string {
	t.Helper()
	var out bytes.Buffer
	for _, q := range []string{
		`SELECT name, comment, options FROM catalog_defs ORDER BY name`,
		`SELECT catalog, name, comment, options FROM databases ORDER BY catalog, name`,
		`SELECT catalog, db, name, kind, comment, options, definition, coalesce(original_query, ''), coalesce(expanded_query, '') FROM objects ORDER BY catalog, db, name`,
		`SELECT catalog, db, name, class_name, language, resources FROM functions ORDER BY catalog, db, name`,
	} {
		rows, err := s.db.Query(q)
		must(t, err)
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			must(t, rows.Scan(ptrs...))
			for _, v := range vals {
				fmt.Fprintf(&out, "%v|", v)
			}
			out.WriteString("\n")
		}
		must(t, rows.Err())
		rows.Close()
		out.WriteString("--\n")
	}
	return out.String()
}

// TestOpenStoreReadOnlyFile: a store file this user cannot write opens for
// reading; a write is ErrReadOnly and the file does not change.
func TestOpenStoreReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("file permissions do not bind root")
	}
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	must(t, s.Close())
	must(t, os.Chmod(path, 0o400))
	before := snapshot(t, path)
	s, err = OpenStore(path)
	must(t, err)
	if err := s.StoreCatalog(ctx, catalogs.CatalogDescriptor{Name: "c", Options: map[string]string{"type": "memory"}}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v, want ErrReadOnly", err)
	}
	must(t, s.Close())
	if !bytes.Equal(snapshot(t, path), before) {
		t.Fatal("read-only store changed")
	}
}

func TestRelativePathOptionIsNextToStore(t *testing.T) {
	s := openTestStore(t)
	c, err := s.Create("rel", map[string]string{"path": "rel.db"})
	must(t, err)
	must(t, c.Close())
	if _, err := os.Stat(filepath.Join(filepath.Dir(s.Path()), "rel.db")); err != nil {
		t.Fatalf("relative catalog file not next to the store: %v", err)
	}
	same, err := s.Create("same", map[string]string{"path": filepath.Base(s.Path())})
	must(t, err)
	if same.(*Catalog).own {
		t.Fatal("a path naming the store itself opened a second handle")
	}
}
