package connectors

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// parRows are n rows of (id BIGINT, v DOUBLE, s STRING) with NULLs in v
// and s, written as a file of many row groups.
func parRows(t *testing.T, n int) (string, []Column, []string) {
	t.Helper()
	dir := t.TempDir()
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "v", Type: types.New(types.Double)}, {Name: "s", Type: types.NewString()}}
	tbl := parquetTable(t, dir, cols, "parquet.block.size", "1")
	var rows [][]any
	for i := range n {
		var v, s any = float64(i) / 2, fmt.Sprintf("s%d", i%97)
		if i%7 == 0 {
			v = nil
		}
		if i%11 == 0 {
			s = nil
		}
		rows = append(rows, []any{int64(i), v, s})
	}
	writeRows(t, New(), tbl, rows)
	files, _ := dataFiles(dir)
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}
	return files[0], cols, rowStrings(cols, rows)
}

// TestParquetRowGroupsDecodedAhead: a file of many row groups, decoded
// on several goroutines, gives every row in the file's order, with and
// without a filter the reader applies.
func TestParquetRowGroupsDecodedAhead(t *testing.T) {
	file, cols, want := parRows(t, 20000)
	got, br := readFiltered(t, file, cols)
	if br.par == nil {
		t.Skip("one CPU: the row groups are read one by one")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("read %d rows, want %d in order; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	if br.groupsRead < 4 {
		t.Fatalf("%d row groups read, want several", br.groupsRead)
	}
	got, _ = readFiltered(t, file, cols, RowFilter{Column: 0, Op: FilterGe, Value: int64(15000)}, RowFilter{Column: 1, Op: FilterIsNotNull})
	var wantF []string
	for i, w := range want {
		if i >= 15000 && i%7 != 0 {
			wantF = append(wantF, w)
		}
	}
	if !slices.Equal(got, wantF) {
		t.Fatalf("id >= 15000 AND v IS NOT NULL: %d rows, want %d in order; first difference at %d", len(got), len(wantF), firstDiff(got, wantF))
	}
}

// TestParquetRowGroupsStreamed: row groups larger than the batches a
// goroutine keeps ahead are decoded as Read takes their batches, in
// order, and Close stops the goroutines of a read left half way.
func TestParquetRowGroupsStreamed(t *testing.T) {
	file, cols, want := parRows(t, 20000)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := (&parquetCodec{}).ReadBulkFiltered(f, file, cols, nil, nil).(*parquetReader)
	if br.par == nil {
		t.Skip("one CPU: the row groups are read one by one")
	}
	br.par.batches = 1
	// The batches are kept to the end: a vector holding a page's values
	// keeps them while later pages are read.
	var kept []*vector.Batch
	for {
		vecs := make([]*vector.Vec, len(cols))
		for i, c := range cols {
			vecs[i] = vector.New(c.Type, 100)
		}
		k, eof, err := br.Read(vecs, 100)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, &vector.Batch{Cols: vecs, N: k})
		if eof {
			break
		}
	}
	var got []string
	for _, b := range kept {
		for i := range b.N {
			got = append(got, batchRow(b, i, []*types.Type{cols[0].Type, cols[1].Type, cols[2].Type}, []int{0, 1, 2}))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("read %d rows, want %d in order; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	// A read stopped after one batch.
	br = (&parquetCodec{}).ReadBulkFiltered(f, file, cols, nil, nil).(*parquetReader)
	br.par.batches = 1
	vecs := []*vector.Vec{vector.New(cols[0].Type, 10), nil, nil}
	if k, _, err := br.Read(vecs, 10); err != nil || k != 10 || vecs[0].Ints[9] != 9 {
		t.Fatalf("first batch: %d rows, %v", k, err)
	}
	if err := br.Close(); err != nil {
		t.Fatal(err)
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestParquetScanConcurrent: the filesystem reader of a Parquet table is
// concurrent, and several goroutines calling Next get every row once.
func TestParquetScanConcurrent(t *testing.T) {
	file, cols, want := parRows(t, 30000)
	tbl := parquetTable(t, file, cols)
	r := openTestReader(t, tbl)
	if !IsConcurrent(r) {
		t.Fatal("the Parquet scan is not concurrent")
	}
	r.(Pushdown).PushColumns([]int{2, 0, 1})
	var batches []*vector.Batch
	readConcurrently(t, r, func(b *vector.Batch) { batches = append(batches, b) })
	// Rendered at the end: a batch keeps its values while the scan reads
	// on.
	var got []string
	for _, b := range batches {
		for i := range b.N {
			got = append(got, batchRow(b, i, []*types.Type{cols[2].Type, cols[0].Type, cols[1].Type}, []int{1, 2, 0}))
		}
	}
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%d rows, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
}

// batchRow renders row i of b with its columns in the order of order
// (b's column order[j] shown j-th).
func batchRow(b *vector.Batch, i int, ts []*types.Type, order []int) string {
	s := ""
	for j, c := range order {
		if j > 0 {
			s += "|"
		}
		s += types.ValueString(b.Cols[c].Get(i), ts[c])
	}
	return s
}

// TestParquetWorkerCap: eddy.exec.parallelism reaches a Parquet table's
// files through the filesystem reader (WorkerCap): with 1 the row groups
// are read on the caller's goroutine, with 2 at most two are in flight,
// and the rows are the same.
func TestParquetWorkerCap(t *testing.T) {
	dir := t.TempDir()
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "v", Type: types.New(types.Double)}}
	tbl := parquetTable(t, dir, cols, "parquet.block.size", "1")
	var rows [][]any
	for i := range 20000 {
		rows = append(rows, []any{int64(i), float64(i) / 4})
	}
	writeRows(t, New(), tbl, rows)
	for _, n := range []int{1, 2} {
		r, err := New().OpenReader(context.Background(), tbl)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := r.(WorkerCap)
		if !ok {
			t.Fatalf("the reader of a Parquet table (%T) takes no worker bound", r)
		}
		c.CapWorkers(n)
		var got []string
		for {
			b, err := r.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			if fr, ok := r.(*fileReader); ok && fr.bulk != nil {
				par := fr.bulk.(*parquetReader).par
				if n == 1 && par != nil || par != nil && par.ahead > n {
					t.Fatalf("parallelism %d: %d row groups in flight", n, par.ahead)
				}
			}
			for i := range b.N {
				got = append(got, fmt.Sprintf("%v|%v", b.Cols[0].Get(i), b.Cols[1].Get(i)))
			}
		}
		r.Close()
		if len(got) != len(rows) {
			t.Fatalf("parallelism %d: %d rows, want %d", n, len(got), len(rows))
		}
		for i, g := range got {
			if want := fmt.Sprintf("%v|%v", rows[i][0], rows[i][1]); g != want {
				t.Fatalf("parallelism %d: row %d is %s, want %s", n, i, g, want)
			}
		}
	}
}

// TestParquetBatchesRecycled: batches released by their consumers are
// filled again by later ones (the same vectors come back), and every row
// read, by several goroutines that render a batch and release it, is the
// file's: NULLs and values of a recycled vector are the new batch's.
func TestParquetBatchesRecycled(t *testing.T) {
	file, cols, want := parRows(t, 30000)
	tbl := parquetTable(t, file, cols)
	r := openTestReader(t, tbl)
	r.(Pushdown).PushColumns([]int{2, 0, 1})
	var got []string
	seen := map[*vector.Vec]int{}
	readConcurrently(t, r, func(b *vector.Batch) {
		for i := range b.N {
			got = append(got, batchRow(b, i, []*types.Type{cols[2].Type, cols[0].Type, cols[1].Type}, []int{1, 2, 0}))
		}
		for _, v := range b.Cols {
			seen[v]++
		}
		b.Release()
	})
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%d rows, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	again := 0
	for _, n := range seen {
		if n > 1 {
			again++
		}
	}
	if runtime.GOMAXPROCS(0) > 1 && again == 0 {
		t.Fatalf("%d vectors, none filled again after its batch was released", len(seen))
	}
}
