package connectors

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// csvTable writes files (name -> content) under a new directory and
// returns a csv table over it with the given columns and extra options.
func csvTable(t *testing.T, files map[string]string, cols []Column, opts map[string]string) *Table {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := map[string]string{"connector": "filesystem", "path": dir, "format": "csv"}
	for k, v := range opts {
		o[k] = v
	}
	return &Table{Name: catalogs.NewIdentifier("c", "d", "t"), Options: o, Columns: cols}
}

// scanRows reads a table (only the columns pushed, when cols is not nil)
// as "v|v" lines, or returns the error.
func scanRows(t *testing.T, tbl *Table, cols []int) ([]string, error) {
	t.Helper()
	r, err := New().OpenReader(context.Background(), tbl)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ts := tbl.Types()
	if cols != nil {
		r.(Pushdown).PushColumns(cols)
		var pts []*types.Type
		for _, c := range cols {
			pts = append(pts, ts[c])
		}
		ts = pts
	}
	var out []string
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			return out, err
		}
		if b == nil {
			return out, nil
		}
		if len(b.Cols) != len(ts) {
			t.Fatalf("batch of %d columns, want %d", len(b.Cols), len(ts))
		}
		for i := range b.N {
			parts := make([]string, len(b.Cols))
			for c, v := range b.Cols {
				if v.Len != b.N {
					t.Fatalf("column %d holds %d values in a batch of %d rows", c, v.Len, b.N)
				}
				parts[c] = types.ValueString(v.Get(i), ts[c])
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
}

func TestCSVReadTypes(t *testing.T) {
	cols := []Column{
		{Name: "ti", Type: types.New(types.TinyInt)},
		{Name: "i", Type: types.New(types.Int)},
		{Name: "f", Type: types.New(types.Float)},
		{Name: "d", Type: types.New(types.Double)},
		{Name: "s", Type: types.NewString()},
		{Name: "dec", Type: types.NewDecimal(5, 2)},
		{Name: "b", Type: types.New(types.Boolean)},
	}
	tbl := csvTable(t, map[string]string{"part-0": "" +
		"1,-2,0.1,2.5,x,1.5,true\n" +
		"+7, 12 ,1e3,-0.0,,3,false\n" +
		",,,,\"\",,\n" +
		"-128,2147483647,3.4028235E38,123456789012345678901234,\"a,\"\"b\"\"\",-0.01,TRUE\n"}, cols, nil)
	got, err := scanRows(t, tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, got,
		"1|-2|0.1|2.5|x|1.50|TRUE",
		"7|12|1000.0|-0.0||3.00|FALSE",
		"NULL|NULL|NULL|NULL||NULL|NULL",
		`-128|2147483647|3.4028235E38|1.2345678901234569E23|a,"b"|-0.01|TRUE`)
	// Out of range for the column's type is an error naming the line.
	tbl = csvTable(t, map[string]string{"part-0": "1,1,1,1,a,1,true\n128,1,1,1,a,1,true\n"}, cols, nil)
	if _, err := scanRows(t, tbl, nil); err == nil || !strings.Contains(err.Error(), "(line 2)") {
		t.Fatalf("err = %v, want an error at line 2", err)
	}
}

func TestCSVReadNullLiteralAndErrors(t *testing.T) {
	cols := []Column{{Name: "a", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	data := "1,n/a\nn/a,x\n\"2\",\"y\"\nbad,z\n3\n4,w,extra\n5,\"unclosed\n"
	tbl := csvTable(t, map[string]string{"part-0": data}, cols, map[string]string{"csv.null-literal": "n/a"})
	_, err := scanRows(t, tbl, nil)
	if err == nil || !strings.Contains(err.Error(), "part-0' (line 4)") {
		t.Fatalf("err = %v, want an error at line 4 of part-0", err)
	}
	tbl.Options["csv.ignore-parse-errors"] = "true"
	got, err := scanRows(t, tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A bad field is NULL, a missing one too, an extra one is dropped, a
	// malformed record is skipped.
	check(t, got, "1|NULL", "NULL|x", "2|y", "NULL|z", "3|NULL", "4|w")
}

// TestCSVReadProjection: pushed columns come in the pushed order, and a
// field the query does not read is not converted (a bad value there is
// no error, as in Flink's projecting CSV format).
func TestCSVReadProjection(t *testing.T) {
	cols := []Column{{Name: "a", Type: types.New(types.Int)}, {Name: "b", Type: types.New(types.Double)},
		{Name: "s", Type: types.NewString()}, {Name: "dt", Type: types.NewString()}}
	tbl := csvTable(t, map[string]string{
		"dt=x/part-0": "1,oops,p\n2,2.5,q\n",
		"dt=y/part-0": "3,3.5,r\n",
	}, cols, nil)
	tbl.PartitionKeys = []string{"dt"}
	got, err := scanRows(t, tbl, []int{3, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, "x|1|p", "x|2|q", "y|3|r")
	if _, err := scanRows(t, tbl, []int{1}); err == nil || !strings.Contains(err.Error(), "(line 1)") {
		t.Fatalf("err = %v, want the bad DOUBLE at line 1", err)
	}
}

// TestCSVReadManyBatches: a file larger than the read buffer and than a
// batch reads back whole and in order, with a cancelled reader stopping.
func TestCSVReadManyBatches(t *testing.T) {
	var b strings.Builder
	const n = 50_000
	for i := range n {
		b.WriteString(strings.Repeat("x", i%13))
		b.WriteString(",")
		b.WriteString(strings.TrimSpace(strings.Repeat(" ", i%3)))
		b.WriteString("\"q\n\"\n")
	}
	cols := []Column{{Name: "s", Type: types.NewString()}, {Name: "q", Type: types.NewString()}}
	tbl := csvTable(t, map[string]string{"part-0": b.String()}, cols, nil)
	got, err := scanRows(t, tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("%d rows, want %d", len(got), n)
	}
	for i, row := range got {
		if want := strings.Repeat("x", i%13) + "|q\n"; row != want {
			t.Fatalf("row %d = %q, want %q", i, row, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r, err := New().OpenReader(ctx, tbl)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := r.Next(ctx); err == nil {
		t.Fatal("a cancelled reader went on")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCSVFormatOptionErrors(t *testing.T) {
	cols := []Column{{Name: "a", Type: types.New(types.Int)}}
	for opts, want := range map[string]string{
		"csv.disable-quote-character=true,csv.quote-character='": "Format cannot define a quote character and disabled quote character at the same time.",
		"csv.escape-character=ab":                                "Option 'csv.escape-character' must be a string with single character, but was: ab",
	} {
		o := map[string]string{}
		for _, kv := range strings.Split(opts, ",") {
			k, v, _ := strings.Cut(kv, "=")
			o[k] = v
		}
		_, err := scanRows(t, csvTable(t, nil, cols, o), nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", opts, err, want)
		}
	}
}
