package exec

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// drainLines runs an operator to its end and prints its rows as "v1|v2"
// lines in output order.
func drainLines(t *testing.T, op Operator, ts []*types.Type) []string {
	t.Helper()
	got, err := Drain(context.Background(), op, ts)
	if err != nil {
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
	return lines
}

// runAgg runs an aggregation on the flat path or, with flat false, on the
// per-group path, and fails unless the flat path was taken when asked.
func runAgg(t *testing.T, agg *plan.Aggregate, opts Options, flat bool) ([]string, *aggOp) {
	t.Helper()
	op, err := NewBuilder(opts).Build(agg)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	o := op.(*aggOp)
	if flat && !o.flat {
		t.Fatalf("%s: not run flat", plan.Format(agg))
	}
	if !flat {
		o.flat = false
		o.st = o.newState()
	}
	return drainLines(t, o, agg.Schema().Types()), o
}

// flatInput is 3,000 (INT, STRING) rows over 200 keys, with NULL keys and
// NULL values.
func flatInput() *plan.Values {
	var rows [][]any
	for i := range 3000 {
		var id any = int32((i * 37) % 200)
		if i%101 == 0 {
			id = nil
		}
		var s any = "s" + strconv.Itoa((i*11)%150)
		if i%97 == 0 {
			s = nil
		}
		rows = append(rows, []any{id, s})
	}
	return values(rows...)
}

func flatAggs(s plan.Schema) []plan.AggCall {
	filtered := aggCall("SUM", intT, false, col(s, 0))
	filtered.Alias = "f"
	filtered.Filter = call(">", boolT, col(s, 0), lit(int32(50), intT))
	return []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("COUNT", bigT, false, col(s, 1)),
		aggCall("SUM", intT, false, col(s, 0)), aggCall("AVG", intT, false, col(s, 0)),
		aggCall("MIN", intT, false, col(s, 0)), aggCall("MAX", intT, false, col(s, 0)), filtered,
		aggCall("MIN", strT, false, col(s, 1)), aggCall("MAX", strT, false, col(s, 1))}
}

// TestFlatAggregateMatchesGroupPath checks the flat aggregation (one
// integer key, one string key, two keys, an expression, no key) against
// the per-group path, rows in order of first appearance, NULL keys
// grouped together.
func TestFlatAggregateMatchesGroupPath(t *testing.T) {
	v := flatInput()
	s := v.Schema()
	keys := map[string][]plan.Expr{
		"int":    {col(s, 0)},
		"string": {col(s, 1)},
		"two":    {col(s, 1), col(s, 0)},
		"expr":   {call("||", strT, col(s, 1), &plan.Cast{X: col(s, 0), T: strT})},
		"none":   nil,
	}
	for name, group := range keys {
		agg := &plan.Aggregate{Input: v, Group: group, Aggs: flatAggs(s)}
		for i := range group {
			agg.GroupNames = append(agg.GroupNames, "k"+strconv.Itoa(i))
		}
		got, _ := runAgg(t, agg, Options{}, true)
		want, _ := runAgg(t, agg, Options{}, false)
		if len(got) < 2 && name != "none" {
			t.Fatalf("%s: %d groups", name, len(got))
		}
		sameLines(t, name, got, want)
	}
	nulls := 0
	got, _ := runAgg(t, &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 0)}, GroupNames: []string{"k"}, Aggs: flatAggs(s)}, Options{}, true)
	for _, l := range got {
		if strings.HasPrefix(l, "NULL|") {
			nulls++
		}
	}
	if nulls != 1 || len(got) != 201 {
		t.Fatalf("%d NULL groups among %d, want 1 among 201", nulls, len(got))
	}

	empty := values()
	es := empty.Schema()
	global, _ := runAgg(t, &plan.Aggregate{Input: empty, Aggs: flatAggs(es)}, Options{}, true)
	check(t, global, "0|0|NULL|NULL|NULL|NULL|NULL|NULL|NULL")
	grouped, _ := runAgg(t, &plan.Aggregate{Input: empty, Group: []plan.Expr{col(es, 0)}, GroupNames: []string{"k"}, Aggs: flatAggs(es)}, Options{}, true)
	check(t, grouped)
}

// TestFlatAggregateSpills runs flat aggregations under a group budget:
// rows of groups past it spill to partitions and the result is the same.
func TestFlatAggregateSpills(t *testing.T) {
	v := flatInput()
	s := v.Schema()
	for _, group := range [][]plan.Expr{{col(s, 0)}, {col(s, 1)}, {col(s, 1), col(s, 0)}} {
		agg := &plan.Aggregate{Input: v, Group: group, Aggs: flatAggs(s)}
		for i := range group {
			agg.GroupNames = append(agg.GroupNames, "k"+strconv.Itoa(i))
		}
		want, _ := runOpts(t, agg, Options{})
		got, o := runAgg(t, agg, Options{AggBudget: 7}, true)
		if o.spilled == 0 {
			t.Fatalf("%s: the aggregation did not spill", plan.Format(agg))
		}
		sort.Strings(got)
		sameLines(t, plan.Format(agg), got, want)
	}
}

// TestFlatIntegerKeyTables groups integer keys that stay in a small range
// (the dense array), that start small and then spread (the dense array
// turned into the hash table), and that are spread from the start,
// against the per-group path.
func TestFlatIntegerKeyTables(t *testing.T) {
	inputs := map[string]func(i int) any{
		"dense":  func(i int) any { return int32(i%300 - 100) },
		"spread": func(i int) any { return int32((i % 300) * 1_000_003) },
		"dense then spread": func(i int) any {
			if i < 2500 {
				return int32(i % 50)
			}
			return int32((i % 300) * 1_000_003)
		},
		"growing": func(i int) any { return int32(i / 3) },
		"falling": func(i int) any { return int32(4000 - i/2) },
		"jumping": func(i int) any { return int32(i%100 + (i/700)*(1<<17)) },
	}
	for name, key := range inputs {
		var rows [][]any
		for i := range 5000 {
			k := key(i)
			if i%211 == 0 {
				k = nil
			}
			rows = append(rows, []any{k, "s" + strconv.Itoa(i%7)})
		}
		v := values(rows...)
		s := v.Schema()
		agg := &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 0)}, GroupNames: []string{"k"}, Aggs: flatAggs(s)}
		got, _ := runAgg(t, agg, Options{}, true)
		want, _ := runAgg(t, agg, Options{}, false)
		sameLines(t, name, got, want)
	}
}

// TestFlatOneGroupingSet runs GROUPING SETS ((s)) over the group columns
// s, id: id is NULL in every row and GROUPING tells it is not grouped.
func TestFlatOneGroupingSet(t *testing.T) {
	v := flatInput()
	s := v.Schema()
	agg := &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 1), col(s, 0)}, GroupNames: []string{"s", "id"},
		GroupingSets: [][]int{{0}},
		Aggs:         append(flatAggs(s), aggCall("GROUPING", intT, false, col(s, 1), col(s, 0)), aggCall("GROUP_ID", intT, false))}
	got, _ := runAgg(t, agg, Options{}, true)
	want, _ := runAgg(t, agg, Options{}, false)
	sameLines(t, "one grouping set", got, want)
	if len(got) != 151 || !strings.HasSuffix(got[0], "|1|0") || strings.Split(got[0], "|")[1] != "NULL" {
		t.Fatalf("%d rows, first %s", len(got), got[0])
	}
}

// TestFlatAggregateDenseRuns: integer keys without NULLs take the dense
// array's loop; new keys in the middle of a batch, a key past the array
// (which refits it) and a far key (which moves to the hash table) give
// the per-group path's groups.
func TestFlatAggregateDenseRuns(t *testing.T) {
	var rows [][]any
	for i := range 5000 {
		k := int32(i % 37)
		switch {
		case i == 1500:
			k = 900
		case i == 3000:
			k = 2_000_000_000
		case i > 2000 && i%11 == 0:
			k = int32(40 + i%13)
		}
		rows = append(rows, []any{k, "x"})
	}
	v := values(rows...)
	s := v.Schema()
	agg := &plan.Aggregate{Input: v, Group: []plan.Expr{col(s, 0)}, GroupNames: []string{"k"},
		Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("SUM", intT, false, col(s, 0))}}
	flat, _ := runAgg(t, agg, Options{}, true)
	groups, _ := runAgg(t, agg, Options{}, false)
	if len(flat) != 37+13+2 {
		t.Fatalf("%d groups, want %d", len(flat), 37+13+2)
	}
	if !slices.Equal(flat, groups) {
		t.Fatalf("flat aggregation\n%v\nper-group path\n%v", flat, groups)
	}
}
