package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// benchCatalog opens a store in a temporary directory with one catalog
// holding a managed table t (id BIGINT, name STRING, v DOUBLE).
func benchCatalog(b *testing.B) (*Catalog, catalogs.ObjectPath, []*types.Type) {
	b.Helper()
	s, err := OpenStore(filepath.Join(b.TempDir(), "eddy.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	cat, err := s.Create("cat", nil)
	if err != nil {
		b.Fatal(err)
	}
	c := cat.(*Catalog)
	tbl := managedTable(col("id", types.New(types.BigInt)), col("name", types.NewString()), col("v", types.New(types.Double)))
	p := catalogs.NewObjectPath("default", "t")
	if err := c.CreateTable(ctx, p, tbl, false); err != nil {
		b.Fatal(err)
	}
	return c, p, physTypes(tbl)
}

func benchWrite(b *testing.B, c *Catalog, p catalogs.ObjectPath, cols []*types.Type, from, n int) {
	b.Helper()
	err := c.WriteRows(ctx, p, cols, false, func(emit func([]any) error) error {
		for i := from; i < from+n; i++ {
			if err := emit([]any{int64(i), fmt.Sprintf("name %d", i%1000), float64(i) / 4}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriteRowsBatch stores 10,000 rows per transaction, as
// INSERT INTO t SELECT does; the rate is rows per second.
func BenchmarkWriteRowsBatch(b *testing.B) {
	c, p, cols := benchCatalog(b)
	const n = 10_000
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchWrite(b, c, p, cols, i*n, n)
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkWriteRowsSingle stores one row per transaction, as each piped
// INSERT INTO t VALUES statement does.
func BenchmarkWriteRowsSingle(b *testing.B) {
	c, p, cols := benchCatalog(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchWrite(b, c, p, cols, i, 1)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkReadRows reads back a 100,000-row managed table.
func BenchmarkReadRows(b *testing.B) {
	c, p, cols := benchCatalog(b)
	const n = 100_000
	benchWrite(b, c, p, cols, 0, n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got := 0
		if _, err := c.ReadRows(ctx, p, cols, 0, 0, func([]any) error { got++; return nil }); err != nil {
			b.Fatal(err)
		}
		if got != n {
			b.Fatalf("read %d rows, want %d", got, n)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGetTable looks one table up among 2,000, as every statement
// naming a table does.
func BenchmarkGetTable(b *testing.B) {
	c, _, _ := benchCatalog(b)
	tbl := managedTable(col("id", types.New(types.BigInt)), col("name", types.NewString()))
	for i := range 2000 {
		if err := c.CreateTable(ctx, catalogs.NewObjectPath("default", fmt.Sprintf("t%d", i)), tbl, false); err != nil {
			b.Fatal(err)
		}
	}
	p := catalogs.NewObjectPath("default", "t1000")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.GetTable(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListTables lists 2,000 tables, as SHOW TABLES does.
func BenchmarkListTables(b *testing.B) {
	c, _, _ := benchCatalog(b)
	tbl := managedTable(col("id", types.New(types.BigInt)))
	for i := range 2000 {
		if err := c.CreateTable(ctx, catalogs.NewObjectPath("default", fmt.Sprintf("t%d", i)), tbl, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		names, err := c.ListTables(ctx, "default")
		if err != nil {
			b.Fatal(err)
		}
		if len(names) != 2001 {
			b.Fatalf("listed %d tables, want 2001", len(names))
		}
	}
}

// BenchmarkScan1M reads a 1,000,000-row managed table (id BIGINT, name
// STRING, v DOUBLE) the way a query's scan does: pages of 1,024 rows
// through ReadRows (the row path), and one ScanRows cursor of every
// column and of the two numeric columns (the column path).
func BenchmarkScan1M(b *testing.B) {
	c, p, cols := benchCatalog(b)
	const n = 1_000_000
	benchWrite(b, c, p, cols, 0, n)
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			got := 0
			var after int64
			for {
				page := 0
				last, err := c.ReadRows(ctx, p, cols, after, 1024, func([]any) error { page++; return nil })
				if err != nil {
					b.Fatal(err)
				}
				got += page
				after = last
				if page < 1024 {
					break
				}
			}
			if got != n {
				b.Fatalf("read %d rows, want %d", got, n)
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
	})
	for _, tc := range []struct {
		name    string
		read    []int
		filters []catalogs.RowFilter
		want    int
		workers int
	}{
		{"columns-all", nil, nil, n, 1},
		{"columns-id-v", []int{0, 2}, nil, n, 1},
		{"columns-id-v-2-workers", []int{0, 2}, nil, n, 2},
		{"columns-name", []int{1}, nil, n, 1},
		{"filter-id-last-10pct", []int{0, 2}, []catalogs.RowFilter{{Column: 0, Op: catalogs.FilterGe, Value: int64(n * 9 / 10)}}, n / 10, 1},
		{"filter-name-eq", []int{0}, []catalogs.RowFilter{{Column: 1, Op: catalogs.FilterEq, Value: "name 7"}}, n / 1000, 1},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cur, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{Columns: tc.read, Filters: tc.filters})
				if err != nil {
					b.Fatal(err)
				}
				var got atomic.Int64
				var wg sync.WaitGroup
				for range tc.workers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							ch, err := cur.Next(ctx, 1024)
							if err != nil {
								b.Error(err)
								return
							}
							if ch == nil {
								return
							}
							got.Add(int64(ch.N))
						}
					}()
				}
				wg.Wait()
				cur.Close()
				if got.Load() != int64(tc.want) {
					b.Fatalf("read %d rows, want %d", got.Load(), tc.want)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
	}
}

// BenchmarkDecodeDoubles decodes a chunk's column of 32,768 prices (two
// decimal places): stored plain (8 bytes a value, copied) and as scaled
// integers (17 bits a value, unpacked and divided back into the same
// doubles); the rate is bytes of doubles decoded, and the blob's size is
// reported: the scaled blob is a quarter of the plain one, which the
// scan's reads save, for about 2.5 ns a value more to decode.
func BenchmarkDecodeDoubles(b *testing.B) {
	const n = defaultChunkRows
	prices := make([]float64, n)
	for i := range prices {
		prices[i] = float64(i*7919%100_000) / 100
	}
	for _, c := range []struct {
		name string
		tag  byte
	}{{"plain", encFloats}, {"scaled", encDecFloats}} {
		b.Run(c.name, func(b *testing.B) {
			cv := catalogs.ColumnValues{Floats: prices}
			blob, _, err := encodeColumn(&cv, n, types.New(types.Double))
			if err != nil {
				b.Fatal(err)
			}
			if c.tag == encFloats {
				// The plain form, as a chunk of doubles that are not all
				// decimals is stored: the tag, the rows, no NULLs, the
				// doubles.
				blob = binary.AppendUvarint([]byte{encFloats}, n)
				blob = append(blob, 0)
				for _, v := range prices {
					blob = binary.LittleEndian.AppendUint64(blob, math.Float64bits(v))
				}
			}
			if blob[0] != c.tag {
				b.Fatalf("stored with tag %d", blob[0])
			}
			into := &catalogs.ColumnValues{Floats: make([]float64, n)}
			b.SetBytes(int64(n) * 8)
			for b.Loop() {
				got, rows, err := decodeColumnInto(blob, types.New(types.Double), false, into)
				if err != nil || rows != n || got.Floats[n-1] != prices[n-1] {
					b.Fatalf("%d rows (%v)", rows, err)
				}
			}
			b.ReportMetric(float64(len(blob)), "blob-bytes")
		})
	}
}
