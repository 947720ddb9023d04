package sqlite

import (
	"errors"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// emitRows is a producer of rows.
func emitRows(rows ...[]any) func(emit func([]any) error) error {
	return func(emit func([]any) error) error {
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestWriteTargetFollowsItsTable: a write bound to a table (BindRows)
// lands in that table, also after a change of its options; after the
// table was reshaped, dropped and created again, dropped or renamed, it
// fails with the matching kind and writes nothing.
func TestWriteTargetFollowsItsTable(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	ab := managedTable(col("a", types.New(types.Int)), col("w", types.NewString()))
	p := catalogs.NewObjectPath("default", "t")
	names, cols := []string{"a", "w"}, physTypes(ab)
	must(t, c.CreateTable(ctx, p, ab, false))

	bind := func() catalogs.RowTarget {
		t.Helper()
		target, err := c.BindRows(ctx, p, names, cols)
		must(t, err)
		return target
	}
	target := bind()
	must(t, c.WriteTarget(ctx, target, false, emitRows([]any{int32(1), "x"})))
	equal(t, readRows(t, c, p, ab), "[1 x];")

	// Options change no column: the binding holds.
	withOpts := managedTable(col("a", types.New(types.Int)), col("w", types.NewString()))
	withOpts.Options["k"] = "v"
	must(t, c.AlterTable(ctx, p, withOpts, false))
	must(t, c.WriteTarget(ctx, target, false, emitRows([]any{int32(2), "y"})))
	equal(t, readRows(t, c, p, ab), "[1 x];[2 y];")

	// DROP w, ADD w INT: same names, other column; the bound write fails.
	must(t, c.AlterTable(ctx, p, managedTable(col("a", types.New(types.Int))), false))
	wInt := managedTable(col("a", types.New(types.Int)), col("w", types.New(types.Int)))
	must(t, c.AlterTable(ctx, p, wInt, false))
	err = c.WriteTarget(ctx, target, false, emitRows([]any{int32(3), "z"}))
	if !errors.Is(err, catalogs.ErrTableChanged) {
		t.Fatalf("write after the table was reshaped: %v", err)
	}
	equal(t, readRows(t, c, p, wInt), "[1 <nil>];[2 <nil>];")
	// Binding with the old columns fails too.
	if _, err := c.BindRows(ctx, p, names, cols); !errors.Is(err, catalogs.ErrTableChanged) {
		t.Fatalf("binding the old columns to the reshaped table: %v", err)
	}

	// DROP and CREATE with the same columns: another table.
	must(t, c.DropTable(ctx, p, false))
	must(t, c.CreateTable(ctx, p, ab, false))
	target = bind()
	must(t, c.DropTable(ctx, p, false))
	must(t, c.CreateTable(ctx, p, ab, false))
	if err := c.WriteTarget(ctx, target, false, emitRows([]any{int32(4), "q"})); !errors.Is(err, catalogs.ErrTableChanged) {
		t.Fatalf("write after DROP and CREATE: %v", err)
	}
	equal(t, readRows(t, c, p, ab), "")

	// DROP: the write fails, unbound ones too, and a table created later
	// under the name starts empty.
	target = bind()
	must(t, c.DropTable(ctx, p, false))
	if err := c.WriteTarget(ctx, target, false, emitRows([]any{int32(5), "r"})); !errors.Is(err, catalogs.ErrTableNotExist) {
		t.Fatalf("write after DROP: %v", err)
	}
	if err := c.WriteRows(ctx, p, cols, false, emitRows([]any{int32(5), "r"})); !errors.Is(err, catalogs.ErrTableNotExist) {
		t.Fatalf("unbound write after DROP: %v", err)
	}
	must(t, c.CreateTable(ctx, p, ab, false))
	equal(t, readRows(t, c, p, ab), "")

	// A rename carries the identity: a binding made under the new name
	// after it holds, one made before it fails (its name is gone).
	target = bind()
	must(t, c.RenameTable(ctx, p, "u", false))
	if err := c.WriteTarget(ctx, target, false, emitRows([]any{int32(6), "s"})); !errors.Is(err, catalogs.ErrTableNotExist) {
		t.Fatalf("write after RENAME: %v", err)
	}
	pu := catalogs.NewObjectPath("default", "u")
	renamed, err := c.BindRows(ctx, pu, names, cols)
	must(t, err)
	if renamed.Version != target.Version {
		t.Fatalf("a rename changed the table's version: %+v -> %+v", target.Version, renamed.Version)
	}
	must(t, c.WriteTarget(ctx, renamed, false, emitRows([]any{int32(7), "t"})))
	equal(t, readRows(t, c, pu, ab), "[7 t];")
}

// TestGroupWriteTarget: inside a write group a bound write is checked
// once per table and version; a statement bound to another version of the
// table fails alone.
func TestGroupWriteTarget(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	ab := managedTable(col("a", types.New(types.Int)), col("w", types.NewString()))
	p := catalogs.NewObjectPath("default", "t")
	names, cols := []string{"a", "w"}, physTypes(ab)
	must(t, c.CreateTable(ctx, p, ab, false))
	target, err := c.BindRows(ctx, p, names, cols)
	must(t, err)
	stale := target
	stale.Version.ID++
	g, err := c.BeginWriteGroup(ctx)
	must(t, err)
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(1), "x"})))
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(2), "y"})))
	if err := g.WriteTarget(ctx, c, stale, false, emitRows([]any{int32(3), "z"})); !errors.Is(err, catalogs.ErrTableChanged) {
		t.Fatalf("a statement bound to another version: %v", err)
	}
	must(t, g.Commit(ctx))
	equal(t, readRows(t, c, p, ab), "[1 x];[2 y];")
}

// TestStagedRows: staged rows are invisible and take no write lock until
// the stage commits them, in order, before the rows given at the commit;
// a stage whose table changed meanwhile writes nothing, and a discarded
// one leaves the table as it was.
func TestStagedRows(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	ab := managedTable(col("a", types.New(types.Int)), col("w", types.NewString()))
	p := catalogs.NewObjectPath("default", "t")
	names, cols := []string{"a", "w"}, physTypes(ab)
	must(t, c.CreateTable(ctx, p, ab, false))
	writeRows(t, c, p, ab, []any{int32(0), "old"})
	target, err := c.BindRows(ctx, p, names, cols)
	must(t, err)

	st, err := c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, catalogs.Inserts(emitRows([]any{int32(1), "a"}, []any{int32(2), "b"}))))
	// Unseen, and the store takes other writes meanwhile.
	equal(t, readRows(t, c, p, ab), "[0 old];")
	writeRows(t, c, p, ab, []any{int32(9), "other"})
	must(t, st.Append(ctx, catalogs.Inserts(emitRows([]any{int32(3), "c"}))))
	must(t, st.Commit(ctx, false, catalogs.Inserts(emitRows([]any{int32(4), "d"}))))
	equal(t, readRows(t, c, p, ab), "[0 old];[9 other];[1 a];[2 b];[3 c];[4 d];")

	// Overwrite replaces the rows.
	st, err = c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, catalogs.Inserts(emitRows([]any{int32(5), "e"}))))
	must(t, st.Commit(ctx, true, catalogs.Inserts(emitRows())))
	equal(t, readRows(t, c, p, ab), "[5 e];")

	// Discarded: nothing.
	st, err = c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, catalogs.Inserts(emitRows([]any{int32(6), "f"}))))
	must(t, st.Discard())
	equal(t, readRows(t, c, p, ab), "[5 e];")

	// The table re-created meanwhile: the commit fails and writes nothing.
	st, err = c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, catalogs.Inserts(emitRows([]any{int32(7), "g"}))))
	must(t, c.DropTable(ctx, p, false))
	must(t, c.CreateTable(ctx, p, ab, false))
	if err := st.Commit(ctx, false, catalogs.Inserts(emitRows())); !errors.Is(err, catalogs.ErrTableChanged) {
		t.Fatalf("commit of a stage whose table was re-created: %v", err)
	}
	equal(t, readRows(t, c, p, ab), "")
}
