package connectors

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// TestCSVScanConcurrent: a bounded CSV scan is parsed on one goroutine
// and several goroutines calling Next get every row once; a changelog
// format's scan is not shared.
func TestCSVScanConcurrent(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	var want []string
	for i := range 20000 {
		fmt.Fprintf(&text, "%d,\"s %d\nnext line\"\n", i, i%13)
		want = append(want, fmt.Sprintf("%d|s %d\nnext line", i, i%13))
	}
	if err := os.WriteFile(filepath.Join(dir, "part-0.csv"), []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	tbl := &Table{Catalog: memory.New("c", "default"), Name: catalogs.NewIdentifier("c", "default", "t"),
		Options: map[string]string{"connector": "filesystem", "path": dir, "format": "csv"}, Columns: cols}
	r := openTestReader(t, tbl)
	if !IsConcurrent(r) {
		t.Fatal("the CSV scan is not concurrent")
	}
	var got []string
	readConcurrently(t, r, func(b *vector.Batch) {
		for i := range b.N {
			got = append(got, batchRow(b, i, []*types.Type{cols[0].Type, cols[1].Type}, []int{0, 1}))
		}
	})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%d rows, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}

	tbl.Options["format"] = "debezium-json"
	r = openTestReader(t, tbl)
	defer r.Close()
	if IsConcurrent(r) {
		t.Error("a changelog format's scan is concurrent: its rows' order carries their meaning")
	}
}

// readConcurrently calls r's Next from four goroutines until its end,
// gives each batch to take (one call at a time) and closes r.
func readConcurrently(t *testing.T, r Reader, take func(*vector.Batch)) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				b, err := r.Next(context.Background())
				if err != nil {
					errs <- err
					return
				}
				if b == nil {
					return
				}
				mu.Lock()
				take(b)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// openTestReader opens the filesystem reader of tbl.
func openTestReader(t *testing.T, tbl *Table) Reader {
	t.Helper()
	ft, err := newFileTable(New().Registry, tbl)
	if err != nil {
		t.Fatal(err)
	}
	r, err := openFileReader(ft)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
