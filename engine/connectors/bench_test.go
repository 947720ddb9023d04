package connectors

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/sqlite"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// BenchmarkSQLiteScan reads 100,000 rows of (BIGINT, DOUBLE, STRING) from
// a managed table of a sqlite catalog.
func BenchmarkSQLiteScan(b *testing.B) {
	store, err := sqlite.OpenStore(filepath.Join(b.TempDir(), "eddy.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	cat, _ := store.Create("lake", nil)
	c := New()
	cols := []Column{{Name: "k", Type: types.New(types.BigInt)}, {Name: "v", Type: types.New(types.Double)}, {Name: "s", Type: types.NewString()}}
	tbl := &Table{Catalog: cat, Name: catalogs.NewIdentifier("lake", "default", "t"), Options: map[string]string{}, Columns: cols}
	const n = 100_000
	w, _ := c.OpenWriter(context.Background(), tbl, WriteSpec{})
	bt := vector.NewBatch(tbl.Types(), n)
	for i := range n {
		bt.AppendRow(types.Insert, []any{int64(i), float64(i) / 3, "some text"})
	}
	if err := w.Write(context.Background(), bt); err != nil {
		b.Fatal(err)
	}
	if err := w.Commit(context.Background()); err != nil {
		b.Fatal(err)
	}
	benchReads(b, c, tbl, n, nil)
}

// benchCSVFile writes n rows shaped like the peer suite's fact table:
// (id BIGINT, k1 BIGINT, k2 BIGINT, v DOUBLE, s STRING).
func benchCSVFile(b *testing.B, n int) (*Table, int64) {
	dir := b.TempDir()
	path := filepath.Join(dir, "facts.csv")
	var buf []byte
	for i := range n {
		buf = fmt.Appendf(buf, "%d,%d,%d,%d.%02d,s%d\n", i, i%1000, (i*7919)%100000, i%1000, i%100, i%97)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.Fatal(err)
	}
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "k1", Type: types.New(types.BigInt)},
		{Name: "k2", Type: types.New(types.BigInt)}, {Name: "v", Type: types.New(types.Double)}, {Name: "s", Type: types.NewString()}}
	return &Table{Name: catalogs.NewIdentifier("c", "d", "t"), Columns: cols,
		Options: map[string]string{"connector": "filesystem", "path": path, "format": "csv"}}, int64(len(buf))
}

func benchScan(b *testing.B, tbl *Table, size int64, n int, cols []int) {
	b.SetBytes(size)
	benchReads(b, New(), tbl, n, cols)
}

// benchReads reads tbl b.N times through c, the columns cols only when
// cols is not nil, checks that each read gives n rows and reports rows/s.
func benchReads(b *testing.B, c *Connectors, tbl *Table, n int, cols []int) {
	b.ResetTimer()
	for range b.N {
		r, err := c.OpenReader(context.Background(), tbl)
		if err != nil {
			b.Fatal(err)
		}
		if cols != nil {
			r.(Pushdown).PushColumns(cols)
		}
		rows := 0
		for {
			bt, err := r.Next(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if bt == nil {
				break
			}
			rows += bt.N
		}
		r.Close()
		if rows != n {
			b.Fatalf("rows = %d", rows)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCSVScan reads 200,000 rows of a CSV file, every column.
func BenchmarkCSVScan(b *testing.B) {
	const n = 200_000
	tbl, size := benchCSVFile(b, n)
	benchScan(b, tbl, size, n, nil)
}

// BenchmarkCSVScanProjected reads two numeric columns of the same file.
func BenchmarkCSVScanProjected(b *testing.B) {
	const n = 200_000
	tbl, size := benchCSVFile(b, n)
	benchScan(b, tbl, size, n, []int{1, 3})
}

// BenchmarkDatagen generates 1,000,000 rows of (BIGINT, INT, DOUBLE), the
// peer suite's streaming source.
func BenchmarkDatagen(b *testing.B) {
	const n = 1_000_000
	tbl := &Table{Name: catalogs.NewIdentifier("c", "d", "src"), Columns: []Column{
		{Name: "id", Type: types.New(types.BigInt)}, {Name: "k", Type: types.New(types.Int)}, {Name: "v", Type: types.New(types.Double)}},
		Options: map[string]string{"connector": "datagen", "number-of-rows": fmt.Sprint(n), "rows-per-second": "1000000000",
			"fields.k.min": "0", "fields.k.max": "999", "fields.v.min": "0", "fields.v.max": "1000"}}
	benchReads(b, New(), tbl, n, nil)
}
