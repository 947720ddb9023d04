package exec

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// failTables serves every scan from one shared (Concurrent) reader of
// batches of the rows (k, g) = (i, i % 7) that fails at batch failAt
// (never when negative).
type failTables struct {
	batches int
	failAt  int64
}

var errBoom = errors.New("boom")

type failReader struct {
	t    *failTables
	next atomic.Int64
}

func (r *failReader) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	i := r.next.Add(1) - 1
	if i == r.t.failAt {
		return nil, errBoom
	}
	if i >= int64(r.t.batches) {
		return nil, nil
	}
	bt := vector.NewBatch([]*types.Type{types.New(types.BigInt), types.New(types.BigInt)}, vector.BatchSize)
	for j := range vector.BatchSize {
		k := i*vector.BatchSize + int64(j)
		bt.AppendRow(types.Insert, []any{k, k % 7})
	}
	return bt, nil
}

func (r *failReader) Close() error     { return nil }
func (r *failReader) Concurrent() bool { return true }

func (f *failTables) OpenScan(context.Context, *plan.Scan) (connectors.Reader, error) {
	return &failReader{t: f}, nil
}

func (f *failTables) OpenSink(context.Context, *plan.Sink) (connectors.Writer, error) {
	return nil, errors.New("no sinks")
}

// failScan is a scan of the failTables table name: rows (k, g) of BIGINT.
func failScan(name string) *plan.Scan {
	bigT := types.New(types.BigInt)
	return &plan.Scan{Table: plan.TableID{Catalog: "c", Database: "d", Object: name},
		Physical: plan.Schema{{Name: "k", Type: bigT}, {Name: "g", Type: bigT}}, Bounded: true, Rowtime: -1}
}

// parallelShapes are a plan of each parallel operator over a scan of
// failTables.
func parallelShapes() map[string]plan.Node {
	bigT := types.New(types.BigInt)
	boolT := types.New(types.Boolean)
	dblT := types.New(types.Double)
	s := failScan("t")
	sch := s.Schema()
	filter := &plan.Filter{Input: s, Cond: call(">", boolT, sch.Ref(1), lit(int64(2), bigT))}
	return map[string]plan.Node{
		"gather": filter,
		"two-phase": &plan.Aggregate{Input: filter, Group: []plan.Expr{sch.Ref(1)}, GroupNames: []string{"g"},
			Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT}, {Name: "SUM", Args: []plan.Expr{sch.Ref(0)}, Alias: "s", T: bigT}}},
		"global-two-phase": &plan.Aggregate{Input: filter,
			Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT}, {Name: "SUM", Args: []plan.Expr{sch.Ref(0)}, Alias: "s", T: bigT},
				{Name: "MIN", Args: []plan.Expr{sch.Ref(0)}, Alias: "m", T: bigT}}},
		"serial-aggregate": &plan.Aggregate{Input: filter, Group: []plan.Expr{sch.Ref(1)}, GroupNames: []string{"g"},
			Aggs: []plan.AggCall{{Name: "SUM", Args: []plan.Expr{&plan.Cast{X: sch.Ref(0), T: dblT}}, Alias: "s", T: dblT}}},
		// DOUBLE sums of inexact values, whose rounding depends on the
		// order of each group's rows: a partitioned aggregation.
		"partitioned": &plan.Aggregate{Input: filter, Group: []plan.Expr{call("%", bigT, sch.Ref(0), lit(int64(97), bigT))}, GroupNames: []string{"m"},
			Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT},
				{Name: "SUM", Args: []plan.Expr{call("/", dblT, &plan.Cast{X: sch.Ref(0), T: dblT}, lit(3.0, dblT))}, Alias: "s", T: dblT}}},
		"partitioned-distinct": &plan.Aggregate{Input: filter, Group: []plan.Expr{sch.Ref(1), call("%", bigT, sch.Ref(0), lit(int64(5), bigT))}, GroupNames: []string{"g", "m"},
			Aggs: []plan.AggCall{{Name: "COUNT", Distinct: true, Args: []plan.Expr{call("%", bigT, sch.Ref(0), lit(int64(11), bigT))}, Alias: "d", T: bigT},
				{Name: "SUM", Args: []plan.Expr{call("/", dblT, &plan.Cast{X: sch.Ref(0), T: dblT}, lit(7.0, dblT))}, Alias: "s", T: dblT}}},
		"join": plan.NewJoin(plan.LeftJoin, filter, failScan("u"), call("=", boolT, sch.Ref(0), &plan.ColumnRef{Index: 2, T: bigT})),
		"sort": &plan.Sort{Input: filter, Keys: []plan.SortKey{{Expr: sch.Ref(1), Desc: true}}},
	}
}

// TestParallelMatchesSerialShapes runs each parallel operator at
// parallelism 1 and 4 and compares the rows in order.
func TestParallelMatchesSerialShapes(t *testing.T) {
	for name, n := range parallelShapes() {
		f := &failTables{batches: 40, failAt: -1}
		want, _ := runOpts(t, n, Options{Tables: f, Parallelism: 1})
		got, _ := runOpts(t, n, Options{Tables: f, Parallelism: 4})
		if len(want) == 0 {
			t.Errorf("%s: no rows", name)
		}
		sameLines(t, name, got, want)
	}
}

// TestPartitionedKeepsOrder: a partitioned aggregation gives the groups
// in the serial order (of their first rows), with the same sums.
func TestPartitionedKeepsOrder(t *testing.T) {
	ordered := func(n plan.Node, p int) []string {
		op, err := NewBuilder(Options{Tables: &failTables{batches: 40, failAt: -1}, Parallelism: p}).Build(n)
		if err != nil {
			t.Fatal(err)
		}
		defer op.Close()
		if _, ok := op.(*partAggOp); !ok && p >= minPartitioned {
			t.Fatalf("parallelism %d: %T, want a partitioned aggregation", p, op)
		}
		return drainLines(t, op, n.Schema().Types())
	}
	for _, name := range []string{"partitioned", "partitioned-distinct"} {
		n := parallelShapes()[name]
		want := ordered(n, 1)
		for _, p := range []int{minPartitioned, minPartitioned + 1, 2 * minPartitioned} {
			sameLines(t, name, ordered(n, p), want)
		}
	}
}

// TestPartitionedSpillMatchesSerial: owners of a partitioned
// aggregation that spill past their budget give the serial groups and
// sums (the order of spilled groups is not the serial one: compared
// sorted).
func TestPartitionedSpillMatchesSerial(t *testing.T) {
	n := parallelShapes()["partitioned"]
	f := &failTables{batches: 40, failAt: -1}
	want, _ := runOpts(t, n, Options{Tables: f, Parallelism: 1})
	for _, p := range []int{minPartitioned, minPartitioned + 2} {
		got, _ := runOpts(t, n, Options{Tables: f, Parallelism: p, AggBudget: 5})
		slices.Sort(got)
		w := slices.Clone(want)
		slices.Sort(w)
		sameLines(t, "spilled", got, w)
	}
}

// TestParallelWorkerError checks that an error of the shared reader in
// one worker fails the statement with it, and that every worker is gone
// once the operator is closed, also when the statement is cancelled.
func TestParallelWorkerError(t *testing.T) {
	before := runtime.NumGoroutine()
	for name, n := range parallelShapes() {
		f := &failTables{batches: 40, failAt: 23}
		op, err := NewBuilder(Options{Tables: f, Parallelism: 4}).Build(n)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Drain(context.Background(), op, n.Schema().Types())
		if !errors.Is(err, errBoom) {
			t.Errorf("%s: error %v, want %v", name, err, errBoom)
		}
		op.Close()

		ctx, cancel := context.WithCancel(context.Background())
		f = &failTables{batches: 4000, failAt: -1}
		op, err = NewBuilder(Options{Tables: f, Parallelism: 4}).Build(n)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Drain(ctx, op, n.Schema().Types())
			done <- err
		}()
		time.Sleep(20 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "canceled") {
				t.Errorf("%s: cancelled: %v", name, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: cancellation did not stop the workers", name)
		}
		op.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after closing, %d before", n, before)
	}
}

// TestSortGroupsMatchesSerial: window partitions sorted on several
// goroutines (many groups, and one group holding most rows, cut into
// runs and merged) come out as the serial sort leaves them.
func TestSortGroupsMatchesSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	keys := make([]int, 100_000)
	for i := range keys {
		keys[i] = r.IntN(500)
	}
	cmp := func(x, y int) int {
		if c := keys[x] - keys[y]; c != 0 {
			return c
		}
		return x - y
	}
	for _, sizes := range [][]int{{100_000}, {90_000, 5_000, 5_000}, slices.Repeat([]int{1000}, 100)} {
		var serial, par [][]int
		lo := 0
		for _, n := range sizes {
			g := r.Perm(n)
			for i := range g {
				g[i] += lo
			}
			serial = append(serial, slices.Clone(g))
			par = append(par, g)
			lo += n
		}
		if err := sortGroups(context.Background(), serial, cmp, nil, 1); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 3, 4} {
			if i := sortedLike(t, par, serial, cmp, nil, w); i >= 0 {
				t.Fatalf("groups %v, %d workers: group %d differs from the serial sort", sizes, w, i)
			}
		}
	}
}

// TestLeadKeySortsAsComparator: groups sorted with their lead key beside
// each row come out as sorted by the window's comparator alone, for
// integer and double keys, ascending and descending, with ties (the next
// key and the position decide), negative values, both zeros, infinities
// and NaNs; each row's key orders as vector.CompareFloat or the integers.
func TestLeadKeySortsAsComparator(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	const n = 5000
	specials := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -1.5, 1.5, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	floats, ints, second := make([]float64, n), make([]int64, n), make([]int64, n)
	for i := range n {
		if i%7 == 0 {
			floats[i] = specials[r.IntN(len(specials))]
		} else {
			floats[i] = float64(r.IntN(200)-100) / 4
		}
		ints[i] = int64(r.IntN(300) - 150)
		if i%11 == 0 {
			ints[i] = []int64{math.MinInt64, math.MaxInt64, 0, -1}[r.IntN(4)]
		}
		second[i] = int64(r.IntN(3))
	}
	for _, lead := range []*vector.Vec{
		{T: types.New(types.Double), Class: vector.Float, Len: n, Floats: floats},
		{T: types.New(types.BigInt), Class: vector.Int, Len: n, Ints: ints},
	} {
		for _, desc := range []bool{false, true} {
			keys := []plan.SortKey{{Desc: desc}, {}}
			cols := []*vector.Vec{lead, {T: types.New(types.BigInt), Class: vector.Int, Len: n, Ints: second}}
			rows := rowComparator(keys, cols)
			cmp := func(x, y int) int {
				if c := rows(x, y); c != 0 {
					return c
				}
				return x - y
			}
			lk := leadKeyOf(keys, cols)
			if lk == nil {
				t.Fatalf("%v key: no lead key", lead.Class)
			}
			for range 20_000 {
				x, y := r.IntN(n), r.IntN(n)
				want := rowComparator(keys[:1], cols[:1])(x, y)
				kx, ky := lk.key(x), lk.key(y)
				got := 0
				if kx < ky {
					got = -1
				} else if kx > ky {
					got = 1
				}
				if got != want {
					t.Fatalf("%v key, desc %v: rows %d and %d (%v, %v) order %d by key, %d by comparator", lead.Class, desc, x, y, floats[x], floats[y], got, want)
				}
			}
			var plain, led [][]int
			for lo := 0; lo < n; lo += 1000 {
				g := r.Perm(1000)
				for i := range g {
					g[i] += lo
				}
				plain, led = append(plain, slices.Clone(g)), append(led, g)
			}
			if err := sortGroups(context.Background(), plain, cmp, nil, 1); err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{1, 2} {
				if i := sortedLike(t, led, plain, cmp, lk, w); i >= 0 {
					t.Fatalf("%v key, desc %v, %d workers: group %d differs from the comparator's sort", lead.Class, desc, w, i)
				}
			}
		}
	}
}

// sortedLike sorts copies of groups with sortGroups (lead, workers) and
// returns the first group that differs from want's, or -1.
func sortedLike(t *testing.T, groups, want [][]int, cmp func(x, y int) int, lead *leadKey, workers int) int {
	t.Helper()
	got := make([][]int, len(groups))
	for i := range groups {
		got[i] = slices.Clone(groups[i])
	}
	if err := sortGroups(context.Background(), got, cmp, lead, workers); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !slices.Equal(got[i], want[i]) {
			return i
		}
	}
	return -1
}
