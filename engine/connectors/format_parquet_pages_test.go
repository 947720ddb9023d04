package connectors

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// pagesRow is a row of the files TestParquetDirectPages writes: plain,
// dictionary and delta encoded columns.
type pagesRow struct {
	ID *int64   `parquet:"id,optional"`
	K  *int64   `parquet:"k,optional,dict"`
	I  *int32   `parquet:"i,optional,dict"`
	V  *float64 `parquet:"v,optional"`
	S  *string  `parquet:"s,optional,dict"`
	D  int64    `parquet:"d,delta"` // REQUIRED
}

// pagesFile writes n rows of pagesRow in row groups of 3,000 rows and
// small pages, returning the file and each row as a []any of its columns.
func pagesFile(t *testing.T, n int, opts ...parquet.WriterOption) (string, [][]any) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "pages.parquet")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[pagesRow](f, append([]parquet.WriterOption{parquet.PageBufferSize(2048), parquet.MaxRowsPerRowGroup(3000)}, opts...)...)
	var rows []pagesRow
	var want [][]any
	for i := range n {
		id, k, in, v, s, d := int64(i), int64(i%13), int32(i%17), float64(i)/4, fmt.Sprintf("s%d", i%29), int64(i*3)
		r := pagesRow{ID: &id, K: &k, I: &in, V: &v, S: &s, D: d}
		w := []any{id, k, in, v, s, d}
		if i%5 == 0 {
			r.K, w[1] = nil, nil
		}
		// NULLs in v and s in the first row group only: the others'
		// pages have none.
		if i%7 == 0 && i < 3000 {
			r.V, w[3] = nil, nil
		}
		if i%11 == 0 && i < 3000 {
			r.S, w[4] = nil, nil
		}
		if i >= 4000 && i < 4500 {
			// A stretch of pages of a column all NULL.
			r.I, w[2] = nil, nil
		}
		rows = append(rows, r)
		want = append(want, w)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return name, want
}

var pagesCols = []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "k", Type: types.New(types.BigInt)},
	{Name: "i", Type: types.New(types.Int)}, {Name: "v", Type: types.New(types.Double)},
	{Name: "s", Type: types.NewString()}, {Name: "d", Type: types.New(types.BigInt)}}

// readPages reads the columns needed marks (nil: all) of a file with
// filters, on workers goroutines, as one string per row.
func readPages(t *testing.T, file string, needed []bool, workers int, fs ...RowFilter) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := (&parquetCodec{}).ReadBulkFiltered(f, file, pagesCols, needed, fs).(*parquetReader)
	defer br.Close()
	br.CapWorkers(workers)
	var out []string
	for {
		vecs := make([]*vector.Vec, len(pagesCols))
		for i, c := range pagesCols {
			if needed == nil || needed[i] {
				vecs[i] = vector.New(c.Type, 700)
			}
		}
		k, eof, err := br.Read(vecs, 700)
		if err != nil {
			t.Fatal(err)
		}
		for i := range k {
			var parts []string
			for j, v := range vecs {
				if v != nil {
					parts = append(parts, types.ValueString(v.Get(i), pagesCols[j].Type))
				}
			}
			out = append(out, strings.Join(parts, "|"))
		}
		if eof {
			return out
		}
	}
}

// TestParquetDirectPages: files of many row groups and pages (v1 and v2,
// compressed or not) whose columns are plain, dictionary or delta
// encoded, with NULLs, read whole and with filters on columns the read
// does not return (tested on the pages' values), on one goroutine and on
// several, give the rows written.
func TestParquetDirectPages(t *testing.T) {
	const n = 10000
	filters := []struct {
		f    RowFilter
		pass func(r []any) bool
	}{
		{RowFilter{Column: 1, Op: FilterLt, Value: int64(5)}, func(r []any) bool { return r[1] != nil && r[1].(int64) < 5 }},
		{RowFilter{Column: 2, Op: FilterGe, Value: int64(7)}, func(r []any) bool { return r[2] != nil && r[2].(int32) >= 7 }},
		{RowFilter{Column: 3, Op: FilterGt, Value: 1000.0}, func(r []any) bool { return r[3] != nil && r[3].(float64) > 1000 }},
		{RowFilter{Column: 4, Op: FilterEq, Value: "s3"}, func(r []any) bool { return r[4] != nil && r[4].(string) == "s3" }},
		{RowFilter{Column: 5, Op: FilterNe, Value: int64(30)}, func(r []any) bool { return r[5] != nil && r[5].(int64) != 30 }},
		{RowFilter{Column: 1, Op: FilterIsNull}, func(r []any) bool { return r[1] == nil }},
		{RowFilter{Column: 2, Op: FilterIsNotNull}, func(r []any) bool { return r[2] != nil }},
		{RowFilter{Column: 3, Op: FilterIsNull}, func(r []any) bool { return r[3] == nil }},
	}
	for _, tc := range []struct {
		name string
		opts []parquet.WriterOption
	}{
		{"v1 snappy", []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.DataPageVersion(1)}},
		{"v2 zstd", []parquet.WriterOption{parquet.Compression(&parquet.Zstd), parquet.DataPageVersion(2)}},
		{"v1 uncompressed", []parquet.WriterOption{parquet.Compression(&parquet.Uncompressed), parquet.DataPageVersion(1)}},
	} {
		file, rows := pagesFile(t, n, tc.opts...)
		for _, workers := range []int{1, 2} {
			if got, want := readPages(t, file, nil, workers), rowStrings(pagesCols, rows); !slices.Equal(got, want) {
				t.Fatalf("%s, %d workers: %d rows, want %d; first difference at %d", tc.name, workers, len(got), len(want), firstDiff(got, want))
			}
			onlyID := []bool{true, false, false, false, false, false}
			for _, fl := range filters {
				var want []string
				for _, r := range rows {
					if fl.pass(r) {
						want = append(want, fmt.Sprint(r[0]))
					}
				}
				got := readPages(t, file, onlyID, workers, fl.f)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %d workers, %+v: %d rows, want %d; first difference at %d", tc.name, workers, fl.f, len(got), len(want), firstDiff(got, want))
				}
			}
			// Two filters on one column, and filters on two.
			var want []string
			for _, r := range rows {
				if filters[0].pass(r) && r[1] != nil && r[1].(int64) > 1 && filters[2].pass(r) {
					want = append(want, fmt.Sprint(r[0]))
				}
			}
			got := readPages(t, file, onlyID, workers, filters[0].f, RowFilter{Column: 1, Op: FilterGt, Value: int64(1)}, filters[2].f)
			if !slices.Equal(got, want) {
				t.Fatalf("%s, %d workers, three filters: %d rows, want %d", tc.name, workers, len(got), len(want))
			}
		}
	}
}
