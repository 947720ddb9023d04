package exec

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// TestJoinColumnUse: an aggregate over a join reads one column of it; the
// join learns that, still reads what its keys and condition need, and a
// projection through a sub-query or a node the walk does not know reads
// everything.
func TestJoinColumnUse(t *testing.T) {
	l, r := joinInputs()
	ls := l.Schema()
	cond := call("=", boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT})
	j := plan.NewJoin(plan.InnerJoin, l, r, cond)
	js := j.Schema()
	agg := &plan.Aggregate{Input: j, Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("MAX", strT, false, col(js, 3))}}
	use := joinColumnUse(agg)
	if got := use[j]; len(got) != 4 || got[0] || got[1] || got[2] || !got[3] {
		t.Fatalf("columns read of the join: %v, want [false false false true]", got)
	}
	// Read under a filter on column 1 too.
	f := &plan.Aggregate{Input: &plan.Filter{Input: j, Cond: call("<>", boolT, col(js, 1), lit("la", strT))},
		Aggs: []plan.AggCall{aggCall("COUNT", bigT, false)}}
	if got := joinColumnUse(f)[j]; len(got) != 4 || got[0] || !got[1] || got[2] || got[3] {
		t.Fatalf("columns read under the filter: %v, want [false true false false]", got)
	}
	// A sub-query in a projection may read the row by position.
	sub := &plan.Project{Input: j, Exprs: []plan.Expr{&plan.SubQuery{T: intT}}, Names: []string{"x"}}
	if got, ok := joinColumnUse(sub)[j]; ok {
		t.Fatalf("columns read under a sub-query: %v, want all", got)
	}
	// The join's own inputs: the join over the join reads its keys.
	outer := plan.NewJoin(plan.InnerJoin, j, r, call("=", boolT, col(js, 2), &plan.ColumnRef{Index: 4, T: intT}))
	top := &plan.Aggregate{Input: outer, Aggs: []plan.AggCall{aggCall("COUNT", bigT, false)}}
	use = joinColumnUse(top)
	if got := use[j]; len(got) != 4 || got[0] || got[1] || !got[2] || got[3] {
		t.Fatalf("columns read of the inner join: %v, want [false false true false]", got)
	}

	// The answers are the ones of the join read whole.
	full := run(t, j, false)
	counts := map[string]int{}
	maxS := ""
	for _, line := range full {
		counts[line]++
		if s := line[len(line)-2:]; s > maxS {
			maxS = s
		}
	}
	for _, p := range []int{1, 4} {
		got, _ := runOpts(t, agg, Options{Parallelism: p})
		want := []string{strconv.Itoa(len(full)) + "|" + maxS}
		sameLines(t, "aggregate over the join", got, want)
		proj := &plan.Project{Input: j, Exprs: []plan.Expr{col(js, 3)}, Names: []string{"s"}}
		rows, _ := runOpts(t, proj, Options{Parallelism: p})
		if len(rows) != len(full) {
			t.Fatalf("projection of the join: %d rows, want %d", len(rows), len(full))
		}
	}
}

// TestBeatCut: the Top-N's filter against the cut row agrees with the
// row comparison, for integer and floating point first keys with ties,
// NaNs, infinities and NULLs, both directions.
func TestBeatCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dblT := types.New(types.Double)
	floats := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1.5, -2}
	for round := range 200 {
		n := 1 + rng.IntN(300)
		first := vector.New(bigT, n)
		if round%2 == 1 {
			first = vector.New(dblT, n)
		}
		second := vector.New(bigT, n)
		for range n {
			if first.Class == vector.Int {
				first.Append(int64(rng.IntN(5)))
			} else {
				first.Append(floats[rng.IntN(len(floats))])
			}
			if rng.IntN(10) == 0 && round%4 >= 2 {
				second.AppendNull()
			} else {
				second.Append(int64(rng.IntN(3)))
			}
		}
		if round%8 == 7 {
			first.SetNull(rng.IntN(n))
		}
		keys := []plan.SortKey{{Desc: round%3 == 0, NullsFirst: round%5 == 0}, {Desc: round%7 == 0}}
		cols := []*vector.Vec{first, second}
		c := rng.IntN(n)
		cut := []*vector.Vec{first.Gather([]int{c}), second.Gather([]int{c})}
		var want []int
		for i := range n {
			if compareKeyRows(keys, cols, i, cut, 0) < 0 {
				want = append(want, i)
			}
		}
		got := beatCut(keys, cols, n, cut, nil)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d rows beat the cut, want %d", round, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("round %d: row %d is %d, want %d", round, i, got[i], want[i])
			}
		}
	}
}

// TestJoinUniqueDenseKeys: a build side whose integer keys are all
// distinct (the probe's no-chain loop) joins as the nested loop over the
// same condition does, keys missing on either side and out of the
// build's range included.
func TestJoinUniqueDenseKeys(t *testing.T) {
	var lrows, rrows [][]any
	for i := range 3000 {
		lrows = append(lrows, []any{int32(i%1500 - 200), "l"})
	}
	for i := range 1000 {
		rrows = append(rrows, []any{int32(i * 7 % 1000), "r" + strconv.Itoa(i)})
	}
	l, r := values(lrows...), values(rrows...)
	ls := l.Schema()
	eq := call("=", boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT})
	loop := call("NOT", boolT, call("<>", boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT}))
	for _, kind := range []plan.JoinKind{plan.InnerJoin, plan.LeftJoin, plan.SemiJoin, plan.AntiJoin} {
		hashed, op := runOpts(t, plan.NewJoin(kind, l, r, eq), Options{})
		if j := op.(*joinOp); j.dense == nil || !j.unique {
			t.Fatalf("%s: the unique dense table was not used", kind)
		}
		nested, _ := runOpts(t, plan.NewJoin(kind, l, r, loop), Options{})
		sort.Strings(hashed)
		sort.Strings(nested)
		if len(hashed) < 1000 {
			t.Fatalf("%s: %d rows", kind, len(hashed))
		}
		sameLines(t, kind.String(), hashed, nested)
	}
}

// TestJoinColumnUseSeveralRoots: one builder asked for two plans over
// the same join (the sinks of a statement set) gives the second plan the
// columns it reads, though the first read others.
func TestJoinColumnUseSeveralRoots(t *testing.T) {
	l, r := joinInputs()
	ls := l.Schema()
	j := plan.NewJoin(plan.InnerJoin, l, r, call("=", boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT}))
	js := j.Schema()
	first := &plan.Aggregate{Input: j, Aggs: []plan.AggCall{aggCall("COUNT", bigT, false)}}
	second := &plan.Project{Input: j, Exprs: []plan.Expr{col(js, 1), col(js, 3)}, Names: []string{"a", "b"}}
	want := run(t, second, false)
	b := NewBuilder(Options{})
	op1, err := b.Build(first)
	if err != nil {
		t.Fatal(err)
	}
	defer op1.Close()
	op2, err := b.Build(second)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Drain(context.Background(), op2, second.Schema().Types())
	if err != nil {
		t.Fatal(err)
	}
	op2.Close()
	if got.N != len(want) {
		t.Fatalf("%d rows, want %d", got.N, len(want))
	}
	for i := range got.N {
		if g := got.Cols[0].Get(i).(string) + "|" + got.Cols[1].Get(i).(string); g != want[i] {
			t.Fatalf("row %d: %s, want %s", i, g, want[i])
		}
	}
}
