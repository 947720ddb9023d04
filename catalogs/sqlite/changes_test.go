package sqlite

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// change is one change of a changelog written by changesOf: a put of row,
// or (del) a deletion of row's key; fail makes the producer fail there.
type change struct {
	del, fail bool
	row       []any
}

func put(row ...any) change { return change{row: row} }
func del(row ...any) change { return change{del: true, row: row} }

var failHere = change{fail: true}

func changesOf(cs ...change) catalogs.Changes {
	return func(put, del func(row []any) error) error {
		for _, c := range cs {
			emit := put
			switch {
			case c.fail:
				return errors.New("producer failed")
			case c.del:
				emit = del
			}
			if err := emit(c.row); err != nil {
				return err
			}
		}
		return nil
	}
}

// keyedTable makes default.<name> (a INT NOT NULL, w STRING) with
// PRIMARY KEY (a) when keyed, and returns its definition, path and
// write target.
func keyedTable(t *testing.T, c *Catalog, name string, keyed bool) (*catalogs.CatalogTable, catalogs.ObjectPath, catalogs.RowTarget) {
	t.Helper()
	kt := managedTable(col("a", types.New(types.Int).WithNullable(false)), col("w", types.NewString()))
	if keyed {
		kt.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: "PK_a", Columns: []string{"a"}}
	}
	p := catalogs.NewObjectPath("default", name)
	must(t, c.CreateTable(ctx, p, kt, false))
	target, err := c.BindRows(ctx, p, []string{"a", "w"}, physTypes(kt))
	must(t, err)
	return kt, p, target
}

// TestApplyChanges: the changes of a write into a table with a primary
// key apply in their order, in one transaction: a deletion removes the
// rows of its key written before it, a later put of the key stays; a
// deletion of a key without a row does nothing. A write whose producer
// fails after deleting, and a deletion into a table without a key,
// change nothing. The rows stay after the store is opened again.
func TestApplyChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer func() { s.Close() }()
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	kt, p, target := keyedTable(t, c, "k", true)
	writeRows(t, c, p, kt, []any{int32(1), "a"}, []any{int32(2), "b"}, []any{int32(3), "c"})

	must(t, c.ApplyTarget(ctx, target, false, changesOf(
		put(int32(4), "d"), del(int32(2), "b"), put(int32(1), "a2"), del(int32(1), nil), put(int32(1), "a3"),
		del(int32(9), nil), put(int32(3), "c2"), del(int32(3), "c2"))))
	equal(t, readRows(t, c, p, kt), "[4 d];[1 a3];")

	err = c.ApplyTarget(ctx, target, false, changesOf(del(int32(4), nil), put(int32(5), "e"), failHere))
	if err == nil || !strings.Contains(err.Error(), "producer failed") {
		t.Fatalf("failing producer: %v", err)
	}
	equal(t, readRows(t, c, p, kt), "[4 d];[1 a3];")

	pt, pp, ptarget := keyedTable(t, c, "plain", false)
	writeRows(t, c, pp, pt, []any{int32(1), "a"})
	err = c.ApplyTarget(ctx, ptarget, false, changesOf(put(int32(2), "b"), del(int32(1), "a")))
	if !errors.Is(err, catalogs.ErrStore) {
		t.Fatalf("deletion without a key: %v", err)
	}
	equal(t, readRows(t, c, pp, pt), "[1 a];")
	// Puts alone into a table without a key are rows, duplicates kept.
	must(t, c.ApplyTarget(ctx, ptarget, false, changesOf(put(int32(1), "a"))))
	equal(t, readRows(t, c, pp, pt), "[1 a];[1 a];")

	// Overwrite, then changes.
	must(t, c.ApplyTarget(ctx, target, true, changesOf(put(int32(6), "f"), put(int32(7), "g"), del(int32(6), nil))))
	equal(t, readRows(t, c, p, kt), "[7 g];")

	must(t, s.Close())
	s, err = OpenStore(path)
	must(t, err)
	cat, err = s.Create("cat", nil)
	must(t, err)
	equal(t, readRows(t, cat.(*Catalog), p, kt), "[7 g];")
}

// TestApplyChangesInGroup: in a write group each ApplyTarget is a
// statement of its own, ordered with the group's other statements (rows
// appended before it included); a failed one leaves nothing and the
// group goes on; nothing is stored before Commit.
func TestApplyChangesInGroup(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	kt, p, target := keyedTable(t, c, "k", true)
	writeRows(t, c, p, kt, []any{int32(1), "a"}, []any{int32(4), "d"})

	g, err := c.BeginWriteGroup(ctx)
	must(t, err)
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(7), "g"})))
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(8), "h"})))
	must(t, g.ApplyTarget(ctx, c, target, false, changesOf(del(int32(7), nil), del(int32(1), nil), put(int32(8), "h2"))))
	err = g.ApplyTarget(ctx, c, target, false, changesOf(put(int32(9), "i"), del(int32(4), nil), failHere))
	if err == nil {
		t.Fatal("a failing statement of the group succeeded")
	}
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(1), "a2"})))
	must(t, g.Commit(ctx))
	equal(t, readRows(t, c, p, kt), "[4 d];[8 h2];[1 a2];")

	g, err = c.BeginWriteGroup(ctx)
	must(t, err)
	must(t, g.ApplyTarget(ctx, c, target, false, changesOf(del(int32(4), nil))))
	must(t, g.Rollback())
	equal(t, readRows(t, c, p, kt), "[4 d];[8 h2];[1 a2];")
}

// TestApplyStagedChanges: changes staged out of memory (a long
// statement's spill) apply as if in order at Commit: each staged key ends
// in its last change, then the commit's own changes apply.
func TestApplyStagedChanges(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	kt, p, target := keyedTable(t, c, "k", true)
	writeRows(t, c, p, kt, []any{int32(1), "a"}, []any{int32(2), "b"}, []any{int32(3), "c"})

	st, err := c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, changesOf(put(int32(10), "x"), del(int32(2), nil), put(int32(3), "c2"), put(int32(8), "h"))))
	must(t, st.Append(ctx, changesOf(del(int32(10), nil), put(int32(2), "b2"), del(int32(8), nil), put(int32(8), "h2"))))
	must(t, st.Commit(ctx, false, changesOf(put(int32(11), "y"), del(int32(1), nil))))
	equal(t, readRows(t, c, p, kt), "[3 c2];[2 b2];[8 h2];[11 y];")

	// A stage whose commit fails changes nothing.
	st, err = c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, changesOf(del(int32(3), nil))))
	if err := st.Commit(ctx, false, changesOf(del(int32(2), nil), failHere)); err == nil {
		t.Fatal("a failing commit succeeded")
	}
	equal(t, readRows(t, c, p, kt), "[3 c2];[2 b2];[8 h2];[11 y];")

	// A staged deletion into a table without a key fails the commit.
	pt, pp, ptarget := keyedTable(t, c, "plain", false)
	st, err = c.StageRows(ctx, ptarget)
	must(t, err)
	must(t, st.Append(ctx, changesOf(put(int32(1), "a"), del(int32(1), nil))))
	if err := st.Commit(ctx, false, changesOf()); !errors.Is(err, catalogs.ErrStore) {
		t.Fatalf("staged deletion without a key: %v", err)
	}
	equal(t, readRows(t, c, pp, pt), "")
}
