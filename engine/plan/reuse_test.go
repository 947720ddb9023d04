package plan

import (
	"strings"
	"testing"
)

// chain returns a plan of levels unions, each reading the one below twice:
// a tree of 2^levels leaves that shares every level.
func chain(levels int) Node {
	var n Node = &Values{Cols: Schema{{"x", intT()}}, Rows: [][]Expr{{&Literal{Value: int32(1), T: intT()}}}}
	for i := 0; i < levels; i++ {
		n = &SetOp{Kind: Union, All: true, Inputs: []Node{n, n}, Cols: Schema{{"x", intT()}}}
	}
	return n
}

func TestFormatSmallSharedPlanAsTree(t *testing.T) {
	got := Format(chain(2))
	if strings.Contains(got, "Reused") || strings.Count(got, "Values") != 4 {
		t.Errorf("a small shared plan prints as a tree:\n%s", got)
	}
}

func TestFormatLargeSharedPlanOnce(t *testing.T) {
	got := Format(chain(40))
	lines := strings.Count(got, "\n")
	if lines != 81 {
		t.Errorf("%d lines, want 81 (each level once, its second read a reference):\n%s", lines, got)
	}
	if !strings.HasPrefix(got, "Union(all=[true], fields=[x])\n:- Union(all=[true], fields=[x], reuse_id=[1])\n") {
		t.Errorf("the first shared node carries its reuse id:\n%s", got[:200])
	}
	if !strings.Contains(got, "+- Reused(reference_id=[1])\n") || !strings.Contains(got, "Values(") {
		t.Errorf("later reads refer to the first:\n%s", got)
	}
}
