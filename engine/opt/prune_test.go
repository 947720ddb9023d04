package opt

import (
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

func TestPruneProjections(t *testing.T) {
	str := types.NewString()
	src := &plan.Values{Cols: plan.Schema{{Name: "a", Type: str}, {Name: "b", Type: str}}, Rows: [][]plan.Expr{
		{&plan.Literal{Value: "abc", T: str}, &plan.Literal{Value: "y", T: str}},
	}}
	// A view's projection casting to its frozen types, read by a query
	// that only wants b.
	view := &plan.Project{Input: src, Names: []string{"a", "b"}, Exprs: []plan.Expr{
		&plan.Cast{X: &plan.ColumnRef{Index: 0, Name: "a", T: str}, T: types.New(types.Int).WithNullable(false)},
		&plan.ColumnRef{Index: 1, Name: "b", T: str},
	}}
	q := &plan.Project{Input: view, Names: []string{"b"}, Exprs: []plan.Expr{&plan.ColumnRef{Index: 1, Name: "b", T: str}}}
	got, err := PruneProjections(q)
	if err != nil {
		t.Fatal(err)
	}
	outer := got.(*plan.Project)
	inner := outer.Input.(*plan.Project)
	if len(inner.Exprs) != 1 || inner.Names[0] != "b" {
		t.Fatalf("inner projection keeps %v, want only b", inner.Names)
	}
	if c := outer.Exprs[0].(*plan.ColumnRef); c.Index != 0 {
		t.Fatalf("outer reference = %d, want 0 after pruning", c.Index)
	}
	if len(q.Input.(*plan.Project).Exprs) != 2 {
		t.Fatal("the input plan was modified")
	}

	// Every column read: nothing to prune, the same node comes back.
	all := &plan.Project{Input: view, Names: []string{"b", "a"}, Exprs: []plan.Expr{
		&plan.ColumnRef{Index: 1, Name: "b", T: str}, &plan.ColumnRef{Index: 0, Name: "a", T: types.New(types.Int).WithNullable(false)},
	}}
	if got, _ := PruneProjections(all); got != plan.Node(all) {
		t.Fatal("a projection reading every column was rebuilt")
	}
}
