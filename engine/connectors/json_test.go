package connectors

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// A json filesystem table writes one object per line under k=v/
// directories and reads back the same values, nested types included.
func TestJSONPartitionedRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rowT := types.NewRow(types.Field{Name: "x", Type: types.New(types.Int)}, types.Field{Name: "y", Type: types.NewString()})
	cols := []Column{
		{Name: "id", Type: types.New(types.BigInt)},
		{Name: "tags", Type: types.NewArray(types.NewString())},
		{Name: "r", Type: rowT},
		{Name: "ts", Type: types.NewTimestamp(3)},
		{Name: "dt", Type: types.NewString()},
	}
	tbl := &Table{Name: catalogs.NewIdentifier("c", "d", "t"), Columns: cols, PartitionKeys: []string{"dt"},
		Options: map[string]string{"connector": "filesystem", "path": dir, "format": "json"}}
	c := New()
	w, err := c.OpenWriter(ctx, tbl, WriteSpec{})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := types.ParseTimestamp("2024-05-06 07:08:09.123")
	b := vector.NewBatch(tbl.Types(), 2)
	b.AppendRow(types.Insert, []any{int64(1), []any{"a", nil}, []any{int32(5), "five"}, ts, "2024-05-06"})
	b.AppendRow(types.Insert, []any{int64(2), nil, nil, nil, nil})
	if err := w.Write(ctx, b); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	files, _ := dataFiles(dir)
	if len(files) != 2 {
		t.Fatalf("files: %v", files)
	}
	var texts []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		data, _ := os.ReadFile(f)
		texts = append(texts, filepath.Dir(rel)+" "+strings.TrimSpace(string(data)))
	}
	want := `dt=2024-05-06 {"id":1,"tags":["a",null],"r":{"x":5,"y":"five"},"ts":"2024-05-06 07:08:09.123"}|` +
		`dt=__DEFAULT_PARTITION__ {"id":2,"tags":null,"r":null,"ts":null}`
	if got := strings.Join(texts, "|"); got != want {
		t.Fatalf("files:\n got %s\nwant %s", got, want)
	}
	r, err := c.OpenReader(ctx, tbl)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Next(ctx)
	if err != nil || out == nil || out.N != 2 {
		t.Fatalf("read %v, %v", out, err)
	}
	for i := range 2 {
		var cells []string
		for j, v := range out.Row(i) {
			if v == nil {
				cells = append(cells, "NULL")
			} else {
				cells = append(cells, types.ValueString(v, cols[j].Type))
			}
		}
		texts[i] = strings.Join(cells, " ")
	}
	if got := strings.Join(texts, "|"); got != "1 [a, NULL] (5, five) 2024-05-06 07:08:09.123 2024-05-06|2 NULL NULL NULL NULL" {
		t.Fatalf("read back: %s", got)
	}
}
