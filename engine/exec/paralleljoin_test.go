package exec

import (
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// pipelineJoinShapes are plans with joins inside a parallel pipeline
// over scans of failTables (rows (k, g) = (i, i % 7)).
func pipelineJoinShapes() map[string]plan.Node {
	bigT := types.New(types.BigInt)
	boolT := types.New(types.Boolean)
	s := failScan("t")
	sch := s.Schema()
	filter := &plan.Filter{Input: s, Cond: call(">", boolT, sch.Ref(1), lit(int64(2), bigT))}
	// The build side: the rows whose k is a multiple of 3, keyed by k/3,
	// so that probe keys meet zero, one or several build rows.
	us := failScan("u")
	usch := us.Schema()
	build := &plan.Filter{Input: us, Cond: call("=", boolT, call("%", bigT, usch.Ref(0), lit(int64(3), bigT)), lit(int64(0), bigT))}
	keyed := &plan.Project{Input: build, Exprs: []plan.Expr{call("/", bigT, usch.Ref(0), lit(int64(5), bigT)), usch.Ref(1)}, Names: []string{"bk", "bg"}}
	on := func(l plan.Schema, li int) plan.Expr {
		return call("=", boolT, l.Ref(li), &plan.ColumnRef{Index: len(l), T: bigT})
	}
	inner := plan.NewJoin(plan.InnerJoin, filter, keyed, on(sch, 0))
	is := inner.Schema()
	twice := plan.NewJoin(plan.LeftJoin, inner, keyed, on(is, 3))
	agg := func(in plan.Node, group []plan.Expr, sum plan.Expr) *plan.Aggregate {
		a := &plan.Aggregate{Input: in, Group: group,
			Aggs: []plan.AggCall{{Name: "COUNT", Alias: "c", T: bigT}, {Name: "SUM", Args: []plan.Expr{sum}, Alias: "s", T: bigT}}}
		for range group {
			a.GroupNames = append(a.GroupNames, "g")
		}
		return a
	}
	return map[string]plan.Node{
		"inner":            inner,
		"left of inner":    twice,
		"semi":             plan.NewJoin(plan.SemiJoin, filter, keyed, on(sch, 0)),
		"anti":             plan.NewJoin(plan.AntiJoin, filter, keyed, on(sch, 0)),
		"right over inner": plan.NewJoin(plan.RightJoin, inner, keyed, on(is, 1)),
		"global aggregate": agg(inner, nil, is.Ref(3)),
		"grouped":          agg(twice, []plan.Expr{is.Ref(1)}, is.Ref(0)),
		"sort":             &plan.Sort{Input: twice, Keys: []plan.SortKey{{Expr: is.Ref(3), Desc: true}}},
	}
}

// TestPipelineJoinsMatchSerial runs joins inside parallel pipelines at
// parallelism 1 and 4, with the build in memory and over the join
// budget (the pipeline then runs on one worker, partitioned), and
// compares the rows in order.
func TestPipelineJoinsMatchSerial(t *testing.T) {
	for name, n := range pipelineJoinShapes() {
		for _, budget := range []int{0, 50} {
			f := &failTables{batches: 30, failAt: -1}
			want, _ := runOpts(t, n, Options{Tables: f, Parallelism: 1, JoinBudget: budget})
			got, _ := runOpts(t, n, Options{Tables: f, Parallelism: 4, JoinBudget: budget})
			if len(want) == 0 {
				t.Errorf("%s: no rows", name)
			}
			sameLines(t, name, got, want)
		}
	}
	b := NewBuilder(Options{Tables: &failTables{batches: 1, failAt: -1}, Parallelism: 4})
	if _, _, ok := b.parallelPipeline(pipelineJoinShapes()["left of inner"]); !ok {
		t.Fatal("a left join over an inner join is no pipeline")
	}
	if _, _, ok := b.parallelPipeline(pipelineJoinShapes()["right over inner"]); ok {
		t.Fatal("a right join is a pipeline")
	}
}
