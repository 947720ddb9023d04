package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

// chunkValue returns value r of a chunk column as an engine value, as the
// executor's vectors give it back.
func chunkValue(c *catalogs.ColumnValues, r int, t *types.Type) any {
	if c.Nulls != nil && c.Nulls[r>>6]&(1<<(uint(r)&63)) != 0 {
		return nil
	}
	switch t.Kind {
	case types.Boolean:
		return c.Bools[r]
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.IntervalYearMonth:
		return types.IntegerValue(t.Kind, c.Ints[r])
	case types.IntervalDayTime:
		return c.Ints[r]
	case types.Time:
		return time.Duration(c.Ints[r])
	case types.Float:
		return float32(c.Floats[r])
	case types.Double:
		return c.Floats[r]
	case types.Char, types.VarChar:
		return c.Strs[r]
	case types.Binary, types.VarBinary:
		return c.Bytes[r]
	case types.Timestamp, types.TimestampLTZ:
		return c.Times[r]
	}
	return c.Anys[r]
}

// scanAll reads every row of a cursor as text, one row per line.
func scanAll(t *testing.T, cur catalogs.RowCursor, ts []*types.Type) []string {
	t.Helper()
	defer cur.Close()
	var out []string
	for {
		ch, err := cur.Next(ctx, 1024)
		must(t, err)
		if ch == nil {
			return out
		}
		if len(ch.Cols) != len(ts) {
			t.Fatalf("chunk has %d columns, want %d", len(ch.Cols), len(ts))
		}
		for r := range ch.N {
			row := make([]any, len(ts))
			for i, ty := range ts {
				row[i] = chunkValue(&ch.Cols[i], r, ty)
			}
			out = append(out, fmt.Sprint(row))
		}
	}
}

func scanTable(t *testing.T) (*Catalog, catalogs.ObjectPath) {
	t.Helper()
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	return cat.(*Catalog), catalogs.NewObjectPath("default", "t")
}

// TestScanRowsEveryType: every column type the store keeps comes back
// from the column path exactly as the row path reads it, NULLs included,
// across several chunks.
func TestScanRowsEveryType(t *testing.T) {
	c, p := scanTable(t)
	tbl := managedTable(
		col("b", types.New(types.Boolean)), col("ti", types.New(types.TinyInt)), col("si", types.New(types.SmallInt)),
		col("i", types.New(types.Int)), col("bi", types.New(types.BigInt)), col("f", types.New(types.Float)),
		col("d", types.New(types.Double)), col("dec", types.NewDecimal(10, 2)), col("ch", types.NewChar(3)),
		col("s", types.NewString()), col("bin", types.NewBinary(2)), col("vb", types.NewVarBinary(10)),
		col("dt", types.New(types.Date)), col("tm", types.NewTime(3)), col("ts", types.NewTimestamp(9)),
		col("ltz", types.NewTimestampLTZ(3)), col("ym", types.New(types.IntervalYearMonth)),
		col("dtv", types.New(types.IntervalDayTime)), col("arr", types.NewArray(types.New(types.Int))),
		col("m", types.NewMap(types.NewString(), types.New(types.BigInt))),
		col("r", types.NewRow(types.Field{Name: "x", Type: types.New(types.Int)}, types.Field{Name: "y", Type: types.NewString()})))
	must(t, c.CreateTable(ctx, p, tbl, false))
	var rows [][]any
	for i := range 2500 {
		if i%7 == 3 {
			rows = append(rows, make([]any, 21)) // all NULL
			continue
		}
		dec, err := types.ParseDecimal(fmt.Sprintf("%d.%02d", i-1000, i%100))
		must(t, err)
		ts := time.Date(1970+i%500, time.Month(1+i%12), 1+i%28, i%24, i%60, i%60, i*1001, time.UTC)
		rows = append(rows, []any{i%2 == 0, int8(i % 100), int16(i - 1200), int32(-i * 1000), int64(i) << 40,
			float32(i) / 3, float64(i) / 7, dec, "ab" + string(rune('a'+i%26)), strings.Repeat("é", i%5) + fmt.Sprint(i),
			[]byte{byte(i), 0}, []byte(fmt.Sprint(i)), int32(i - 700), time.Duration(i) * time.Second,
			ts, ts.Add(time.Hour), int32(i % 30), int64(i) * 1000, []any{int32(i), nil},
			map[any]any{"k": int64(i)}, []any{int32(i), "y"}})
	}
	writeRows(t, c, p, tbl, rows...)
	ts := physTypes(tbl)
	var want []string
	_, err := c.ReadRows(ctx, p, ts, 0, 0, func(row []any) error {
		want = append(want, fmt.Sprint(row))
		return nil
	})
	must(t, err)
	cur, err := c.ScanRows(ctx, p, ts, catalogs.ScanSpec{})
	must(t, err)
	got := scanAll(t, cur, ts)
	if len(got) != len(rows) || len(want) != len(rows) {
		t.Fatalf("column path read %d rows, row path %d, want %d", len(got), len(want), len(rows))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d:\ncolumn path %s\nrow path    %s", i, got[i], want[i])
		}
	}
}

// scanTestTypes is the table of the filter and concurrency tests: k BIGINT,
// v DOUBLE, s STRING.
func scanTestTypes() []*types.Type {
	return []*types.Type{types.New(types.BigInt), types.New(types.Double), types.NewString()}
}

// writeSequence appends n rows k = from.., v = k / 4 (NULL every 10th),
// s = 'name <k % 7>' (NULL every 13th) in one transaction.
func writeSequence(c *Catalog, p catalogs.ObjectPath, cols []*types.Type, from int64, n int) error {
	return c.WriteRows(ctx, p, cols, false, func(emit func([]any) error) error {
		for k := from; k < from+int64(n); k++ {
			var v, s any = float64(k) / 4, fmt.Sprintf("name %d", k%7)
			if k%10 == 0 {
				v = nil
			}
			if k%13 == 0 {
				s = nil
			}
			if err := emit([]any{k, v, s}); err != nil {
				return err
			}
		}
		return nil
	})
}

func createScanTable(t *testing.T, c *Catalog, p catalogs.ObjectPath) []*types.Type {
	t.Helper()
	must(t, c.CreateTable(ctx, p, managedTable(col("k", types.New(types.BigInt)), col("v", types.New(types.Double)),
		col("s", types.NewString())), false))
	return scanTestTypes()
}

// TestScanRowsColumnsAndFilters: a projection reads the columns asked
// for in their order, and every filter keeps exactly the rows where SQL's
// comparison is TRUE (NULLs never match).
func TestScanRowsColumnsAndFilters(t *testing.T) {
	c, p := scanTable(t)
	cols := createScanTable(t, c, p)
	const n = 3000
	must(t, writeSequence(c, p, cols, 0, n))

	cur, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{Columns: []int{2, 0}})
	must(t, err)
	got := scanAll(t, cur, []*types.Type{cols[2], cols[0]})
	if len(got) != n || got[26] != "[<nil> 26]" || got[27] != "[name 6 27]" {
		t.Fatalf("projection: %d rows, rows 26 and 27 = %q", len(got), got[26:28])
	}

	value := func(k int64, col int) any {
		switch col {
		case 0:
			return k
		case 1:
			if k%10 == 0 {
				return nil
			}
			return float64(k) / 4
		}
		if k%13 == 0 {
			return nil
		}
		return fmt.Sprintf("name %d", k%7)
	}
	cmp := func(a, b any) int {
		switch x := a.(type) {
		case int64:
			return int(x - b.(int64))
		case float64:
			return int(math.Copysign(1, x-b.(float64))) * map[bool]int{true: 0, false: 1}[x == b.(float64)]
		}
		return strings.Compare(a.(string), b.(string))
	}
	tests := []struct {
		fs   []catalogs.RowFilter
		keep func(k int64) bool
	}{}
	ops := []catalogs.FilterOp{catalogs.FilterEq, catalogs.FilterNe, catalogs.FilterLt, catalogs.FilterLe, catalogs.FilterGt, catalogs.FilterGe}
	test := func(op catalogs.FilterOp, c int) bool {
		switch op {
		case catalogs.FilterEq:
			return c == 0
		case catalogs.FilterNe:
			return c != 0
		case catalogs.FilterLt:
			return c < 0
		case catalogs.FilterLe:
			return c <= 0
		case catalogs.FilterGt:
			return c > 0
		}
		return c >= 0
	}
	for _, op := range ops {
		for col, val := range []any{int64(1500), 300.25, "name 3"} {
			tests = append(tests, struct {
				fs   []catalogs.RowFilter
				keep func(k int64) bool
			}{[]catalogs.RowFilter{{Column: col, Op: op, Value: val}}, func(k int64) bool {
				x := value(k, col)
				return x != nil && test(op, cmp(x, val))
			}})
		}
	}
	tests = append(tests, struct {
		fs   []catalogs.RowFilter
		keep func(k int64) bool
	}{[]catalogs.RowFilter{{Column: 1, Op: catalogs.FilterIsNull}, {Column: 2, Op: catalogs.FilterIsNotNull}, {Column: 0, Op: catalogs.FilterLt, Value: int64(2000)}},
		func(k int64) bool { return k%10 == 0 && k%13 != 0 && k < 2000 }})
	for _, tc := range tests {
		cur, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{Columns: []int{0}, Filters: tc.fs})
		must(t, err)
		got := scanAll(t, cur, cols[:1])
		var want []string
		for k := range int64(n) {
			if tc.keep(k) {
				want = append(want, fmt.Sprintf("[%d]", k))
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("filters %+v: got %d rows, want %d", tc.fs, len(got), len(want))
		}
	}
}

// TestScanRowsNoColumnsAndNoTable: a scan of no column still yields its
// rows (COUNT(*)), and a table never written yields none.
func TestScanRowsNoColumnsAndNoTable(t *testing.T) {
	c, p := scanTable(t)
	cols := createScanTable(t, c, p)
	cur, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{})
	must(t, err)
	if got := scanAll(t, cur, cols); len(got) != 0 {
		t.Fatalf("empty table gave %d rows", len(got))
	}
	must(t, writeSequence(c, p, cols, 0, 2050))
	cur, err = c.ScanRows(ctx, p, cols, catalogs.ScanSpec{Columns: []int{}, Filters: []catalogs.RowFilter{{Column: 0, Op: catalogs.FilterGe, Value: int64(50)}}})
	must(t, err)
	if got := scanAll(t, cur, nil); len(got) != 2000 {
		t.Fatalf("scan of no column gave %d rows, want 2000", len(got))
	}
}

// checkpoint runs a passive checkpoint on the store's own connection and
// reports whether a reader's snapshot kept part of the log from being
// copied back.
func checkpoint(t *testing.T, c *Catalog) bool {
	t.Helper()
	var busy, logged, done int
	must(t, c.store.db.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &done))
	return busy != 0 || done < logged
}

// TestScanStopsEarly: a scan closed after its first chunk (LIMIT) ends
// its read transaction, while it runs a writer is not blocked and the
// scan keeps its snapshot, and a finished scan holds nothing either.
func TestScanStopsEarly(t *testing.T) {
	c, p := scanTable(t)
	cols := createScanTable(t, c, p)
	must(t, writeSequence(c, p, cols, 0, 5000))
	cur, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{})
	must(t, err)
	ch, err := cur.Next(ctx, 100)
	must(t, err)
	if ch == nil || ch.N != 100 {
		t.Fatalf("first chunk: %+v", ch)
	}
	done := make(chan error, 1)
	go func() { done <- writeSequence(c, p, cols, 5000, 1000) }()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(3 * time.Second):
		t.Fatal("a writer waited for an open scan")
	}
	if !checkpoint(t, c) {
		t.Fatal("the open scan holds no snapshot")
	}
	rest := 0
	for {
		ch, err := cur.Next(ctx, 1024)
		must(t, err)
		if ch == nil {
			break
		}
		rest += ch.N
	}
	if rest != 4900 {
		t.Fatalf("the scan read %d more rows, want its snapshot's 4900", rest)
	}
	if checkpoint(t, c) {
		t.Fatal("a finished scan still holds its snapshot")
	}
	must(t, writeSequence(c, p, cols, 6000, 10))
	cur, err = c.ScanRows(ctx, p, cols, catalogs.ScanSpec{})
	must(t, err)
	if _, err := cur.Next(ctx, 10); err != nil {
		t.Fatal(err)
	}
	must(t, cur.Close())
	must(t, cur.Close())
	if checkpoint(t, c) {
		t.Fatal("a closed scan still holds its snapshot")
	}
}

// TestScanCancel: a cancelled context ends a scan with its error, during a
// chunk as well as between chunks.
func TestScanCancel(t *testing.T) {
	c, p := scanTable(t)
	cols := createScanTable(t, c, p)
	must(t, writeSequence(c, p, cols, 0, 200_000))
	cctx, cancel := context.WithCancel(ctx)
	cur, err := c.ScanRows(cctx, p, cols, catalogs.ScanSpec{})
	must(t, err)
	defer cur.Close()
	if _, err := cur.Next(cctx, 10); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := cur.Next(cctx, 10); !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: %v", err)
	}

	// A filter no row passes makes one chunk step through the whole table;
	// cancelling interrupts it.
	cctx, cancel = context.WithCancel(ctx)
	cur2, err := c.ScanRows(cctx, p, cols, catalogs.ScanSpec{Filters: []catalogs.RowFilter{{Column: 2, Op: catalogs.FilterEq, Value: "none"}}})
	must(t, err)
	defer cur2.Close()
	for round := 0; ; round++ {
		time.AfterFunc(time.Millisecond, cancel)
		_, err := cur2.Next(cctx, 10)
		if errors.Is(err, context.Canceled) {
			break
		}
		must(t, err)
		if round > 0 {
			t.Fatal("the scan finished although it was cancelled")
		}
		break
	}
	// The pool goes on serving scans afterwards.
	cur3, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{Columns: []int{0}, Filters: []catalogs.RowFilter{{Column: 0, Op: catalogs.FilterLt, Value: int64(3)}}})
	must(t, err)
	if got := scanAll(t, cur3, cols[:1]); strings.Join(got, "") != "[0][1][2]" {
		t.Fatalf("scan after a cancelled one: %q", got)
	}
}

// TestScanWhileAnotherProcessWrites: scans in this process while another
// process appends rows in transactions of 1,000 never fail and always see
// whole transactions, more and more of them.
func TestScanWhileAnotherProcessWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	c, p := scanTable(t)
	cols := createScanTable(t, c, p)
	cmd := child(t, c.store.path, "rowwriter", "EDDY_OPS=200")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	must(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	last, scans := 0, 0
	for running := true; running; {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("writer failed: %v\n%s", err, out.String())
			}
			running = false
		default:
		}
		cur, err := c.ScanRows(ctx, p, cols, catalogs.ScanSpec{Columns: []int{0}})
		must(t, err)
		n := 0
		for {
			ch, err := cur.Next(ctx, 1024)
			if err != nil {
				t.Fatalf("scan %d: %v", scans, err)
			}
			if ch == nil {
				break
			}
			n += ch.N
		}
		scans++
		if n%1000 != 0 || n < last {
			t.Fatalf("scan %d saw %d rows after %d", scans, n, last)
		}
		last = n
	}
	if result(t, []byte(out.String())) != "ok" || last != 200_000 {
		t.Fatalf("after the writer: %d rows, output %s", last, out.String())
	}
	t.Logf("%d scans during the writes", scans)
}
