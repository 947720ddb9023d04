package exec

import (
	"context"
	"sort"
	"strings"
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// runOpts executes a plan with the given options and returns its rows as
// sorted "v1|v2" lines and the root operator (closed).
func runOpts(t *testing.T, n plan.Node, opts Options) ([]string, Operator) {
	t.Helper()
	op, err := NewBuilder(opts).Build(n)
	if err != nil {
		t.Fatal(err)
	}
	ts := n.Schema().Types()
	got, err := Drain(context.Background(), op, ts)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := range got.N {
		var cells []string
		for c, v := range got.Cols {
			cells = append(cells, types.ValueString(v.Get(i), ts[c]))
		}
		lines = append(lines, strings.Join(cells, "|"))
	}
	sort.Strings(lines)
	return lines, op
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d = %s, want %s", what, i, got[i], want[i])
		}
	}
}

// joinInputs are two inputs with repeated keys, NULL keys and keys found
// on one side only.
func joinInputs() (*plan.Values, *plan.Values) {
	var lrows, rrows [][]any
	for i := range 2000 {
		var k any = int32(i % 700)
		if i%53 == 0 {
			k = nil
		}
		lrows = append(lrows, []any{k, "l" + string(rune('a'+i%7))})
	}
	for i := range 1500 {
		var k any = int32((i*3)%900 + 100)
		if i%61 == 0 {
			k = nil
		}
		rrows = append(rrows, []any{k, "r" + string(rune('a'+i%5))})
	}
	return values(lrows...), values(rrows...)
}

// TestGraceHashJoin joins with a build side over the budget: both inputs
// are partitioned to disk and every join kind gives the rows of the
// in-memory join.
func TestGraceHashJoin(t *testing.T) {
	l, r := joinInputs()
	ls := l.Schema()
	kinds := []plan.JoinKind{plan.InnerJoin, plan.LeftJoin, plan.RightJoin, plan.FullJoin, plan.SemiJoin, plan.AntiJoin}
	conds := map[string]plan.Expr{
		// an integer key (the integer hash table)
		"int key": call("=", boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT}),
		// two keys, one a string, plus a residual condition (the general
		// table)
		"string key and residual": call("AND", boolT,
			call("=", boolT, call("SUBSTRING", strT, col(ls, 1), lit(int32(2), intT)),
				call("SUBSTRING", strT, &plan.ColumnRef{Index: 3, T: strT}, lit(int32(2), intT))),
			call("=", boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT}),
			call("<", boolT, col(ls, 0), lit(int32(600), intT))),
	}
	for name, cond := range conds {
		for _, kind := range kinds {
			j := plan.NewJoin(kind, l, r, cond)
			if len(j.EquiKeys) == 0 {
				t.Fatalf("%s: no equi-key in %s", name, j.Describe())
			}
			want, _ := runOpts(t, j, Options{})
			for _, opts := range []Options{{JoinBudget: 100}, {MemoryBudget: 8 << 10}} {
				got, op := runOpts(t, j, opts)
				jo := op.(*joinOp)
				if jo.grace != nil {
					t.Fatalf("%s %s: the partitions stayed open after Close", name, kind)
				}
				if jo.partitionsJoined != joinPartitions {
					t.Fatalf("%s %s: %d partitions joined, want %d", name, kind, jo.partitionsJoined, joinPartitions)
				}
				sameLines(t, name+" "+kind.String(), got, want)
			}
		}
	}
}

// TestGraceHashJoinTakesSpillPath checks that a small budget partitions
// the inputs and joins every partition.
func TestGraceHashJoinTakesSpillPath(t *testing.T) {
	l, r := joinInputs()
	j := plan.NewJoin(plan.FullJoin, l, r, call("=", boolT, col(l.Schema(), 0), &plan.ColumnRef{Index: 2, T: intT}))
	op, err := NewBuilder(Options{MemoryBudget: 8 << 10}).Build(j)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	if _, err := Drain(context.Background(), op, j.Schema().Types()); err != nil {
		t.Fatal(err)
	}
	if n := op.(*joinOp).partitionsJoined; n != joinPartitions {
		t.Fatalf("%d partitions joined, want %d", n, joinPartitions)
	}
	// With the default budget the same join stays in memory.
	op2, err := NewBuilder(Options{}).Build(j)
	if err != nil {
		t.Fatal(err)
	}
	defer op2.Close()
	if _, err := Drain(context.Background(), op2, j.Schema().Types()); err != nil {
		t.Fatal(err)
	}
	if op2.(*joinOp).partitionsJoined != 0 {
		t.Fatal("the default budget partitioned a small join")
	}
}

// TestByteBudgetSpills sorts and aggregates under a byte budget: the
// sort writes runs, the aggregation spills partitions, and the results
// equal the in-memory ones.
func TestByteBudgetSpills(t *testing.T) {
	var rows [][]any
	for i := range 6000 {
		var id any = int32((i * 7919) % 2500)
		if i%97 == 0 {
			id = nil
		}
		rows = append(rows, []any{id, strings.Repeat("x", i%5) + string(rune('a'+i%26))})
	}
	v := values(rows...)
	s := v.Schema()
	sortPlan := &plan.Sort{Input: v, Keys: []plan.SortKey{{Expr: col(s, 0)}, {Expr: col(s, 1), Desc: true}}}
	want := run(t, sortPlan, false)
	op, err := NewBuilder(Options{MemoryBudget: 32 << 10}).Build(sortPlan)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Drain(context.Background(), op, s.Types())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(op.(*sortOp).runs); n < 3 {
		t.Fatalf("%d sort runs spilled, want at least 3", n)
	}
	op.Close()
	for i := range got.N {
		line := types.ValueString(got.Cols[0].Get(i), intT) + "|" + types.ValueString(got.Cols[1].Get(i), strT)
		if line != want[i] {
			t.Fatalf("sorted row %d = %s, want %s", i, line, want[i])
		}
	}

	agg := &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 0)}, GroupNames: []string{"k"},
		Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("MAX", strT, false, col(s, 1)),
			aggCall("COUNT", bigT, true, col(s, 1))}}
	wantAgg, _ := runOpts(t, agg, Options{})
	aop, err := NewBuilder(Options{MemoryBudget: 16 << 10}).Build(agg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Drain(context.Background(), aop, agg.Schema().Types())
	if err != nil {
		t.Fatal(err)
	}
	if aop.(*aggOp).spilled == 0 {
		t.Fatal("the aggregation did not spill under a 16kb budget")
	}
	aop.Close()
	if out.N != len(wantAgg) {
		t.Fatalf("%d groups, want %d", out.N, len(wantAgg))
	}
	gotAgg, _ := runOpts(t, agg, Options{MemoryBudget: 16 << 10})
	sameLines(t, "aggregate", gotAgg, wantAgg)
}

// TestGraceHashJoinSplitsAgain joins under a budget smaller than one
// partition: the partitions are partitioned again on other hash bits, and
// a single key over the budget (which no split can divide) is built in
// memory at the last level; the rows stay those of the in-memory join.
func TestGraceHashJoinSplitsAgain(t *testing.T) {
	l, r := joinInputs()
	var same [][]any
	for i := range 400 {
		same = append(same, []any{int32(7), "s" + string(rune('a'+i%3))})
	}
	skewed := values(same...)
	for name, right := range map[string]*plan.Values{"spread keys": r, "one key": skewed} {
		for _, kind := range []plan.JoinKind{plan.FullJoin, plan.AntiJoin} {
			j := plan.NewJoin(kind, l, right, call("=", boolT, col(l.Schema(), 0), &plan.ColumnRef{Index: 2, T: intT}))
			want, _ := runOpts(t, j, Options{})
			got, op := runOpts(t, j, Options{MemoryBudget: 2 << 10})
			jo := op.(*joinOp)
			if jo.partitionsSplit == 0 {
				t.Fatalf("%s %s: no partition was split under a 2kb budget", name, kind)
			}
			sameLines(t, name+" "+kind.String(), got, want)
		}
	}
}

// TestAggregatePartitionsSpillAgain aggregates under a budget smaller
// than one spill partition's groups: partitions spill again, one level
// deeper, and the groups are those of the in-memory aggregation.
func TestAggregatePartitionsSpillAgain(t *testing.T) {
	var rows [][]any
	for i := range 12000 {
		rows = append(rows, []any{int32(i % 9000), "v" + string(rune('a'+i%26))})
	}
	v := values(rows...)
	s := v.Schema()
	for _, key := range []plan.Expr{col(s, 0), call("||", strT, col(s, 1), &plan.Cast{X: col(s, 0), T: strT})} {
		agg := &plan.Aggregate{Input: v, Group: []plan.Expr{key}, GroupNames: []string{"k"},
			Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("MIN", strT, false, col(s, 1))}}
		want, _ := runOpts(t, agg, Options{})
		op, err := NewBuilder(Options{MemoryBudget: 64 << 10}).Build(agg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Drain(context.Background(), op, agg.Schema().Types()); err != nil {
			t.Fatal(err)
		}
		ao := op.(*aggOp)
		// Far more rows spilled than the input holds: partitions spilled again.
		if ao.spilled <= int64(len(rows)) {
			t.Fatalf("%s: %d rows spilled, want more than the %d input rows", key, ao.spilled, len(rows))
		}
		op.Close()
		got, _ := runOpts(t, agg, Options{MemoryBudget: 64 << 10})
		sameLines(t, "aggregate by "+key.String(), got, want)
	}
}
