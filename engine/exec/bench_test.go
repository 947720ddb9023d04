package exec

import (
	"context"
	"strconv"
	"testing"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// memTables serves scans of managed tables held in a connectors memory
// store.
type memTables struct {
	c      *connectors.Connectors
	tables map[plan.TableID]*connectors.Table
}

func (m *memTables) OpenScan(ctx context.Context, s *plan.Scan) (connectors.Reader, error) {
	return m.c.OpenReader(ctx, m.tables[s.Table])
}

func (m *memTables) OpenSink(ctx context.Context, s *plan.Sink) (connectors.Writer, error) {
	return m.c.OpenWriter(ctx, m.tables[s.Table], connectors.WriteSpec{Overwrite: s.Overwrite})
}

// benchTable fills a managed table of n rows (k BIGINT, g INT, v DOUBLE,
// s STRING) where g takes groups distinct values, and returns its scan.
func benchTable(b *testing.B, m *memTables, name string, n, groups int) *plan.Scan {
	b.Helper()
	cols := []connectors.Column{
		{Name: "k", Type: types.New(types.BigInt)},
		{Name: "g", Type: types.New(types.Int)},
		{Name: "v", Type: types.New(types.Double)},
		{Name: "s", Type: types.NewString()},
	}
	t := &connectors.Table{Name: catalogs.NewIdentifier("c", "d", name), Options: map[string]string{}, Columns: cols, Temporary: true}
	id := plan.TableID{Catalog: "c", Database: "d", Object: name}
	m.tables[id] = t
	w, _ := m.c.OpenWriter(context.Background(), t, connectors.WriteSpec{})
	ts := t.Types()
	for start := 0; start < n; start += vector.BatchSize {
		bt := vector.NewBatch(ts, vector.BatchSize)
		for i := start; i < min(n, start+vector.BatchSize); i++ {
			bt.Cols[0].Ints = append(bt.Cols[0].Ints, int64(i))
			bt.Cols[1].Ints = append(bt.Cols[1].Ints, int64((i*7919)%groups))
			bt.Cols[2].Floats = append(bt.Cols[2].Floats, float64(i%1000)/10)
			bt.Cols[3].Strs = append(bt.Cols[3].Strs, "key-"+strconv.Itoa((i*7919)%groups))
			for _, c := range bt.Cols {
				c.Len++
			}
			bt.N++
		}
		if err := w.Write(context.Background(), bt); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Commit(context.Background()); err != nil {
		b.Fatal(err)
	}
	phys := make(plan.Schema, len(cols))
	for i, c := range cols {
		phys[i] = plan.Column{Name: c.Name, Type: c.Type}
	}
	return &plan.Scan{Table: id, Physical: phys, Bounded: true, Rowtime: -1}
}

func drainCount(b *testing.B, m *memTables, n plan.Node) int {
	b.Helper()
	bld := NewBuilder(Options{Tables: m})
	op, err := bld.Build(n)
	if err != nil {
		b.Fatal(err)
	}
	defer op.Close()
	rows := 0
	for {
		bt, err := op.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if bt == nil {
			return rows
		}
		rows += bt.N
	}
}

const benchRows = 1_000_000

// BenchmarkFilterProject is SELECT k + 1, v * 2 FROM t WHERE g < 500 AND v > 10.
func BenchmarkFilterProject(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	scan := benchTable(b, m, "t", benchRows, 1000)
	s := scan.Schema()
	boolT := types.New(types.Boolean)
	cond := call("AND", boolT,
		call("<", boolT, s.Ref(1), lit(int32(500), types.New(types.Int))),
		call(">", boolT, s.Ref(2), lit(10.0, types.New(types.Double))))
	p := &plan.Project{Input: &plan.Filter{Input: scan, Cond: cond}, Exprs: []plan.Expr{
		call("+", types.New(types.BigInt), s.Ref(0), lit(int64(1), types.New(types.BigInt))),
		call("*", types.New(types.Double), s.Ref(2), lit(2.0, types.New(types.Double))),
	}, Names: []string{"a", "b"}}
	b.ResetTimer()
	for range b.N {
		if drainCount(b, m, p) == 0 {
			b.Fatal("no rows")
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGroupBy100k is SELECT g, COUNT(*), SUM(v) FROM t GROUP BY g with
// 100,000 groups.
func BenchmarkGroupBy100k(b *testing.B) { benchGroupBy(b, 100_000) }

// BenchmarkGroupBy1k is the same with 1,000 groups: the group states stay
// in cache, so the per-row work of the aggregate functions is most of the
// time.
func BenchmarkGroupBy1k(b *testing.B) { benchGroupBy(b, 1000) }

// benchGroupBy is SELECT g, COUNT(*), SUM(v) FROM t GROUP BY g over
// benchRows rows in groups groups.
func benchGroupBy(b *testing.B, groups int) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	scan := benchTable(b, m, "t", benchRows, groups)
	s := scan.Schema()
	agg := &plan.Aggregate{Input: scan, Group: []plan.Expr{s.Ref(1)}, GroupNames: []string{"g"},
		Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT}, {Name: "SUM", Args: []plan.Expr{s.Ref(2)}, Alias: "s", T: types.New(types.Double)}}}
	b.ResetTimer()
	for range b.N {
		if n := drainCount(b, m, agg); n != groups {
			b.Fatalf("groups = %d", n)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGroupBy100kString is SELECT s, COUNT(*), SUM(v), MAX(k) FROM t
// GROUP BY s with 100,000 string groups.
func BenchmarkGroupBy100kString(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	scan := benchTable(b, m, "t", benchRows, 100_000)
	s := scan.Schema()
	agg := &plan.Aggregate{Input: scan, Group: []plan.Expr{s.Ref(3)}, GroupNames: []string{"s"},
		Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT},
			{Name: "SUM", Args: []plan.Expr{s.Ref(2)}, Alias: "s", T: types.New(types.Double)},
			{Name: "MAX", Args: []plan.Expr{s.Ref(0)}, Alias: "m", T: bigT}}}
	b.ResetTimer()
	for range b.N {
		if n := drainCount(b, m, agg); n != 100_000 {
			b.Fatalf("groups = %d", n)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGroupBy2Keys is SELECT g, s, COUNT(*) FROM t GROUP BY g, s with
// 100,000 groups (two key columns, the generic table).
func BenchmarkGroupBy2Keys(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	scan := benchTable(b, m, "t", benchRows, 100_000)
	s := scan.Schema()
	agg := &plan.Aggregate{Input: scan, Group: []plan.Expr{s.Ref(1), s.Ref(3)}, GroupNames: []string{"g", "s"},
		Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT}}}
	b.ResetTimer()
	for range b.N {
		if n := drainCount(b, m, agg); n != 100_000 {
			b.Fatalf("groups = %d", n)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkHashJoinAllMatch joins the 1M-row table on g (100,000 values)
// with a 100k-row one on k: every probe row matches once, as in
// SELECT ... FROM facts JOIN dims ON facts.key = dims.id.
func BenchmarkHashJoinAllMatch(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	big := benchTable(b, m, "big", benchRows, 100_000)
	small := benchTable(b, m, "small", 100_000, 10)
	cond := call("=", types.New(types.Boolean), &plan.ColumnRef{Index: 1, T: types.New(types.Int)},
		&plan.ColumnRef{Index: 4, T: types.New(types.BigInt)})
	j := plan.NewJoin(plan.InnerJoin, big, small, cond)
	b.ResetTimer()
	for range b.N {
		if n := drainCount(b, m, j); n != benchRows {
			b.Fatalf("rows = %d", n)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkHashJoin joins the 1M-row table with a 100k-row one on k.
func BenchmarkHashJoin(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	big := benchTable(b, m, "big", benchRows, 1000)
	small := benchTable(b, m, "small", 100_000, 10)
	cond := call("=", types.New(types.Boolean), &plan.ColumnRef{Index: 0, T: types.New(types.BigInt)},
		&plan.ColumnRef{Index: 4, T: types.New(types.BigInt)})
	j := plan.NewJoin(plan.InnerJoin, big, small, cond)
	b.ResetTimer()
	for range b.N {
		if n := drainCount(b, m, j); n != 100_000 {
			b.Fatalf("rows = %d", n)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkIntTableProbe looks up 1M keys, one in ten present, in a table
// of 100,000 keys.
func BenchmarkIntTableProbe(b *testing.B) {
	t := newIntTableFor(100_000)
	for i := range 100_000 {
		t.put(int64(i)*10, int32(i))
	}
	keys := make([]int64, benchRows)
	for i := range keys {
		keys[i] = int64((i * 7919) % benchRows)
	}
	var sink int32
	for range b.N {
		for _, k := range keys {
			sink += t.get(k)
		}
	}
	if sink == 0 {
		b.Fatal("no key found")
	}
}

// BenchmarkWindowRowNumber is SELECT ..., ROW_NUMBER() OVER (PARTITION BY
// g ORDER BY v, k) FROM t with 1,000 partitions.
func BenchmarkWindowRowNumber(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	scan := benchTable(b, m, "t", benchRows, 1000)
	s := scan.Schema()
	o := &plan.Over{Input: scan, Calls: []plan.WindowCall{{Name: "ROW_NUMBER", Partition: []plan.Expr{s.Ref(1)},
		Order: []plan.SortKey{{Expr: s.Ref(2)}, {Expr: s.Ref(0)}}, Alias: "rn", T: bigT}}}
	b.ResetTimer()
	for range b.N {
		if n := drainCount(b, m, o); n != benchRows {
			b.Fatalf("rows = %d", n)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkParallel runs a scan with a filter and a projection, a GROUP
// BY of 1,000 groups (two-phase; serial over the workers' rows with a
// DOUBLE sum), a hash join (parallel probe) and an
// ORDER BY ... LIMIT 100 (per-worker Top-N) over the 1M-row table at
// eddy.exec.parallelism 1 and 2.
func BenchmarkParallel(b *testing.B) {
	m := &memTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	scan := benchTable(b, m, "t", benchRows, 1000)
	small := benchTable(b, m, "small", 1000, 10)
	s := scan.Schema()
	boolT := types.New(types.Boolean)
	filter := &plan.Project{Input: &plan.Filter{Input: scan, Cond: call("AND", boolT,
		call("<", boolT, s.Ref(1), lit(int32(500), types.New(types.Int))),
		call(">", boolT, s.Ref(2), lit(10.0, types.New(types.Double))))},
		Exprs: []plan.Expr{
			call("+", types.New(types.BigInt), s.Ref(0), lit(int64(1), types.New(types.BigInt))),
			call("*", types.New(types.Double), s.Ref(2), lit(2.0, types.New(types.Double))),
		}, Names: []string{"a", "b"}}
	agg := &plan.Aggregate{Input: scan, Group: []plan.Expr{s.Ref(1)}, GroupNames: []string{"g"},
		Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT},
			{Name: "SUM", Args: []plan.Expr{s.Ref(0)}, Alias: "s", T: bigT},
			{Name: "MAX", Args: []plan.Expr{s.Ref(3)}, Alias: "m", T: types.NewString()}}}
	aggD := &plan.Aggregate{Input: scan, Group: []plan.Expr{s.Ref(1)}, GroupNames: []string{"g"},
		Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT},
			{Name: "SUM", Args: []plan.Expr{s.Ref(2)}, Alias: "s", T: types.New(types.Double)}}}
	join := plan.NewJoin(plan.InnerJoin, scan, small, call("=", boolT,
		&plan.ColumnRef{Index: 1, T: types.New(types.Int)}, &plan.ColumnRef{Index: 4, T: types.New(types.BigInt)}))
	topN := &plan.Limit{Input: &plan.Sort{Input: scan, Keys: []plan.SortKey{{Expr: s.Ref(2), Desc: true}, {Expr: s.Ref(0)}}},
		Fetch: 100}
	for _, c := range []struct {
		name string
		n    plan.Node
		rows int
	}{{"scan-filter", filter, -1}, {"groupby-1000", agg, 1000}, {"groupby-1000-double", aggD, 1000}, {"join", join, benchRows}, {"topn-100", topN, 100}} {
		for _, p := range []int{1, 2} {
			b.Run(c.name+"/p"+strconv.Itoa(p), func(b *testing.B) {
				for range b.N {
					n := drainOpts(b, c.n, Options{Tables: m, Parallelism: p})
					if c.rows >= 0 && n != c.rows || n == 0 {
						b.Fatalf("rows = %d", n)
					}
				}
				b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

func drainOpts(b *testing.B, n plan.Node, opts Options) int {
	b.Helper()
	op, err := NewBuilder(opts).Build(n)
	if err != nil {
		b.Fatal(err)
	}
	defer op.Close()
	rows := 0
	for {
		bt, err := op.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if bt == nil {
			return rows
		}
		rows += bt.N
	}
}
