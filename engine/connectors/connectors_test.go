package connectors

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine/types"
	"eddy/engine/vector"
)

var cols = []Column{
	{Name: "id", Type: types.New(types.Int)},
	{Name: "s", Type: types.NewString()},
	{Name: "d", Type: types.NewDecimal(10, 2)},
	{Name: "ts", Type: types.NewTimestamp(3)},
}

func batch(t *testing.T, rows ...[]any) *vector.Batch {
	t.Helper()
	ts := make([]*types.Type, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	b := vector.NewBatch(ts, len(rows))
	for _, r := range rows {
		b.AppendRow(types.Insert, r)
	}
	return b
}

func dec(s string) any {
	d, err := types.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

func readAll(t *testing.T, c *Connectors, tbl *Table) []string {
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
			return out
		}
		for i := range b.N {
			parts := make([]string, len(b.Cols))
			for c, v := range b.Cols {
				parts[c] = types.ValueString(v.Get(i), cols[c].Type)
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
}

func write(t *testing.T, c *Connectors, tbl *Table, spec WriteSpec, b *vector.Batch, fail bool) error {
	t.Helper()
	ctx := context.Background()
	w, err := c.OpenWriter(ctx, tbl, spec)
	if err != nil {
		return err
	}
	if err := w.Write(ctx, b); err != nil {
		return errors.Join(err, w.Abort())
	}
	if fail {
		return w.Abort()
	}
	return w.Commit(ctx)
}

func check(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// exercise runs the same write/read/overwrite/abort/truncate script on
// a table of any storage.
func exercise(t *testing.T, c *Connectors, tbl *Table, nullString string) {
	ts := time.Date(2021, 4, 13, 20, 12, 11, 123000000, time.UTC)
	check(t, readAll(t, c, tbl))
	if err := write(t, c, tbl, WriteSpec{}, batch(t, []any{int32(1), "Hello World", dec("1.50"), ts}, []any{nil, nil, nil, nil}), false); err != nil {
		t.Fatal(err)
	}
	check(t, readAll(t, c, tbl), "1|Hello World|1.50|2021-04-13 20:12:11.123", "NULL|"+nullString+"|NULL|NULL")
	// An aborted write leaves the rows as they were.
	if err := write(t, c, tbl, WriteSpec{Overwrite: true}, batch(t, []any{int32(9), "x", dec("0.00"), ts}), true); err != nil {
		t.Fatal(err)
	}
	check(t, readAll(t, c, tbl), "1|Hello World|1.50|2021-04-13 20:12:11.123", "NULL|"+nullString+"|NULL|NULL")
	if err := write(t, c, tbl, WriteSpec{Overwrite: true}, batch(t, []any{int32(2), "Hi", dec("-3.25"), ts}), false); err != nil {
		t.Fatal(err)
	}
	check(t, readAll(t, c, tbl), "2|Hi|-3.25|2021-04-13 20:12:11.123")
}

func TestMemoryManagedTable(t *testing.T) {
	cat := memory.New("c", "default")
	c := New()
	tbl := &Table{Catalog: cat, Name: catalogs.NewIdentifier("c", "default", "t"), Options: map[string]string{}, Columns: cols}
	exercise(t, c, tbl, "NULL")
	if err := c.Truncate(context.Background(), tbl); err != nil {
		t.Fatal(err)
	}
	check(t, readAll(t, c, tbl))
	// Another catalog instance with the same path sees none of it.
	other := &Table{Catalog: memory.New("c", "default"), Name: tbl.Name, Options: map[string]string{}, Columns: cols}
	if err := write(t, c, tbl, WriteSpec{}, batch(t, []any{int32(1), "a", dec("1.00"), time.Unix(0, 0).UTC()}), false); err != nil {
		t.Fatal(err)
	}
	check(t, readAll(t, c, other))
}

func TestSQLiteManagedTable(t *testing.T) {
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cat, err := store.Create("lake", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.(RowStore); !ok {
		t.Fatal("the sqlite catalog does not store rows")
	}
	c := New()
	tbl := &Table{Catalog: cat, Name: catalogs.NewIdentifier("lake", "default", "t"), Options: map[string]string{}, Columns: cols}
	createTable(t, cat, tbl)
	exercise(t, c, tbl, "NULL")
	// The rows are in the file, not in the memory store.
	if n := c.Memory.Rows(tbl); n != 0 {
		t.Fatalf("memory store holds %d rows of a sqlite table", n)
	}
	fresh := New()
	check(t, readAll(t, fresh, tbl), "2|Hi|-3.25|2021-04-13 20:12:11.123")
	if err := c.Truncate(context.Background(), tbl); err != nil {
		t.Fatal(err)
	}
	check(t, readAll(t, fresh, tbl))
}

func TestFilesystemCSV(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	// The table's directory exists, empty: reading it gives no rows.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := New()
	tbl := &Table{Name: catalogs.NewIdentifier("c", "d", "t"),
		Options: map[string]string{"connector": "filesystem", "path": dir, "format": "csv"}, Columns: cols}
	// CSV writes NULL and '' alike (an empty field); a string column
	// reads an empty field back as ''.
	exercise(t, c, tbl, "")
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || !strings.HasPrefix(files[0].Name(), "part-") {
		t.Fatalf("files after overwrite: %v", files)
	}
	data, _ := os.ReadFile(filepath.Join(dir, files[0].Name()))
	// A timestamp is quoted: Jackson's CSV writer, which Flink uses,
	// quotes text holding a character below the delimiter (the space).
	if got := string(data); got != "2,Hi,-3.25,\"2021-04-13 20:12:11.123\"\n" {
		t.Fatalf("csv file = %q", got)
	}
	// A malformed row is an error naming file and line, unless ignored.
	if err := os.WriteFile(filepath.Join(dir, "part-z"), []byte("1,a,1.00,2021-01-01 00:00:00\nx,b,1.00,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := c.OpenReader(context.Background(), tbl)
	_, err = r.Next(context.Background())
	if err == nil || !strings.Contains(err.Error(), "part-z") || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err = %v, want a parse error naming part-z line 2", err)
	}
	tbl.Options["csv.ignore-parse-errors"] = "true"
	check(t, readAll(t, c, tbl), "2|Hi|-3.25|2021-04-13 20:12:11.123", "1|a|1.00|2021-01-01 00:00:00.000", "NULL|b|1.00|NULL")
}

func TestSQLiteManagedTableCollections(t *testing.T) {
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cat, _ := store.Create("lake", nil)
	rowT := types.NewRow(types.Field{Name: "a", Type: types.New(types.BigInt)}, types.Field{Name: "b", Type: types.NewVarBinary(10)})
	ccols := []Column{
		{Name: "arr", Type: types.NewArray(types.New(types.Int))},
		{Name: "m", Type: types.NewMap(types.NewString(), types.NewDecimal(5, 2))},
		{Name: "r", Type: rowT},
	}
	tbl := &Table{Catalog: cat, Name: catalogs.NewIdentifier("lake", "default", "n"), Options: map[string]string{}, Columns: ccols}
	createTable(t, cat, tbl)
	c := New()
	b := vector.NewBatch(tbl.Types(), 2)
	b.AppendRow(types.Insert, []any{[]any{int32(1), nil}, map[any]any{"k": dec("1.50")}, []any{int64(1) << 60, []byte{0, 255}}})
	b.AppendRow(types.Insert, []any{nil, nil, nil})
	w, err := c.OpenWriter(context.Background(), tbl, WriteSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, _ := c.OpenReader(context.Background(), tbl)
	got, err := r.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := range got.N {
		var cells []string
		for c, v := range got.Cols {
			cells = append(cells, types.ValueString(v.Get(i), ccols[c].Type))
		}
		lines = append(lines, strings.Join(cells, "|"))
	}
	check(t, lines, "[1, NULL]|{k=1.50}|(1152921504606846976, x'00ff')", "NULL|NULL|NULL")
}

// TestFilesystemMissingPath: a bounded read of a path that does not exist
// fails naming the path as resolved, and is not mistaken for an empty
// table.
func TestFilesystemMissingPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nowhere")
	tbl := &Table{Name: catalogs.NewIdentifier("c", "d", "t"),
		Options: map[string]string{"connector": "filesystem", "path": dir, "format": "csv"}, Columns: cols}
	_, err := New().OpenReader(context.Background(), tbl)
	var e *Error
	if !errors.As(err, &e) || e.Class() != "FileNotFoundException" || !strings.Contains(e.Error(), dir) {
		t.Fatalf("error = %v, want FileNotFoundException naming %s", err, dir)
	}
}

// createTable creates tbl in its catalog: the row store writes only into
// tables that exist.
func createTable(t *testing.T, cat catalogs.Catalog, tbl *Table) {
	t.Helper()
	ct := &catalogs.CatalogTable{Options: map[string]string{}}
	for _, c := range tbl.Columns {
		ct.Schema.Columns = append(ct.Schema.Columns, catalogs.Column{Name: c.Name, Kind: catalogs.Physical, Type: c.Type})
	}
	if err := cat.CreateTable(context.Background(), tbl.Name.Path(), ct, false); err != nil {
		t.Fatal(err)
	}
}
