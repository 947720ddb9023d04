package exec

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"

	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

var (
	intT  = types.New(types.Int)
	strT  = types.NewString()
	boolT = types.New(types.Boolean)
	bigT  = types.New(types.BigInt).WithNullable(false)
)

func lit(v any, t *types.Type) *plan.Literal { return &plan.Literal{Value: v, T: t} }

func col(s plan.Schema, i int) *plan.ColumnRef { return s.Ref(i) }

func call(name string, t *types.Type, args ...plan.Expr) *plan.Call {
	return &plan.Call{Name: name, Args: args, T: t}
}

// values builds a VALUES table of (INT, STRING) rows; nil is NULL.
func values(rows ...[]any) *plan.Values {
	v := &plan.Values{Cols: plan.Schema{{Name: "id", Type: intT}, {Name: "s", Type: strT}}}
	for _, r := range rows {
		v.Rows = append(v.Rows, []plan.Expr{lit(r[0], intT), lit(r[1], strT)})
	}
	return v
}

// run executes a plan and prints its rows as "kind|v1|v2" lines.
func run(t *testing.T, n plan.Node, streaming bool) []string {
	t.Helper()
	out, err := runErr(n, streaming)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, plan.Format(n))
	}
	return out
}

func runErr(n plan.Node, streaming bool) ([]string, error) {
	b := NewBuilder(Options{Streaming: streaming})
	op, err := b.Build(n)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	ts := n.Schema().Types()
	var out []string
	for {
		bt, err := op.Next(context.Background())
		if err != nil {
			return nil, err
		}
		if bt == nil {
			return out, nil
		}
		for i := range bt.N {
			parts := []string{}
			if streaming {
				parts = append(parts, bt.Kind(i).String())
			}
			for c, v := range bt.Cols {
				parts = append(parts, types.ValueString(v.Get(i), ts[c]))
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
}

func check(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestProjectFilter(t *testing.T) {
	v := values([]any{int32(1), "Hello World"}, []any{int32(2), "Hi"}, []any{nil, "x"}, []any{int32(2147483647), nil})
	s := v.Schema()
	f := &plan.Filter{Input: v, Cond: call(">=", boolT, col(s, 0), lit(int32(2), intT))}
	p := &plan.Project{Input: f, Exprs: []plan.Expr{
		call("+", intT, col(s, 0), lit(int32(1), intT)),
		call("UPPER", strT, col(s, 1)),
		call("IS NULL", boolT, col(s, 1)),
	}, Names: []string{"a", "b", "c"}}
	// INT arithmetic wraps as Java's does; NULL rows fail the filter.
	check(t, run(t, p, false), "3|HI|FALSE", "-2147483648|NULL|TRUE")
}

func TestDivisionByZeroAndShortCircuit(t *testing.T) {
	v := values([]any{int32(0), "a"}, []any{int32(5), "b"})
	s := v.Schema()
	div := call("/", intT, lit(int32(10), intT), col(s, 0))
	_, err := runErr(&plan.Project{Input: v, Exprs: []plan.Expr{div}, Names: []string{"q"}}, false)
	var ee *functions.EvalError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "/ by zero") {
		t.Fatalf("err = %v, want / by zero", err)
	}
	// x <> 0 AND 10 / x > 1 never divides by zero.
	cond := call("AND", boolT, call("<>", boolT, col(s, 0), lit(int32(0), intT)),
		call(">", boolT, div, lit(int32(1), intT)))
	check(t, run(t, &plan.Filter{Input: v, Cond: cond}, false), "5|b")
}

func TestThreeValuedLogic(t *testing.T) {
	bv := &plan.Values{Cols: plan.Schema{{Name: "a", Type: boolT}, {Name: "b", Type: boolT}}}
	for _, a := range []any{true, false, nil} {
		for _, b := range []any{true, false, nil} {
			bv.Rows = append(bv.Rows, []plan.Expr{lit(a, boolT), lit(b, boolT)})
		}
	}
	s := bv.Schema()
	p := &plan.Project{Input: bv, Exprs: []plan.Expr{
		call("AND", boolT, col(s, 0), col(s, 1)),
		call("OR", boolT, col(s, 0), col(s, 1)),
		call("NOT", boolT, col(s, 0)),
	}, Names: []string{"and", "or", "not"}}
	check(t, run(t, p, false),
		"TRUE|TRUE|FALSE", "FALSE|TRUE|FALSE", "NULL|TRUE|FALSE",
		"FALSE|TRUE|TRUE", "FALSE|FALSE|TRUE", "FALSE|NULL|TRUE",
		"NULL|TRUE|NULL", "FALSE|NULL|NULL", "NULL|NULL|NULL")
}

func TestCastAndTryCast(t *testing.T) {
	v := values([]any{int32(1), "42"}, []any{int32(2), "x"})
	s := v.Schema()
	try := &plan.Project{Input: v, Exprs: []plan.Expr{&plan.Cast{X: col(s, 1), T: intT, Try: true}}, Names: []string{"n"}}
	check(t, run(t, try, false), "42", "NULL")
	bad := &plan.Project{Input: v, Exprs: []plan.Expr{&plan.Cast{X: col(s, 1), T: intT}}, Names: []string{"n"}}
	var ce *types.CastError
	if _, err := runErr(bad, false); !errors.As(err, &ce) {
		t.Fatalf("CAST('x' AS INT) err = %v, want a cast error", err)
	}
}

func aggCall(name string, t *types.Type, distinct bool, args ...plan.Expr) plan.AggCall {
	return plan.AggCall{Name: name, Args: args, Distinct: distinct, Alias: strings.ToLower(name), T: t}
}

// TestStreamingAggregate is select.q's GROUP BY in streaming mode: +I for
// a new group, -U/+U when its result changes.
func TestStreamingAggregate(t *testing.T) {
	v := values([]any{int32(1), "Hello World"}, []any{int32(2), "Hi"}, []any{int32(2), "Hi"})
	s := v.Schema()
	agg := &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 0)}, GroupNames: []string{"id"},
		Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("COUNT", bigT, true, col(s, 1))}}
	check(t, run(t, agg, true), "+I|1|1|1", "+I|2|1|1", "-U|2|1|1", "+U|2|2|1")
	check(t, run(t, agg, false), "1|1|1", "2|2|1")
}

func TestGlobalAggregateAndGroupingSets(t *testing.T) {
	empty := values()
	s := empty.Schema()
	g := &plan.Aggregate{Input: empty, Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("SUM", intT, false, col(s, 0))}}
	check(t, run(t, g, false), "0|NULL")
	check(t, run(t, g, true))

	v := values([]any{int32(1), "a"}, []any{int32(2), "a"}, []any{int32(3), "b"}, []any{nil, "b"})
	s = v.Schema()
	rollup := &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 1)}, GroupNames: []string{"s"},
		GroupingSets: [][]int{{0}, {}},
		Aggs: []plan.AggCall{aggCall("SUM", intT, false, col(s, 0)), aggCall("AVG", intT, false, col(s, 0)),
			aggCall("MAX", intT, false, col(s, 0)), aggCall("COUNT", bigT, false, col(s, 0))}}
	check(t, run(t, rollup, false), "a|3|1|2|2", "NULL|6|2|3|3", "b|3|3|3|1")
}

func TestJoins(t *testing.T) {
	l := values([]any{int32(1), "l1"}, []any{int32(2), "l2"}, []any{nil, "l3"})
	r := values([]any{int32(2), "r2"}, []any{int32(3), "r3"}, []any{int32(2), "r2b"}, []any{nil, "rn"})
	cond := call("=", boolT, &plan.ColumnRef{Index: 0, T: intT}, &plan.ColumnRef{Index: 2, T: intT})
	cases := []struct {
		kind plan.JoinKind
		want []string
	}{
		{plan.InnerJoin, []string{"2|l2|2|r2", "2|l2|2|r2b"}},
		{plan.LeftJoin, []string{"1|l1|NULL|NULL", "2|l2|2|r2", "2|l2|2|r2b", "NULL|l3|NULL|NULL"}},
		{plan.RightJoin, []string{"2|l2|2|r2", "2|l2|2|r2b", "NULL|NULL|3|r3", "NULL|NULL|NULL|rn"}},
		{plan.FullJoin, []string{"1|l1|NULL|NULL", "2|l2|2|r2", "2|l2|2|r2b", "NULL|l3|NULL|NULL", "NULL|NULL|3|r3", "NULL|NULL|NULL|rn"}},
		{plan.SemiJoin, []string{"2|l2"}},
		{plan.AntiJoin, []string{"1|l1", "NULL|l3"}},
	}
	for _, c := range cases {
		j := plan.NewJoin(c.kind, l, r, cond)
		if len(j.EquiKeys) != 1 {
			t.Fatalf("%v: no equi-key", c.kind)
		}
		check(t, run(t, j, false), c.want...)
	}
	// A residual condition on top of the key.
	res := call("<>", boolT, &plan.ColumnRef{Index: 3, T: strT}, lit("r2", strT))
	j := plan.NewJoin(plan.LeftJoin, l, r, call("AND", boolT, cond, res))
	check(t, run(t, j, false), "1|l1|NULL|NULL", "2|l2|2|r2b", "NULL|l3|NULL|NULL")
}

func TestSortLimit(t *testing.T) {
	v := values([]any{int32(3), "c"}, []any{nil, "n"}, []any{int32(1), "a"}, []any{int32(2), "b"}, []any{int32(1), "a2"})
	s := v.Schema()
	asc := &plan.Sort{Input: v, Keys: []plan.SortKey{{Expr: col(s, 0), NullsFirst: true}}}
	check(t, run(t, asc, false), "NULL|n", "1|a", "1|a2", "2|b", "3|c")
	desc := &plan.Limit{Input: &plan.Sort{Input: v, Keys: []plan.SortKey{{Expr: col(s, 0), Desc: true}}}, Offset: 1, Fetch: 2}
	check(t, run(t, desc, false), "2|b", "1|a")
	check(t, run(t, &plan.Limit{Input: v, Fetch: 2}, false), "3|c", "NULL|n")
}

func TestSetOps(t *testing.T) {
	a := values([]any{int32(1), "x"}, []any{int32(1), "x"}, []any{int32(2), "y"}, []any{nil, "z"})
	b := values([]any{int32(1), "x"}, []any{nil, "z"}, []any{int32(3), "w"})
	cols := a.Schema()
	op := func(k plan.SetOpKind, all bool) *plan.SetOp {
		return &plan.SetOp{Kind: k, All: all, Inputs: []plan.Node{a, b}, Cols: cols}
	}
	check(t, run(t, op(plan.Union, true), false), "1|x", "1|x", "2|y", "NULL|z", "1|x", "NULL|z", "3|w")
	check(t, run(t, op(plan.Union, false), false), "1|x", "2|y", "NULL|z", "3|w")
	check(t, run(t, op(plan.Intersect, false), false), "1|x", "NULL|z")
	check(t, run(t, op(plan.Intersect, true), false), "1|x", "NULL|z")
	check(t, run(t, op(plan.Except, false), false), "2|y")
	check(t, run(t, op(plan.Except, true), false), "1|x", "2|y")
}

func TestOverWindow(t *testing.T) {
	v := values([]any{int32(1), "a"}, []any{int32(3), "b"}, []any{int32(2), "a"}, []any{int32(2), "a"})
	s := v.Schema()
	order := []plan.SortKey{{Expr: col(s, 0)}}
	part := []plan.Expr{col(s, 1)}
	o := &plan.Over{Input: v, Calls: []plan.WindowCall{
		{Name: "ROW_NUMBER", Partition: part, Order: order, Alias: "rn", T: bigT},
		{Name: "RANK", Partition: part, Order: order, Alias: "rk", T: bigT},
		{Name: "SUM", Args: []plan.Expr{col(s, 0)}, Partition: part, Order: order, Alias: "running", T: intT},
		{Name: "LAG", Args: []plan.Expr{col(s, 0)}, Partition: part, Order: order, Alias: "prev", T: intT},
	}}
	// RANGE frame by default: peers (the two 2s) share the running sum.
	check(t, run(t, o, false), "1|a|1|1|1|NULL", "2|a|2|2|5|1", "2|a|3|2|5|2", "3|b|1|1|3|NULL")
}

func TestCancellation(t *testing.T) {
	v := values([]any{int32(1), "a"})
	b := NewBuilder(Options{})
	op, err := b.Build(&plan.Filter{Input: v, Cond: lit(true, boolT)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := op.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestWindowTVF(t *testing.T) {
	ts3 := types.NewTimestamp(3)
	v := &plan.Values{Cols: plan.Schema{{Name: "ts", Type: ts3}, {Name: "x", Type: intT}}}
	for _, s := range []string{"2021-04-13 10:00:04", "2021-04-13 10:00:05", "2021-04-13 10:00:12"} {
		tm, _ := types.ParseTimestamp(s)
		v.Rows = append(v.Rows, []plan.Expr{lit(tm, ts3), lit(int32(1), intT)})
	}
	v.Rows = append(v.Rows, []plan.Expr{lit(nil, ts3), lit(int32(2), intT)})
	cols := append(append(plan.Schema{}, v.Cols...), plan.Column{Name: "window_start", Type: ts3},
		plan.Column{Name: "window_end", Type: ts3}, plan.Column{Name: "window_time", Type: ts3})
	tumble := &plan.WindowTVF{Input: v, Kind: plan.Tumble, TimeCol: 0, Size: 5000, Cols: cols}
	got := run(t, &plan.Project{Input: tumble, Exprs: []plan.Expr{cols.Ref(0), cols.Ref(2), cols.Ref(4)}, Names: []string{"ts", "s", "wt"}}, false)
	check(t, got,
		"2021-04-13 10:00:04.000|2021-04-13 10:00:00.000|2021-04-13 10:00:04.999",
		"2021-04-13 10:00:05.000|2021-04-13 10:00:05.000|2021-04-13 10:00:09.999",
		"2021-04-13 10:00:12.000|2021-04-13 10:00:10.000|2021-04-13 10:00:14.999")
	hop := &plan.WindowTVF{Input: v, Kind: plan.Hop, TimeCol: 0, Size: 10000, Slide: 5000, Cols: cols}
	got = run(t, &plan.Project{Input: hop, Exprs: []plan.Expr{cols.Ref(2), cols.Ref(3)}, Names: []string{"s", "e"}}, false)
	check(t, got,
		"2021-04-13 09:59:55.000|2021-04-13 10:00:05.000", "2021-04-13 10:00:00.000|2021-04-13 10:00:10.000",
		"2021-04-13 10:00:00.000|2021-04-13 10:00:10.000", "2021-04-13 10:00:05.000|2021-04-13 10:00:15.000",
		"2021-04-13 10:00:05.000|2021-04-13 10:00:15.000", "2021-04-13 10:00:10.000|2021-04-13 10:00:20.000")
	cum := &plan.WindowTVF{Input: v, Kind: plan.Cumulate, TimeCol: 0, Size: 10000, Slide: 5000, Cols: cols}
	got = run(t, &plan.Project{Input: cum, Exprs: []plan.Expr{cols.Ref(0), cols.Ref(3)}, Names: []string{"ts", "e"}}, false)
	check(t, got,
		"2021-04-13 10:00:04.000|2021-04-13 10:00:05.000", "2021-04-13 10:00:04.000|2021-04-13 10:00:10.000",
		"2021-04-13 10:00:05.000|2021-04-13 10:00:10.000", "2021-04-13 10:00:12.000|2021-04-13 10:00:15.000",
		"2021-04-13 10:00:12.000|2021-04-13 10:00:20.000")
}

func TestNullSafeJoin(t *testing.T) {
	l := values([]any{int32(1), "l1"}, []any{nil, "ln"})
	r := values([]any{nil, "rn"}, []any{int32(1), "r1"}, []any{nil, "rn2"})
	cond := call("IS NOT DISTINCT FROM", boolT, &plan.ColumnRef{Index: 0, T: intT}, &plan.ColumnRef{Index: 2, T: intT})
	j := plan.NewJoin(plan.InnerJoin, l, r, cond)
	if len(j.EquiKeys) != 1 || !j.EquiKeys[0].NullSafe {
		t.Fatalf("not a null-safe equi-join: %s", j.Describe())
	}
	check(t, run(t, j, false), "1|l1|1|r1", "NULL|ln|NULL|rn", "NULL|ln|NULL|rn2")
	// A string key takes the general hash path.
	sl := values([]any{int32(1), "a"}, []any{int32(2), "b"})
	sr := values([]any{int32(9), "b"}, []any{int32(8), "a"}, []any{int32(7), "b"})
	scond := call("=", boolT, &plan.ColumnRef{Index: 1, T: strT}, &plan.ColumnRef{Index: 3, T: strT})
	check(t, run(t, plan.NewJoin(plan.InnerJoin, sl, sr, scond), false), "1|a|8|a", "2|b|9|b", "2|b|7|b")
}

// TestSortSpills sorts more rows than the budget: the runs on disk and the
// buffer in memory merge into one stable order.
func TestSortSpills(t *testing.T) {
	var rows [][]any
	for i := range 5000 {
		var id any = int32((i * 7919) % 1000)
		if i%97 == 0 {
			id = nil
		}
		rows = append(rows, []any{id, strings.Repeat("x", i%3) + string(rune('a'+i%26))})
	}
	v := values(rows...)
	s := v.Schema()
	sortPlan := &plan.Sort{Input: v, Keys: []plan.SortKey{{Expr: col(s, 0), Desc: true}, {Expr: col(s, 1), NullsFirst: true}}}
	want := run(t, sortPlan, false) // the budget default keeps it in memory
	b := NewBuilder(Options{SortBudget: 700})
	op, err := b.Build(sortPlan)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Drain(context.Background(), op, s.Types())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(op.(*sortOp).runs); n < 5 {
		t.Fatalf("%d runs spilled, want at least 5", n)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	if got.N != len(want) {
		t.Fatalf("rows = %d, want %d", got.N, len(want))
	}
	for i := range got.N {
		line := types.ValueString(got.Cols[0].Get(i), intT) + "|" + types.ValueString(got.Cols[1].Get(i), strT)
		if line != want[i] {
			t.Fatalf("row %d = %s, want %s", i, line, want[i])
		}
	}
}

// TestNestedLoopJoinInSlices joins without an equi-key over more pairs
// than one step takes.
func TestNestedLoopJoinInSlices(t *testing.T) {
	var lrows, rrows [][]any
	for i := range 300 {
		lrows = append(lrows, []any{int32(i), "l"})
	}
	for i := range 400 {
		rrows = append(rrows, []any{int32(i), "r"})
	}
	l, r := values(lrows...), values(rrows...)
	cond := call("<", boolT, &plan.ColumnRef{Index: 0, T: intT}, &plan.ColumnRef{Index: 2, T: intT})
	j := plan.NewJoin(plan.LeftJoin, l, r, cond)
	out := run(t, &plan.Aggregate{Input: j, Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT},
		{Name: "COUNT", Args: []plan.Expr{&plan.ColumnRef{Index: 2, T: intT}}, Alias: "m", T: bigT}}}, false)
	// Each left row i matches the 399-i right rows above it.
	want := 0
	for i := range 300 {
		want += 399 - i
	}
	check(t, out, strconv.Itoa(want)+"|"+strconv.Itoa(want))
}

// TestSetOpWidens unions an INT input with a DOUBLE one: the executor
// casts the INT rows to the declared DOUBLE column.
func TestSetOpWidens(t *testing.T) {
	a := values([]any{int32(1), "a"})
	dbl := types.New(types.Double)
	b := &plan.Values{Cols: plan.Schema{{Name: "id", Type: dbl}, {Name: "s", Type: strT}},
		Rows: [][]plan.Expr{{lit(1.5, dbl), lit("b", strT)}, {lit(1.0, dbl), lit("a", strT)}}}
	cols := plan.Schema{{Name: "id", Type: dbl}, {Name: "s", Type: strT}}
	check(t, run(t, &plan.SetOp{Kind: plan.Union, Inputs: []plan.Node{a, b}, Cols: cols}, false), "1.0|a", "1.5|b")
	check(t, run(t, &plan.SetOp{Kind: plan.Except, Inputs: []plan.Node{b, a}, Cols: cols}, false), "1.5|b")
}

// TestAggregateSpills aggregates more groups than the budget: rows of the
// groups beyond it go to partition files and give the same groups.
func TestAggregateSpills(t *testing.T) {
	var rows [][]any
	for i := range 3000 {
		var id any = int32((i * 37) % 200)
		if i%101 == 0 {
			id = nil
		}
		rows = append(rows, []any{id, string(rune('a' + i%5))})
	}
	v := values(rows...)
	s := v.Schema()
	for _, key := range []plan.Expr{col(s, 0), col(s, 1), call("||", strT, col(s, 1), &plan.Cast{X: col(s, 0), T: strT})} {
		agg := &plan.Aggregate{Input: v, Group: []plan.Expr{key}, GroupNames: []string{"k"},
			Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("SUM", intT, false, col(s, 0)),
				aggCall("COUNT", bigT, true, col(s, 1)), aggCall("MAX", strT, false, col(s, 1))}}
		want := run(t, agg, false)
		b := NewBuilder(Options{AggBudget: 3})
		op, err := b.Build(agg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Drain(context.Background(), op, agg.Schema().Types())
		if err != nil {
			t.Fatal(err)
		}
		if op.(*aggOp).spilled == 0 {
			t.Fatalf("%s: the aggregation did not spill", key)
		}
		op.Close()
		var lines []string
		for i := range got.N {
			var cells []string
			for c, vec := range got.Cols {
				cells = append(cells, types.ValueString(vec.Get(i), agg.Schema()[c].Type))
			}
			lines = append(lines, strings.Join(cells, "|"))
		}
		sort.Strings(lines)
		sort.Strings(want)
		check(t, lines, want...)
	}
}
