package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"eddy/catalogs"
	"eddy/engine/types"
)

// chunkedStore opens a store whose chunks hold rows rows (0: never fold).
func chunkedStore(t *testing.T, rows int) *Catalog {
	t.Helper()
	s := openTestStore(t)
	s.chunkRows = rows
	if rows == 0 {
		s.chunkRows = math.MaxInt32
	}
	cat, err := s.Create("cat", nil)
	must(t, err)
	return cat.(*Catalog)
}

// chunkCount returns the number of chunks the store holds.
func chunkCount(t *testing.T, c *Catalog) int {
	t.Helper()
	var n int
	must(t, c.store.db.QueryRow(`SELECT count(DISTINCT tbl || '/' || chunk) FROM eddy_chunks`).Scan(&n))
	return n
}

// deltaRows reads a table's data table as the row-wise store did, through
// database/sql: the reference the chunks are compared with (a store that
// never folds keeps every row there).
func deltaRows(t *testing.T, c *Catalog, p catalogs.ObjectPath, ts []*types.Type) []string {
	t.Helper()
	tbl, err := c.rowTable(ctx, c.store.db, p)
	must(t, err)
	names := make([]string, len(ts))
	for i := range ts {
		names[i] = fmt.Sprintf("c%d", i)
	}
	rows, err := c.store.db.Query(`SELECT ` + strings.Join(names, ", ") + ` FROM ` + tbl + ` ORDER BY rowid`)
	must(t, err)
	defer rows.Close()
	var out []string
	raw := make([]any, len(ts))
	ptrs := make([]any, len(ts))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		must(t, rows.Scan(ptrs...))
		row := make([]any, len(ts))
		for i, ty := range ts {
			row[i], err = fromSQL(raw[i], ty)
			must(t, err)
		}
		out = append(out, fmt.Sprint(row))
	}
	must(t, rows.Err())
	return out
}

func scanRows(t *testing.T, c *Catalog, p catalogs.ObjectPath, ts []*types.Type, spec catalogs.ScanSpec) []string {
	t.Helper()
	cur, err := c.ScanRows(ctx, p, ts, spec)
	must(t, err)
	out := ts
	if spec.Columns != nil {
		out = nil
		for _, i := range spec.Columns {
			out = append(out, ts[i])
		}
	}
	return scanAll(t, cur, out)
}

func sameRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d:\ngot  %s\nwant %s", what, i, got[i], want[i])
		}
	}
}

// everyTypeTable is a table of every column type the store keeps and
// rows with NULLs, empty values and extremes.
func everyTypeTable(t *testing.T, n int) (*catalogs.CatalogTable, [][]any) {
	tbl := managedTable(
		col("b", types.New(types.Boolean)), col("ti", types.New(types.TinyInt)), col("si", types.New(types.SmallInt)),
		col("i", types.New(types.Int)), col("bi", types.New(types.BigInt)), col("f", types.New(types.Float)),
		col("d", types.New(types.Double)), col("dec", types.NewDecimal(38, 10)), col("ch", types.NewChar(3)),
		col("s", types.NewString()), col("bin", types.NewBinary(2)), col("vb", types.NewVarBinary(10)),
		col("dt", types.New(types.Date)), col("tm", types.NewTime(3)), col("ts", types.NewTimestamp(9)),
		col("ltz", types.NewTimestampLTZ(3)), col("ym", types.New(types.IntervalYearMonth)),
		col("dtv", types.New(types.IntervalDayTime)), col("arr", types.NewArray(types.New(types.Int))),
		col("m", types.NewMap(types.NewString(), types.New(types.BigInt))),
		col("r", types.NewRow(types.Field{Name: "x", Type: types.New(types.Int)}, types.Field{Name: "y", Type: types.NewString()})),
		col("few", types.NewString()))
	var rows [][]any
	for i := range n {
		switch i % 11 {
		case 3:
			rows = append(rows, make([]any, 22)) // all NULL
			continue
		case 5: // extremes and empty values
			dec, err := types.ParseDecimal("-9999999999999999999999999999.9999999999")
			must(t, err)
			lo := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
			rows = append(rows, []any{false, int8(math.MinInt8), int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64),
				float32(-math.MaxFloat32), -math.MaxFloat64, dec, "", "", []byte{}, []byte{}, int32(-719162), time.Duration(0),
				lo, lo, int32(math.MinInt32), int64(math.MinInt64), []any{}, map[any]any{}, []any{nil, ""}, ""})
			continue
		case 7:
			dec, err := types.ParseDecimal("9999999999999999999999999999.9999999999")
			must(t, err)
			hi := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
			rows = append(rows, []any{true, int8(math.MaxInt8), int16(math.MaxInt16), int32(math.MaxInt32), int64(math.MaxInt64),
				float32(math.SmallestNonzeroFloat32), math.Inf(1), dec, "zzz", strings.Repeat("x", 1000), []byte{255, 255},
				[]byte("0123456789"), int32(2932896), time.Duration(86399999) * time.Millisecond,
				hi, hi, int32(math.MaxInt32), int64(math.MaxInt64), []any{int32(math.MaxInt32)}, map[any]any{"": nil},
				[]any{int32(-1), "ü"}, "few 2"})
			continue
		}
		dec, err := types.ParseDecimal(fmt.Sprintf("%d.%02d", i-1000, i%100))
		must(t, err)
		ts := time.Date(1970+i%500, time.Month(1+i%12), 1+i%28, i%24, i%60, i%60, i*1001, time.UTC)
		rows = append(rows, []any{i%2 == 0, int8(i % 100), int16(i - 1200), int32(-i * 1000), int64(i) << 40,
			float32(i) / 3, float64(i) / 7, dec, "ab" + string(rune('a'+i%26)), strings.Repeat("é", i%5) + fmt.Sprint(i),
			[]byte{byte(i), 0}, []byte(fmt.Sprint(i)), int32(i - 700), time.Duration(i) * time.Second,
			ts, ts.Add(time.Hour), int32(i % 30), int64(i) * 1000, []any{int32(i), nil},
			map[any]any{"k": int64(i)}, []any{int32(i), "y"}, fmt.Sprintf("few %d", i%3)})
	}
	return tbl, rows
}

// TestChunksRoundTripEveryType: every type the store keeps reads back from
// column chunks exactly as the row-wise data table gives it, NULLs,
// empty values and extremes included, whole and projected.
func TestChunksRoundTripEveryType(t *testing.T) {
	folded, plain := chunkedStore(t, 100), chunkedStore(t, 0)
	p := catalogs.NewObjectPath("default", "t")
	tbl, rows := everyTypeTable(t, 1234)
	ts := physTypes(tbl)
	for _, c := range []*Catalog{folded, plain} {
		must(t, c.CreateTable(ctx, p, tbl, false))
		writeRows(t, c, p, tbl, rows[:500]...)
		writeRows(t, c, p, tbl, rows[500:]...)
	}
	// 500 rows: five chunks; 734: seven and the 34 rows left, which a
	// write of a quarter chunk's rows or more folds too.
	if n := chunkCount(t, folded); n != 13 {
		t.Fatalf("%d chunks, want 13", n)
	}
	if n := chunkCount(t, plain); n != 0 {
		t.Fatalf("the store that never folds has %d chunks", n)
	}
	want := deltaRows(t, plain, p, ts)
	sameRows(t, "scan", scanRows(t, folded, p, ts, catalogs.ScanSpec{}), want)
	// Projections read only their columns, in their order.
	proj := []int{21, 9, 4, 14}
	var wantProj []string
	for _, r := range scanRows(t, plain, p, ts, catalogs.ScanSpec{Columns: proj}) {
		wantProj = append(wantProj, r)
	}
	sameRows(t, "projection", scanRows(t, folded, p, ts, catalogs.ScanSpec{Columns: proj}), wantProj)
	// ReadRows pages through chunks and delta.
	var paged []string
	var after int64
	for {
		last, err := folded.ReadRows(ctx, p, ts, after, 77, func(row []any) error {
			paged = append(paged, fmt.Sprint(row))
			return nil
		})
		must(t, err)
		if last == after {
			break
		}
		after = last
	}
	sameRows(t, "pages", paged, want)
}

// TestChunkFiltersAndStatistics: every filter keeps the rows the row-wise
// statement keeps, and a chunk whose statistics rule a filter out is not
// read.
func TestChunkFiltersAndStatistics(t *testing.T) {
	folded, plain := chunkedStore(t, 1000), chunkedStore(t, 0)
	p := catalogs.NewObjectPath("default", "t")
	cols := createScanTable(t, folded, p)
	createScanTable(t, plain, p)
	// Ten chunks, and 500 rows in the delta: written 100 at a time, less
	// than a quarter chunk a write, they stay there.
	for _, c := range []*Catalog{folded, plain} {
		must(t, writeSequence(c, p, cols, 0, 10_000))
		for k := range 5 {
			must(t, writeSequence(c, p, cols, 10_000+100*int64(k), 100))
		}
	}
	if n := chunkCount(t, folded); n != 10 {
		t.Fatalf("%d chunks, want 10", n)
	}
	f := func(col int, op catalogs.FilterOp, v any) catalogs.RowFilter {
		return catalogs.RowFilter{Column: col, Op: op, Value: v}
	}
	cases := []struct {
		filters []catalogs.RowFilter
		chunks  int64 // chunks read
	}{
		{nil, 10},
		{[]catalogs.RowFilter{f(0, catalogs.FilterGe, int64(9500))}, 1},
		{[]catalogs.RowFilter{f(0, catalogs.FilterLt, int64(2000))}, 2},
		{[]catalogs.RowFilter{f(0, catalogs.FilterEq, int64(4321))}, 1},
		{[]catalogs.RowFilter{f(0, catalogs.FilterNe, int64(4321))}, 10},
		{[]catalogs.RowFilter{f(0, catalogs.FilterLe, int64(999)), f(0, catalogs.FilterGt, int64(100))}, 1},
		{[]catalogs.RowFilter{f(0, catalogs.FilterGt, int64(20_000))}, 0},
		{[]catalogs.RowFilter{f(0, catalogs.FilterGe, 2500.5)}, 8},
		{[]catalogs.RowFilter{f(1, catalogs.FilterGt, 2000.0)}, 2},
		{[]catalogs.RowFilter{f(1, catalogs.FilterLe, int64(10))}, 1},
		{[]catalogs.RowFilter{f(1, catalogs.FilterIsNull, nil)}, 10},
		{[]catalogs.RowFilter{f(0, catalogs.FilterIsNull, nil)}, 0},
		{[]catalogs.RowFilter{f(0, catalogs.FilterIsNotNull, nil)}, 10},
		{[]catalogs.RowFilter{f(2, catalogs.FilterEq, "name 3")}, 10},
		{[]catalogs.RowFilter{f(2, catalogs.FilterEq, "zzz")}, 0},
		{[]catalogs.RowFilter{f(2, catalogs.FilterLt, "name 1"), f(0, catalogs.FilterLt, int64(3000))}, 3},
		{[]catalogs.RowFilter{f(2, catalogs.FilterIsNull, nil), f(1, catalogs.FilterIsNotNull, nil)}, 10},
	}
	for i, tc := range cases {
		for _, proj := range [][]int{nil, {2}, {}} {
			spec := catalogs.ScanSpec{Columns: proj, Filters: tc.filters}
			want := scanRows(t, plain, p, cols, spec)
			before := folded.store.chunkReads.Load()
			got := scanRows(t, folded, p, cols, spec)
			sameRows(t, fmt.Sprintf("case %d, columns %v", i, proj), got, want)
			if read := folded.store.chunkReads.Load() - before; read != tc.chunks {
				t.Fatalf("case %d: %d chunks read, want %d", i, read, tc.chunks)
			}
		}
	}
}

// TestConcurrentCursor: workers calling Next at once get every row of the
// snapshot once, while a writer appends (and folds) meanwhile. As a
// parallel scan does, every worker stops once any call returned the end:
// the end comes only after every row was handed out. With Workers above
// 1 the store also decodes ahead on goroutines of its own.
func TestConcurrentCursor(t *testing.T) {
	c := chunkedStore(t, 1000)
	p := catalogs.NewObjectPath("default", "t")
	cols := createScanTable(t, c, p)
	must(t, writeSequence(c, p, cols, 0, 20_345))
	for _, workers := range []int{0, 3} {
		for _, spec := range []catalogs.ScanSpec{{}, {Columns: []int{0, 2}, Filters: []catalogs.RowFilter{
			{Column: 0, Op: catalogs.FilterGe, Value: int64(3333)}, {Column: 2, Op: catalogs.FilterNe, Value: "name 1"}}}} {
			want := scanRows(t, c, p, cols, spec)
			spec.Workers = workers
			cur, err := c.ScanRows(ctx, p, cols, spec)
			must(t, err)
			cc, ok := cur.(catalogs.ConcurrentCursor)
			if !ok || !cc.Concurrent() {
				t.Fatal("the cursor is not concurrent")
			}
			out := cols
			if spec.Columns != nil {
				out = []*types.Type{cols[0], cols[2]}
			}
			// Rows written now are not in the scan's snapshot.
			must(t, writeSequence(c, p, cols, 1_000_000, 2500))
			var mu sync.Mutex
			var got []string
			var wg sync.WaitGroup
			var ended atomic.Bool
			errs := make(chan error, 8)
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for !ended.Load() {
						ch, err := cur.Next(ctx, 100+w*37)
						if err != nil {
							errs <- err
							return
						}
						if ch == nil {
							ended.Store(true)
							return
						}
						var rows []string
						for r := range ch.N {
							row := make([]any, len(out))
							for i, ty := range out {
								row[i] = chunkValue(&ch.Cols[i], r, ty)
							}
							rows = append(rows, fmt.Sprint(row))
						}
						mu.Lock()
						got = append(got, rows...)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			must(t, cur.Close())
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			slices.Sort(got)
			slices.Sort(want)
			sameRows(t, fmt.Sprintf("concurrent scan, %d workers", workers), got, want)
			// Put the table back as it was for the next spec.
			must(t, c.WriteRows(ctx, p, cols, true, func(emit func([]any) error) error { return nil }))
			must(t, writeSequence(c, p, cols, 0, 20_345))
		}
	}
}

// TestReadAheadKeepsOrder: a scan that decodes ahead on goroutines of its
// own returns the rows in the serial scan's order, in pieces of the rows
// asked for, and a scan closed before its end stops its goroutines.
func TestReadAheadKeepsOrder(t *testing.T) {
	c := chunkedStore(t, 500)
	p := catalogs.NewObjectPath("default", "t")
	cols := createScanTable(t, c, p)
	must(t, writeSequence(c, p, cols, 0, 7_777))
	for _, spec := range []catalogs.ScanSpec{{}, {Columns: []int{2, 0}, Filters: []catalogs.RowFilter{
		{Column: 0, Op: catalogs.FilterLt, Value: int64(6000)}, {Column: 2, Op: catalogs.FilterNe, Value: "name 3"}}}} {
		want := scanRows(t, c, p, cols, spec)
		for _, workers := range []int{2, 4} {
			spec.Workers = workers
			got := scanRows(t, c, p, cols, spec)
			sameRows(t, fmt.Sprintf("scan decoding ahead on %d goroutines", workers), got, want)
			cur, err := c.ScanRows(ctx, p, cols, spec)
			must(t, err)
			ch, err := cur.Next(ctx, 64)
			must(t, err)
			if ch == nil || ch.N > 64 {
				t.Fatalf("first piece: %v, want at most 64 rows", ch)
			}
			// The goroutines read the next units without another Next.
			cc := cur.(*chunkCursor)
			deadline := time.Now().Add(10 * time.Second)
			for {
				cc.mu.Lock()
				claimed := cc.claimed
				cc.mu.Unlock()
				if claimed >= 2 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d workers: %d units read after the first piece, want the next ones read ahead", workers, claimed)
				}
				time.Sleep(time.Millisecond)
			}
			must(t, cur.Close())
		}
	}
}

// TestFoldIsPartOfTheWrite: a write that fails after its rows reached a
// chunk's size leaves neither rows nor chunks; a group folds at its commit
// and a rolled back group leaves nothing.
func TestFoldIsPartOfTheWrite(t *testing.T) {
	c := chunkedStore(t, 500)
	p := catalogs.NewObjectPath("default", "t")
	cols := createScanTable(t, c, p)
	must(t, writeSequence(c, p, cols, 0, 10))
	boom := errors.New("boom")
	err := c.WriteRows(ctx, p, cols, false, func(emit func([]any) error) error {
		for k := range int64(5000) {
			if err := emit([]any{k, nil, nil}); err != nil {
				return err
			}
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if n := chunkCount(t, c); n != 0 {
		t.Fatalf("a failed write left %d chunks", n)
	}
	if got := scanRows(t, c, p, cols, catalogs.ScanSpec{}); len(got) != 10 {
		t.Fatalf("%d rows after a failed write", len(got))
	}
	// Single-row statements of a group fold at its commit.
	for _, commit := range []bool{false, true} {
		g, err := c.store.BeginGroup(ctx)
		must(t, err)
		for k := int64(10); k < 1210; k++ {
			must(t, g.WriteRows(ctx, c, p, cols, false, func(emit func([]any) error) error {
				return emit([]any{k, float64(k), "g"})
			}))
		}
		if !commit {
			must(t, g.Rollback())
			if n := chunkCount(t, c); n != 0 {
				t.Fatalf("a rolled back group left %d chunks", n)
			}
			continue
		}
		must(t, g.Commit(ctx))
	}
	if n := chunkCount(t, c); n != 2 {
		t.Fatalf("%d chunks after the group, want 2", n)
	}
	got := scanRows(t, c, p, cols, catalogs.ScanSpec{Columns: []int{0}})
	if len(got) != 1210 || got[0] != "[0]" || got[1209] != "[1209]" {
		t.Fatalf("%d rows: %v ... %v", len(got), got[0], got[len(got)-1])
	}
	for i, r := range got {
		if r != fmt.Sprintf("[%d]", i) {
			t.Fatalf("row %d is %s: not in insertion order", i, r)
		}
	}
	// Overwriting, truncating and dropping remove the chunks.
	must(t, c.WriteRows(ctx, p, cols, true, emitRows([]any{int64(1), nil, nil})))
	if n := chunkCount(t, c); n != 0 {
		t.Fatalf("an overwrite left %d chunks", n)
	}
	must(t, writeSequence(c, p, cols, 0, 1000))
	must(t, c.TruncateRows(ctx, p))
	if n := chunkCount(t, c); n != 0 {
		t.Fatalf("TRUNCATE left %d chunks", n)
	}
	must(t, writeSequence(c, p, cols, 0, 1000))
	must(t, c.DropTable(ctx, p, false))
	if n := chunkCount(t, c); n != 0 {
		t.Fatalf("DROP TABLE left %d chunks", n)
	}
}

// TestChunksUnderRewrites: an ALTER TABLE rebuilding a folded table and
// keyed writes into one keep every row and its order.
func TestChunksUnderRewrites(t *testing.T) {
	c := chunkedStore(t, 100)
	p := catalogs.NewObjectPath("default", "t")
	tbl := managedTable(col("k", types.New(types.BigInt)), col("s", types.NewString()))
	must(t, c.CreateTable(ctx, p, tbl, false))
	var rows [][]any
	for k := range 450 {
		rows = append(rows, []any{int64(k), fmt.Sprint("v", k)})
	}
	writeRows(t, c, p, tbl, rows...)
	before := readRows(t, c, p, tbl)
	// Four chunks, and one of the 50 rows the bulk write left.
	if n := chunkCount(t, c); n != 5 {
		t.Fatalf("%d chunks to rebuild, want 5", n)
	}
	next := managedTable(col("k", types.New(types.BigInt)), col("s", types.NewString()), col("extra", types.New(types.Int)))
	must(t, c.AlterTable(ctx, p, next, false))
	after := readRows(t, c, p, next)
	if want := strings.ReplaceAll(before, "];", " <nil>];"); after != want {
		t.Fatalf("after ALTER TABLE:\n%.300s\nwant\n%.300s", after, want)
	}
	// A single row folds the four whole chunks and leaves 51 rows in the
	// delta.
	writeRows(t, c, p, next, []any{int64(450), "v450", int32(1)})
	if n := chunkCount(t, c); n != 4 {
		t.Fatalf("%d chunks after the rebuilt table's next write, want 4", n)
	}

	// A table with a primary key keeps its rows row-wise: upserts replace
	// rows anywhere.
	kt, kp, target := keyedTable(t, c, "keyed", true)
	var krows [][]any
	for k := range 300 {
		krows = append(krows, []any{int32(k), fmt.Sprint("a", k)})
	}
	writeRows(t, c, kp, kt, krows...)
	must(t, c.ApplyTarget(ctx, target, false, changesOf(put(int32(5), "b5"), del(int32(7), nil))))
	got := readRows(t, c, kp, kt)
	if !strings.Contains(got, "[5 b5];") || strings.Contains(got, "[7 a7]") || strings.Count(got, ";") != 299 {
		t.Fatalf("keyed table: %.200s", got)
	}

	// A folded table that gets a primary key moves its chunks back into
	// the delta at its first keyed write.
	ut, up, _ := keyedTable(t, c, "later", false)
	var urows [][]any
	for k := range 250 {
		urows = append(urows, []any{int32(k), fmt.Sprint("u", k)})
	}
	writeRows(t, c, up, ut, urows...)
	chunks := chunkCount(t, c)
	kt2 := managedTable(ut.Schema.Columns...)
	kt2.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: "PK_a", Columns: []string{"a"}}
	must(t, c.AlterTable(ctx, up, kt2, false))
	target2, err := c.BindRows(ctx, up, []string{"a", "w"}, physTypes(kt2))
	must(t, err)
	must(t, c.ApplyTarget(ctx, target2, false, changesOf(put(int32(10), "x10"), del(int32(20), nil), put(int32(300), "x300"))))
	if n := chunkCount(t, c); n != chunks-3 {
		t.Fatalf("%d chunks, want %d: the keyed table kept its chunks", n, chunks-3)
	}
	got = readRows(t, c, up, kt2)
	if !strings.HasPrefix(got, "[0 u0];[1 u1];") || !strings.Contains(got, "[10 x10];") || strings.Contains(got, "[20 u20]") ||
		!strings.HasSuffix(got, "[300 x300];") || strings.Count(got, ";") != 250 {
		t.Fatalf("keyed after folded: %.300s", got)
	}
}

// TestMigrationFromVersion1: a store of schema version 1 (the row-wise
// layout: its data tables and no chunks table) migrates on first open,
// reads as before, and folds on its next write.
func TestMigrationFromVersion1(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/eddy.db"
	s, err := OpenStore(path)
	must(t, err)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	p := catalogs.NewObjectPath("default", "t")
	tbl, rows := everyTypeTable(t, 300)
	must(t, c.CreateTable(ctx, p, tbl, false))
	writeRows(t, c, p, tbl, rows...)
	ts := physTypes(tbl)
	want := deltaRows(t, c, p, ts)
	must(t, s.Close())
	// Back to what version 1 wrote.
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	for _, q := range []string{`DROP TABLE eddy_chunks`, `UPDATE eddy_meta SET value = '1' WHERE key = 'schema_version'`} {
		_, err := db.Exec(q)
		must(t, err)
	}
	must(t, db.Close())

	s, err = OpenStore(path)
	must(t, err)
	defer s.Close()
	var v string
	must(t, s.db.QueryRow(`SELECT value FROM eddy_meta WHERE key = 'schema_version'`).Scan(&v))
	if v != fmt.Sprint(SchemaVersion) {
		t.Fatalf("schema version %s after opening", v)
	}
	cat, err = s.Create("cat", nil)
	must(t, err)
	c = cat.(*Catalog)
	sameRows(t, "migrated", scanRows(t, c, p, ts, catalogs.ScanSpec{}), want)
	s.chunkRows = 128
	writeRows(t, c, p, tbl, rows[:10]...)
	if chunkCount(t, c) != 2 {
		t.Fatal("the migrated table did not fold")
	}
	got := scanRows(t, c, p, ts, catalogs.ScanSpec{})
	sameRows(t, "migrated and folded", got[:len(want)], want)
	if len(got) != len(want)+10 {
		t.Fatalf("%d rows, want %d", len(got), len(want)+10)
	}
}

// TestMigrationOfAReleaseStore: testdata/store-v1.db was written by the
// release before column chunks (schema version 1: a table of every kind
// of column with NULLs and extremes, and a table with a primary key).
// Opened by this build it migrates, every row reads as the row-wise
// tables held it, and appends fold its rows into chunks without changing
// them.
func TestMigrationOfAReleaseStore(t *testing.T) {
	path := fixtureCopy(t, "store-v1.db", "1")
	var version string

	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	must(t, s.db.QueryRow(`SELECT value FROM eddy_meta WHERE key = 'schema_version'`).Scan(&version))
	if version != fmt.Sprint(SchemaVersion) {
		t.Fatalf("schema version %s after opening", version)
	}
	cat, err := s.Create("default_catalog", nil)
	must(t, err)
	c := cat.(*Catalog)
	for _, name := range []string{"t", "k"} {
		p := catalogs.NewObjectPath("default_database", name)
		bt, err := c.GetTable(ctx, p)
		must(t, err)
		tbl := bt.(*catalogs.CatalogTable)
		ts := physTypes(tbl)
		want := deltaRows(t, c, p, ts)
		if len(want) == 0 {
			t.Fatalf("%s: the fixture has no rows", name)
		}
		sameRows(t, name+" migrated", scanRows(t, c, p, ts, catalogs.ScanSpec{}), want)
		if name == "k" {
			if strings.Join(want, ";") != "[2 b];[1 c]" {
				t.Fatalf("keyed table: %v", want)
			}
			continue
		}
		if len(want) != 10 || want[2] != "[false -2147483648 -9223372036854775808 -0.25 -999999999.999  [] 0 1970-01-01 00:00:00 +0000 UTC [<nil>]]" {
			t.Fatalf("%s: %d rows, the third %s", name, len(want), want[2])
		}
		s.chunkRows = 4
		first, _, err := c.scanRows(ctx, p, ts, catalogs.ScanSpec{}, 0)
		must(t, err)
		row := make([]any, len(ts))
		ch, err := first.Next(ctx, 1)
		must(t, err)
		for i, ty := range ts {
			row[i] = chunkValue(&ch.Cols[i], 0, ty)
		}
		must(t, first.Close())
		// Two chunks of four rows, and the three left, which a write of
		// a quarter chunk's rows (one) folds too.
		writeRows(t, c, p, tbl, row)
		if n := chunkCount(t, c); n != 3 {
			t.Fatalf("%d chunks after an append, want 3", n)
		}
		got := scanRows(t, c, p, ts, catalogs.ScanSpec{})
		sameRows(t, name+" folded", got, append(want, want[0]))
	}
}

// FuzzDecodeColumn: a damaged column blob is an error, never a panic, for
// every column type.
func FuzzDecodeColumn(f *testing.F) {
	tbl, rows := everyTypeTable(&testing.T{}, 40)
	ts := physTypes(tbl)
	for i, ty := range ts {
		b := colBuilder{}
		b.class, _ = classOf(ty)
		for r, row := range rows {
			must(&testing.T{}, b.add(toSQL(row[i], ty), r))
		}
		b.cv.Nulls = padNulls(b.cv.Nulls, len(rows))
		blob, _, err := encodeColumn(&b.cv, len(rows), ty)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(i, blob)
	}
	f.Fuzz(func(t *testing.T, col int, blob []byte) {
		if col < 0 {
			col = -col
		}
		ty := ts[col%len(ts)]
		for _, raw := range []bool{false, true} {
			cv, n, err := decodeColumn(blob, ty, raw)
			if err != nil {
				continue
			}
			class, _ := classOf(ty)
			for i := range n {
				if raw {
					_ = sqlValue(&cv, class, i)
				} else {
					_ = engineValue(&cv, ty, i)
				}
			}
		}
	})
}

// TestUnpackWidths reads back values bit-packed at every width, at
// counts that end inside a word and on its end.
func TestUnpackWidths(t *testing.T) {
	for width := 0; width <= 64; width++ {
		for _, n := range []int{1, 7, 63, 64, 65, 1000} {
			want := make([]int64, n)
			for i := range want {
				x := uint64(i)*0x9E3779B97F4A7C15 ^ uint64(i)<<7
				if width < 64 {
					x &= 1<<uint(width) - 1
				}
				want[i] = int64(x) - 12345
			}
			b := appendPacked(nil, n, width, func(i int) uint64 { return uint64(want[i] + 12345) })
			r := &reader{b: b}
			got := make([]int64, n)
			r.unpack(got, -12345, width)
			if r.err != nil {
				t.Fatalf("width %d, %d values: %v", width, n, r.err)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("width %d, %d values: value %d = %d, want %d", width, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestChunksRecycled: a scan whose pieces are recycled as they are read
// decodes later chunks into the arrays of the earlier ones (two pieces'
// values share memory) and reads the same rows as one whose pieces are
// kept, with and without filters, on one goroutine and on several.
func TestChunksRecycled(t *testing.T) {
	c := chunkedStore(t, 500)
	p := catalogs.NewObjectPath("default", "t")
	cols := createScanTable(t, c, p)
	must(t, writeSequence(c, p, cols, 0, 7_777))
	for _, spec := range []catalogs.ScanSpec{{Columns: []int{0, 1, 2}}, {Columns: []int{2, 0, 1}, Filters: []catalogs.RowFilter{
		{Column: 0, Op: catalogs.FilterLt, Value: int64(6000)}, {Column: 2, Op: catalogs.FilterNe, Value: "name 3"}}}} {
		want := scanRows(t, c, p, cols, spec)
		var ts []*types.Type
		for _, i := range spec.Columns {
			ts = append(ts, cols[i])
		}
		k := slices.Index(spec.Columns, 0) // the BIGINT column
		for _, workers := range []int{1, 2} {
			spec.Workers = workers
			cur, err := c.ScanRows(ctx, p, cols, spec)
			must(t, err)
			rc, ok := cur.(catalogs.ChunkRecycler)
			if !ok {
				t.Fatalf("the chunk scan (%T) recycles no chunk", cur)
			}
			var got []string
			var spans [][2]uintptr
			for {
				ch, err := cur.Next(ctx, 100)
				must(t, err)
				if ch == nil {
					break
				}
				for r := range ch.N {
					row := make([]any, len(ts))
					for i, ty := range ts {
						row[i] = chunkValue(&ch.Cols[i], r, ty)
					}
					got = append(got, fmt.Sprint(row))
				}
				if ints := ch.Cols[k].Ints; len(ints) > 0 {
					lo := uintptr(unsafe.Pointer(unsafe.SliceData(ints)))
					spans = append(spans, [2]uintptr{lo, lo + uintptr(len(ints))*8})
				}
				rc.Recycle(ch)
			}
			must(t, cur.Close())
			what := fmt.Sprintf("%d filters, %d workers", len(spec.Filters), workers)
			sameRows(t, what, got, want)
			shared := false
			for i, a := range spans {
				for _, b := range spans[:i] {
					shared = shared || a[0] < b[1] && b[0] < a[1]
				}
			}
			if len(spec.Filters) == 0 && !shared {
				t.Fatalf("%s: %d pieces, none decoded into a recycled chunk's array", what, len(spans))
			}
		}
	}
}

// TestBulkWritesFoldTheirTail: a write of at least a quarter chunk's rows,
// staged or not, leaves no rows in the delta once they are a quarter
// chunk; smaller writes gather there into whole chunks.
func TestBulkWritesFoldTheirTail(t *testing.T) {
	c := chunkedStore(t, 100)
	pt, pp, target := keyedTable(t, c, "plain", false)
	var want strings.Builder
	rows := func(from, n int) []change {
		var cs []change
		for k := from; k < from+n; k++ {
			cs = append(cs, put(int32(k), fmt.Sprint("r", k)))
			fmt.Fprintf(&want, "[%d r%d];", k, k)
		}
		return cs
	}
	deltaRows := func() int {
		tbl, err := c.rowTable(ctx, c.store.db, pp)
		must(t, err)
		var n int
		must(t, c.store.db.QueryRow(`SELECT count(*) FROM `+tbl).Scan(&n))
		return n
	}
	check := func(what string, chunks, delta int) {
		t.Helper()
		if n, d := chunkCount(t, c), deltaRows(); n != chunks || d != delta {
			t.Fatalf("%s: %d chunks and %d rows in the delta, want %d and %d", what, n, d, chunks, delta)
		}
		equal(t, readRows(t, c, pp, pt), want.String())
	}
	// Staged: 260 rows in two appends and 5 at the commit: two chunks and
	// one of the 65 left.
	st, err := c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, changesOf(rows(0, 130)...)))
	must(t, st.Append(ctx, changesOf(rows(130, 130)...)))
	must(t, st.Commit(ctx, false, changesOf(rows(260, 5)...)))
	check("staged bulk write", 3, 0)
	// Ten rows, then twenty: below a quarter chunk a write, they stay.
	must(t, c.ApplyTarget(ctx, target, false, changesOf(rows(265, 10)...)))
	must(t, c.ApplyTarget(ctx, target, false, changesOf(rows(275, 20)...)))
	check("small writes", 3, 30)
	// Thirty: the 60 rows of the delta become a chunk.
	must(t, c.ApplyTarget(ctx, target, false, changesOf(rows(295, 30)...)))
	check("a quarter chunk's write", 4, 0)
}

// TestDecimalDoubles: a chunk of doubles that are all decimals of a few
// places is stored as scaled integers and decodes to the same doubles bit
// for bit, with NULLs, negative values and zero; a chunk holding a value
// no power of ten up to maxScale gives back exactly (a full-precision
// double, -0, NaN, an infinity, 0.1+0.2), or whose integers pack too
// wide, stays plain; FLOAT columns stay plain.
func TestDecimalDoubles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const n = 2*filterBlock + 300
	gen := func(f func(i int) float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	prices := gen(func(int) float64 { return float64(rng.IntN(100_000)) / 100 })
	tenth, fifth := 0.1, 0.2 // variables: a constant sum would be exactly 0.3
	cases := []struct {
		name  string
		vals  []float64
		t     *types.Type
		scale int // -1: stays plain
	}{
		{"prices", prices, types.New(types.Double), 2},
		{"whole numbers", gen(func(i int) float64 { return float64(i*7 - 4000) }), types.New(types.Double), 0},
		{"parsed decimals", gen(func(i int) float64 {
			v, _ := strconv.ParseFloat(fmt.Sprintf("%d.%03d", rng.IntN(2000)-1000, rng.IntN(1000)), 64)
			return v
		}), types.New(types.Double), 3},
		{"full precision", gen(func(int) float64 { return rng.Float64() }), types.New(types.Double), -1},
		{"negative zero", append(slices.Clone(prices[:n-1]), math.Copysign(0, -1)), types.New(types.Double), -1},
		{"NaN", append(slices.Clone(prices[:n-1]), math.NaN()), types.New(types.Double), -1},
		{"infinity", append(slices.Clone(prices[:n-1]), math.Inf(-1)), types.New(types.Double), -1},
		{"0.1+0.2", append(slices.Clone(prices[:n-1]), tenth+fifth), types.New(types.Double), -1},
		{"too wide", append(slices.Clone(prices[:n-1]), 1e12), types.New(types.Double), -1},
		{"FLOAT", gen(func(int) float64 { return float64(rng.IntN(100)) / 4 }), types.New(types.Float), -1},
	}
	for _, c := range cases {
		for _, withNulls := range []bool{false, true} {
			cv := catalogs.ColumnValues{Floats: slices.Clone(c.vals)}
			if withNulls {
				cv.Nulls = make([]uint64, (n+63)>>6)
				for i := 3; i < n-1; i += 1 + rng.IntN(7) { // never the last row, which holds the special value
					cv.Nulls[i>>6] |= 1 << (uint(i) & 63)
				}
			}
			blob, st, err := encodeColumn(&cv, n, c.t)
			must(t, err)
			what := fmt.Sprintf("%s, NULLs %v", c.name, withNulls)
			if c.scale >= 0 {
				if blob[0] != encDecFloats {
					t.Fatalf("%s: stored with tag %d, want scaled integers", what, blob[0])
				}
				if plain := 8 * n; len(blob) > plain/2 {
					t.Errorf("%s: %d bytes, plain doubles take %d", what, len(blob), plain)
				}
				r := &reader{b: blob}
				if _, _, _, err := r.header(); err != nil || int(r.byte1()) != c.scale {
					t.Errorf("%s: scale is not 10^%d (%v)", what, c.scale, err)
				}
			} else if blob[0] != encFloats {
				t.Fatalf("%s: stored with tag %d, want plain doubles", what, blob[0])
			}
			if st.nulls == 0 && withNulls {
				t.Fatalf("%s: no NULLs counted", what)
			}
			got, rows, err := decodeColumn(blob, c.t, false)
			must(t, err)
			if rows != n {
				t.Fatalf("%s: %d rows, want %d", what, rows, n)
			}
			for i := range n {
				null := isNull(cv.Nulls, i)
				if null != isNull(got.Nulls, i) {
					t.Fatalf("%s: row %d NULL %v, decoded %v", what, i, null, !null)
				}
				if null {
					continue
				}
				want := c.vals[i]
				if c.t.Kind == types.Float {
					want = float64(float32(want))
				}
				if math.Float64bits(got.Floats[i]) != math.Float64bits(want) {
					t.Fatalf("%s: row %d = %v (%x), want %v (%x)", what, i, got.Floats[i], math.Float64bits(got.Floats[i]), want, math.Float64bits(want))
				}
			}
		}
	}
}

// TestMigrationOfAVersion3Store: testdata/store-v3.db was written by the
// release before doubles stored as scaled integers (schema version 3: a
// table m (n BIGINT, price DOUBLE, x DOUBLE) of 17,000 rows in one chunk,
// n = i, price the decimal i*37 mod 1000 . i*11 mod 100 as CSV text,
// x = sqrt(i)/7). Opened by this build it becomes version 4 and reads
// as written; 17,000 more rows fold into a chunk whose prices are scaled
// integers and whose x values stay plain; the table reads whole and
// filtered across both chunks as the rows were written.
func TestMigrationOfAVersion3Store(t *testing.T) {
	path := fixtureCopy(t, "store-v3.db", "3")
	var version string

	row := func(i int) []any {
		price, err := strconv.ParseFloat(fmt.Sprintf("%d.%02d", i*37%1000, i*11%100), 64)
		must(t, err)
		return []any{int64(i), price, math.Sqrt(float64(i)) / 7}
	}
	want := func(lo, hi int) []string {
		var out []string
		for i := lo; i < hi; i++ {
			out = append(out, fmt.Sprint(row(i)))
		}
		return out
	}
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	must(t, s.db.QueryRow(`SELECT value FROM eddy_meta WHERE key = 'schema_version'`).Scan(&version))
	equal(t, version, fmt.Sprint(SchemaVersion))
	cat, err := s.Create("default_catalog", nil)
	must(t, err)
	c := cat.(*Catalog)
	p := catalogs.NewObjectPath("default_database", "m")
	bt, err := c.GetTable(ctx, p)
	must(t, err)
	tbl := bt.(*catalogs.CatalogTable)
	ts := physTypes(tbl)
	sameRows(t, "migrated", scanRows(t, c, p, ts, catalogs.ScanSpec{}), want(0, 17_000))

	var more [][]any
	for i := 17_000; i < 34_000; i++ {
		more = append(more, row(i))
	}
	writeRows(t, c, p, tbl, more...)
	tags := map[string]bool{}
	rows, err := s.db.Query(`SELECT chunk, col, unicode(data) FROM eddy_chunks ORDER BY chunk, col`)
	must(t, err)
	for rows.Next() {
		var chunk, col int
		var tag byte
		must(t, rows.Scan(&chunk, &col, &tag))
		tags[fmt.Sprintf("%d/%d:%d", chunk, col, tag)] = true
	}
	must(t, rows.Err())
	for _, tag := range []string{
		fmt.Sprintf("0/1:%d", encFloats), fmt.Sprintf("0/2:%d", encFloats), // as version 3 wrote them
		fmt.Sprintf("1/1:%d", encDecFloats), fmt.Sprintf("1/2:%d", encFloats), // prices scaled, x plain
	} {
		if !tags[tag] {
			t.Fatalf("no chunk/column:tag %s among %v", tag, tags)
		}
	}
	sameRows(t, "appended", scanRows(t, c, p, ts, catalogs.ScanSpec{}), want(0, 34_000))
	var filtered []string
	for i := range 34_000 {
		if r := row(i); r[1].(float64) > 500.5 {
			filtered = append(filtered, fmt.Sprint(r[:1]))
		}
	}
	got := scanRows(t, c, p, ts, catalogs.ScanSpec{Columns: []int{0},
		Filters: []catalogs.RowFilter{{Column: 1, Op: catalogs.FilterGt, Value: 500.5}}})
	sameRows(t, "filtered on price", got, filtered)
}

// fixtureCopy copies the store testdata/name into a directory of the
// test's, checks that it is of schema version want before anything opens
// it, and returns the copy's path.
func fixtureCopy(t *testing.T, name, want string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	must(t, err)
	path := filepath.Join(t.TempDir(), "eddy.db")
	must(t, os.WriteFile(path, src, 0o600))
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	defer db.Close()
	var version string
	must(t, db.QueryRow(`SELECT value FROM eddy_meta WHERE key = 'schema_version'`).Scan(&version))
	if version != want {
		t.Fatalf("%s has schema version %s, want %s", name, version, want)
	}
	return path
}
