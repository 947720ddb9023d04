package opt

import (
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// TestPassesKeepSharedPlans optimizes a plan of 40 unions, each reading
// the one below twice (2^40 paths, 82 distinct nodes), in both modes: the
// passes rewrite each shared node once and keep it shared.
func TestPassesKeepSharedPlans(t *testing.T) {
	intT := types.New(types.Int).WithNullable(false)
	cols := plan.Schema{{Name: "x", Type: intT}}
	var n plan.Node = &plan.Values{Cols: cols, Rows: [][]plan.Expr{{&plan.Literal{Value: int32(1), T: intT}}}}
	for range 40 {
		p := &plan.Project{Input: n, Exprs: []plan.Expr{&plan.ColumnRef{Index: 0, Name: "x", T: intT}}, Names: []string{"x"}}
		n = &plan.SetOp{Kind: plan.Union, All: true, Inputs: []plan.Node{p, p}, Cols: cols}
	}
	for _, streaming := range []bool{false, true} {
		out, _, err := Optimize(n, Options{Streaming: streaming})
		if err != nil {
			t.Fatal(err)
		}
		distinct := 0
		plan.WalkOnce(out, func(plan.Node) { distinct++ })
		if distinct > 2*40+1 {
			t.Errorf("streaming %v: %d distinct nodes after optimizing, want at most %d", streaming, distinct, 2*40+1)
		}
	}
}
