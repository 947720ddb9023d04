package sqlite

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

// writeIn writes rows inside a group (join; nil: without one) and returns
// WriteRows's error; failAfter >= 0 makes the producer fail after that
// many rows.
func writeIn(c *Catalog, join func() any, p catalogs.ObjectPath, tbl *catalogs.CatalogTable, failAfter int, rows ...[]any) error {
	produce := func(emit func([]any) error) error {
		for i, r := range rows {
			if i == failAfter {
				return errors.New("producer failed")
			}
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
	if join != nil {
		return join().(*RowGroup).WriteRows(ctx, c, p, physTypes(tbl), false, produce)
	}
	return c.WriteRows(ctx, p, physTypes(tbl), false, produce)
}

func numbered(from, n int) [][]any {
	out := make([][]any, n)
	for i := range out {
		out[i] = []any{int32(from + i), fmt.Sprint("r", from+i)}
	}
	return out
}

// numberedText is readRows's text of the rows numbered makes for from..to.
func numberedText(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "[%d r%d];", i, i)
	}
	return b.String()
}

// openGroup makes two stores, a table default.t (i INT, s STRING) through
// the first and a row group of the first store.
func openGroup(t *testing.T) (a, b *Catalog, tbl *catalogs.CatalogTable, p catalogs.ObjectPath, g *RowGroup) {
	t.Helper()
	a, b = twoStores(t)
	tbl = managedTable(col("i", types.New(types.Int)), col("s", types.NewString()))
	p = catalogs.NewObjectPath("default", "t")
	must(t, a.CreateTable(ctx, p, tbl, false))
	g, err := a.store.BeginGroup(ctx)
	must(t, err)
	return a, b, tbl, p, g
}

// TestRowGroupStatements: the statements of a group are invisible to
// other connections until the commit; a statement that fails leaves none
// of its rows, whether it is the one that creates the data table, a
// one-statement append or a multi-statement one; the others all commit.
func TestRowGroupStatements(t *testing.T) {
	a, b, tbl, p, g := openGroup(t)
	join := func() any { return g }
	// The first statement fails: the data table it made goes with it.
	if err := writeIn(a, join, p, tbl, 1, numbered(0, 2)...); err == nil {
		t.Fatal("a failing producer reported no error")
	}
	must(t, writeIn(a, join, p, tbl, -1, numbered(1, 1)...))
	must(t, writeIn(a, join, p, tbl, -1, numbered(2, 1)...))
	if err := writeIn(a, join, p, tbl, 1, numbered(100, 2)...); err == nil {
		t.Fatal("a failing producer reported no error")
	}
	if err := writeIn(a, join, p, tbl, 299, numbered(200, 300)...); err == nil {
		t.Fatal("a failing producer reported no error")
	}
	must(t, writeIn(a, join, p, tbl, -1, numbered(3, 300)...))
	equal(t, readRows(t, b, p, tbl), "")
	must(t, g.Commit(ctx))
	want := numberedText(1, 302)
	equal(t, readRows(t, b, p, tbl), want)
	if err := g.Commit(ctx); err == nil {
		t.Error("a second Commit of a group succeeded")
	}
	// Writes after the group are transactions of their own again.
	writeRows(t, a, p, tbl, []any{int32(999), "x"})
	if got := readRows(t, b, p, tbl); got != want+"[999 x];" {
		t.Errorf("after the group: %s", got)
	}
}

// TestRowGroupRollback: a rolled back group leaves nothing, not even the
// data table its first statement made, and the store writes normally
// afterwards.
func TestRowGroupRollback(t *testing.T) {
	a, b, tbl, p, g := openGroup(t)
	join := func() any { return g }
	must(t, writeIn(a, join, p, tbl, -1, numbered(1, 1)...))
	must(t, writeIn(a, join, p, tbl, -1, numbered(2, 1)...))
	must(t, g.Rollback())
	equal(t, readRows(t, b, p, tbl), "")
	var n int
	must(t, b.store.db.QueryRow(`SELECT count(*) FROM row_tables`).Scan(&n))
	if n != 0 {
		t.Errorf("%d data tables after the rollback, want 0", n)
	}
	if err := writeIn(a, join, p, tbl, -1, numbered(5, 1)...); err == nil {
		t.Error("a write into an ended group succeeded")
	}
	writeRows(t, a, p, tbl, []any{int32(7), "x"})
	equal(t, readRows(t, b, p, tbl), "[7 x];")
}

// TestRowGroupHoldsTheLock: while a group is open, lookups do not read the
// catalog version (the lock keeps it still), another store's writer
// waits, and after the commit that writer goes on and its DDL is seen.
func TestRowGroupHoldsTheLock(t *testing.T) {
	a, b, tbl, p, g := openGroup(t)
	before := a.store.versionReads.Load()
	for range 10 {
		columnsOf(t, a, p)
	}
	if n := a.store.versionReads.Load() - before; n != 0 {
		t.Errorf("%d catalog version reads inside a group, want 0", n)
	}
	done := make(chan error, 1)
	go func() {
		wide := managedTable(col("i", types.New(types.Int)), col("s", types.NewString()), col("x", types.New(types.Int)))
		if err := b.DropTable(ctx, p, false); err != nil {
			done <- err
			return
		}
		done <- b.CreateTable(ctx, p, wide, false)
	}()
	select {
	case err := <-done:
		t.Fatalf("another writer went ahead while the group held the lock (%v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	must(t, writeIn(a, func() any { return g }, p, tbl, -1, numbered(1, 1)...))
	must(t, g.Commit(ctx))
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the other writer did not go on after the commit")
	}
	if n := columnsOf(t, a, p); n != 3 {
		t.Errorf("after the group, a sees %d columns, want the other writer's 3", n)
	}
}

// TestRowGroupKeepsOrder: rows a group holds back reach the store before
// anything else the group writes, so the statements' order holds across
// tables, multi-row statements and an overwrite.
func TestRowGroupKeepsOrder(t *testing.T) {
	a, b := twoStores(t)
	tbl := managedTable(col("i", types.New(types.Int)), col("s", types.NewString()))
	pt, pu := catalogs.NewObjectPath("default", "t"), catalogs.NewObjectPath("default", "u")
	must(t, a.CreateTable(ctx, pt, tbl, false))
	must(t, a.CreateTable(ctx, pu, tbl, false))
	g, err := a.store.BeginGroup(ctx)
	must(t, err)
	join := func() any { return g }
	must(t, writeIn(a, join, pt, tbl, -1, numbered(1, 1)...))
	must(t, writeIn(a, join, pt, tbl, -1, numbered(2, 1)...))
	must(t, writeIn(a, join, pu, tbl, -1, numbered(50, 1)...))
	must(t, writeIn(a, join, pt, tbl, -1, numbered(3, 600)...))
	must(t, writeIn(a, join, pu, tbl, -1, numbered(51, 1)...))
	must(t, writeIn(a, join, pt, tbl, -1, numbered(603, 1)...))
	must(t, g.Commit(ctx))
	want := numberedText(1, 603)
	equal(t, readRows(t, b, pt, tbl), want)
	equal(t, readRows(t, b, pu, tbl), "[50 r50];[51 r51];")

	g, err = a.store.BeginGroup(ctx)
	must(t, err)
	must(t, writeIn(a, join, pt, tbl, -1, numbered(700, 1)...))
	must(t, g.WriteRows(ctx, a, pt, physTypes(tbl), true, func(emit func([]any) error) error {
		return emit([]any{int32(800), "over"})
	}))
	must(t, writeIn(a, join, pt, tbl, -1, numbered(900, 1)...))
	must(t, g.Commit(ctx))
	equal(t, readRows(t, b, pt, tbl), "[800 over];[900 r900];")
}

// TestRowGroupHolds: a group writes the catalogs of its own store only; a
// catalog of another connection to the same file is refused (it would
// wait for the group's own lock).
func TestRowGroupHolds(t *testing.T) {
	a, b, tbl, p, g := openGroup(t)
	defer g.Rollback()
	if !g.Holds(a) || g.Holds(b) {
		t.Errorf("Holds: its store's catalog %v, another store's catalog %v", g.Holds(a), g.Holds(b))
	}
	err := g.WriteRows(ctx, b, p, physTypes(tbl), false, func(emit func([]any) error) error {
		return emit([]any{int32(1), "x"})
	})
	if err == nil {
		t.Error("a group wrote a table of another store")
	}
}
