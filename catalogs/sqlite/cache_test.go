package sqlite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// twoStores opens the same store file twice, as two processes would: each
// has its own connections and its own cache.
func twoStores(t *testing.T) (a, b *Catalog) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "eddy.db")
	open := func() *Catalog {
		s, err := OpenStore(path)
		must(t, err)
		t.Cleanup(func() { s.Close() })
		cat, err := s.Create("cat", nil)
		must(t, err)
		return cat.(*Catalog)
	}
	return open(), open()
}

func columnsOf(t *testing.T, c *Catalog, p catalogs.ObjectPath) int {
	t.Helper()
	bt, err := c.GetTable(ctx, p)
	must(t, err)
	return len(bt.(*catalogs.CatalogTable).Schema.Columns)
}

// TestCacheSeesOtherWriters: a definition a store has cached is read
// again as soon as another connection changes any catalog table, so DDL
// of another process shows in the next lookup; a changed copy handed out
// does not change the cache.
func TestCacheSeesOtherWriters(t *testing.T) {
	a, b := twoStores(t)
	p := catalogs.NewObjectPath("default", "t")
	tbl := managedTable(col("x", types.New(types.BigInt)))
	if _, err := a.GetTable(ctx, p); !errors.Is(err, catalogs.ErrTableNotExist) {
		t.Fatalf("missing table: %v", err)
	}
	must(t, b.CreateTable(ctx, p, tbl, false))
	if n := columnsOf(t, a, p); n != 1 {
		t.Fatalf("after another store's CREATE: %d columns", n)
	}
	got, err := a.GetTable(ctx, p)
	must(t, err)
	got.(*catalogs.CatalogTable).Schema.Columns = nil // a caller's change
	if n := columnsOf(t, a, p); n != 1 {
		t.Fatalf("a caller's change reached the cache: %d columns", n)
	}
	wider := managedTable(col("x", types.New(types.BigInt)), col("y", types.NewString()))
	must(t, b.AlterTable(ctx, p, wider, false))
	if n := columnsOf(t, a, p); n != 2 {
		t.Fatalf("after another store's ALTER: %d columns", n)
	}
	if ok, err := a.TableExists(ctx, p); err != nil || !ok {
		t.Fatalf("TableExists = %v, %v", ok, err)
	}
	must(t, b.DropTable(ctx, p, false))
	if ok, err := a.TableExists(ctx, p); err != nil || ok {
		t.Fatalf("after another store's DROP: TableExists = %v, %v", ok, err)
	}
}

// TestCachedRowTableFollowsRenames: a store that wrote rows of a table
// (and so knows its data table) writes to the right table after another
// store renamed it and made a new one under the old name.
func TestCachedRowTableFollowsRenames(t *testing.T) {
	a, b := twoStores(t)
	p, moved := catalogs.NewObjectPath("default", "t"), catalogs.NewObjectPath("default", "t2")
	tbl := managedTable(col("x", types.New(types.BigInt)))
	must(t, a.CreateTable(ctx, p, tbl, false))
	writeRows(t, a, p, tbl, []any{int64(1)})
	writeRows(t, a, p, tbl, []any{int64(2)}) // from the cache
	must(t, b.RenameTable(ctx, p, "t2", false))
	must(t, b.CreateTable(ctx, p, tbl, false))
	writeRows(t, a, p, tbl, []any{int64(3)})
	if got := readRows(t, a, p, tbl); got != "[3];" {
		t.Fatalf("new t holds %q", got)
	}
	if got := readRows(t, b, moved, tbl); got != "[1];[2];" {
		t.Fatalf("renamed t2 holds %q", got)
	}
	cur, err := a.ScanRows(ctx, moved, physTypes(tbl), catalogs.ScanSpec{})
	must(t, err)
	if got := scanAll(t, cur, physTypes(tbl)); len(got) != 2 {
		t.Fatalf("scan of t2: %q", got)
	}
}

// TestStoreWithoutVersion: a store made before the catalog version (no
// triggers) gets them when it is opened; a read-only one without them is
// served without the cache.
func TestStoreWithoutVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	for _, tb := range []string{"catalog_defs", "databases", "objects", "functions", "row_tables"} {
		for _, ev := range []string{"insert", "update", "delete"} {
			_, err := s.db.Exec(`DROP TRIGGER eddy_version_` + tb + `_` + ev)
			must(t, err)
		}
	}
	_, err = s.db.Exec(`DELETE FROM eddy_meta WHERE key = 'catalog_version'`)
	must(t, err)
	must(t, s.Close())

	must(t, os.Chmod(path, 0o400))
	ro, err := OpenStore(path)
	if err == nil {
		if ro.cache.enabled && os.Geteuid() != 0 {
			t.Fatal("a read-only store without triggers uses the cache")
		}
		cat, err := ro.Create("cat", nil)
		if err == nil {
			_, err = cat.GetTable(ctx, catalogs.NewObjectPath("default", "none"))
			if !errors.Is(err, catalogs.ErrTableNotExist) {
				t.Fatalf("lookup in a read-only store: %v", err)
			}
		}
		ro.Close()
	}
	must(t, os.Chmod(path, 0o600))

	s, err = OpenStore(path)
	must(t, err)
	defer s.Close()
	if !s.cache.enabled {
		t.Fatal("reopened store did not install the catalog version")
	}
	v, ok := s.catalogVersion(ctx)
	if !ok {
		t.Fatal("no catalog version")
	}
	cat, err := s.Create("cat2", nil)
	must(t, err)
	must(t, cat.CreateTable(ctx, catalogs.NewObjectPath("default", "t"), managedTable(col("x", types.New(types.Int))), false))
	if now, _ := s.catalogVersion(ctx); now <= v {
		t.Fatalf("catalog version %d after DDL, was %d", now, v)
	}
}

// TestCachedListingSeesOtherWriters: a listing a store has cached is read
// again after another connection creates, renames or drops an object, and
// a caller's change to the slice it got does not reach the cache.
func TestCachedListingSeesOtherWriters(t *testing.T) {
	a, b := twoStores(t)
	tbl := managedTable(col("x", types.New(types.BigInt)))
	list := func(want ...string) {
		t.Helper()
		got, err := a.ListTables(ctx, "default")
		must(t, err)
		if !slices.Equal(got, want) {
			t.Fatalf("ListTables = %q, want %q", got, want)
		}
		if len(got) > 0 {
			got[0] = "changed by the caller"
		}
	}
	list()
	must(t, b.CreateTable(ctx, catalogs.NewObjectPath("default", "t"), tbl, false))
	list("t")
	list("t") // from the cache
	must(t, a.CreateTable(ctx, catalogs.NewObjectPath("default", "s"), tbl, false))
	list("s", "t")
	must(t, b.RenameTable(ctx, catalogs.NewObjectPath("default", "t"), "u", false))
	list("s", "u")
	must(t, b.DropTable(ctx, catalogs.NewObjectPath("default", "s"), false))
	list("u")
}
