package connectors

import (
	"context"
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
	b.ResetTimer()
	for range b.N {
		r, _ := c.OpenReader(context.Background(), tbl)
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
		if rows != n {
			b.Fatalf("rows = %d", rows)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
