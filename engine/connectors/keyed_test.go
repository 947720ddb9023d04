package connectors

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// changelog is a batch of (k INT, w STRING) rows with kinds: "+I 1 a".
func changelog(t *testing.T, rows ...string) *vector.Batch {
	t.Helper()
	kinds := map[string]types.RowKind{"+I": types.Insert, "-U": types.UpdateBefore, "+U": types.UpdateAfter, "-D": types.Delete}
	b := vector.NewBatch([]*types.Type{types.New(types.Int).WithNullable(false), types.NewString()}, len(rows))
	for _, r := range rows {
		f := strings.Fields(r)
		var k int32
		for _, c := range f[1] {
			k = k*10 + int32(c-'0')
		}
		b.AppendRow(kinds[f[0]], []any{k, f[2]})
	}
	return b
}

// keyedTables returns a table (k INT NOT NULL, w STRING, PRIMARY KEY (k))
// kept by a sqlite catalog and one kept in the memory store, with the
// connectors that serve them.
func keyedTables(t *testing.T, keyed bool) map[string]*Table {
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	lake, err := store.Create("lake", nil)
	if err != nil {
		t.Fatal(err)
	}
	columns := []Column{{Name: "k", Type: types.New(types.Int).WithNullable(false)}, {Name: "w", Type: types.NewString()}}
	out := map[string]*Table{}
	for name, cat := range map[string]catalogs.Catalog{"sqlite": lake, "memory": memory.New("mem", "default")} {
		tbl := &Table{Catalog: cat, Name: catalogs.NewIdentifier(name, "default", "t"), Options: map[string]string{}, Columns: columns}
		ct := &catalogs.CatalogTable{Options: map[string]string{}}
		for _, c := range columns {
			ct.Schema.Columns = append(ct.Schema.Columns, catalogs.Column{Name: c.Name, Kind: catalogs.Physical, Type: c.Type})
		}
		if keyed {
			tbl.PrimaryKey = []string{"k"}
			ct.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: "PK_k", Columns: []string{"k"}}
		}
		if err := cat.CreateTable(context.Background(), tbl.Name.Path(), ct, false); err != nil {
			t.Fatal(err)
		}
		out[name] = tbl
	}
	return out
}

func sortedRows(t *testing.T, c *Connectors, tbl *Table) string {
	t.Helper()
	r, err := c.OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := range b.N {
			row := b.Row(i)
			out = append(out, b.Kind(i).String()+" "+types.ValueString(row[0], tbl.Columns[0].Type)+" "+types.ValueString(row[1], tbl.Columns[1].Type))
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// TestKeyedWriterAppliesChangelog: the writer of a managed table with a
// primary key applies a changelog by key, in order, across checkpoints,
// spills and the commit, in the store and in memory: -U and -D delete the
// key's row, +I and +U write it; the table accepts upserts. An aborted
// write leaves the rows as they were.
func TestKeyedWriterAppliesChangelog(t *testing.T) {
	ctx := context.Background()
	for name, tbl := range keyedTables(t, true) {
		t.Run(name, func(t *testing.T) {
			c := New()
			if a := c.Abilities(tbl); a.Accepts != Upsert {
				t.Fatalf("a keyed managed table accepts %v", a.Accepts)
			}
			if err := write(t, c, tbl, WriteSpec{}, changelog(t, "+I 1 a", "+I 2 b", "+I 3 c", "+I 4 d"), false); err != nil {
				t.Fatal(err)
			}
			w, err := c.OpenWriter(ctx, tbl, WriteSpec{})
			if err != nil {
				t.Fatal(err)
			}
			steps := []func() error{
				func() error { return w.Write(ctx, changelog(t, "-U 1 a", "+U 1 a2", "-D 2 b", "+I 5 e")) },
				func() error { return checkpointer(w, func(c checkpointing) error { return c.Checkpoint(ctx) }) },
				func() error { return w.Write(ctx, changelog(t, "-D 3 c", "+I 3 c2", "-U 5 e", "+U 5 e2", "-D 5 e2")) },
				func() error { return checkpointer(w, func(c checkpointing) error { return c.Spill(ctx) }) },
				func() error { return w.Write(ctx, changelog(t, "-U 4 d", "+I 6 f", "-D 1 a2")) },
				func() error { return w.Commit(ctx) },
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			want := "+I 3 c2, +I 6 f"
			if got := sortedRows(t, c, tbl); got != want {
				t.Fatalf("rows %s, want %s", got, want)
			}
			// An aborted changelog changes nothing.
			if err := write(t, c, tbl, WriteSpec{}, changelog(t, "-D 3 c2", "+I 7 g"), true); err != nil {
				t.Fatal(err)
			}
			if got := sortedRows(t, c, tbl); got != want {
				t.Fatalf("after an aborted write: %s, want %s", got, want)
			}
		})
	}
}

// TestKeylessWriterKeepsRows: a managed table without a key takes inserts
// only (an updating query reaches it as its final rows) and stores every
// row it gets, as before keyed tables took changelogs.
func TestKeylessWriterKeepsRows(t *testing.T) {
	for name, tbl := range keyedTables(t, false) {
		t.Run(name, func(t *testing.T) {
			c := New()
			if a := c.Abilities(tbl); a.Accepts != InsertOnly {
				t.Fatalf("a managed table without a key accepts %v", a.Accepts)
			}
			if err := write(t, c, tbl, WriteSpec{}, changelog(t, "+I 1 a", "+I 1 a"), false); err != nil {
				t.Fatal(err)
			}
			if got, want := sortedRows(t, c, tbl), "+I 1 a, +I 1 a"; got != want {
				t.Fatalf("rows %s, want %s", got, want)
			}
		})
	}
}

// checkpointing is what the sink runtime asks of a writer that commits
// early or spills (sink.Checkpointer).
type checkpointing interface {
	Checkpoint(ctx context.Context) error
	Spill(ctx context.Context) error
}

// checkpointer calls fn on w when it checkpoints (the memory store's
// writer holds everything until its commit).
func checkpointer(w Writer, fn func(checkpointing) error) error {
	if c, ok := w.(checkpointing); ok {
		return fn(c)
	}
	return nil
}
