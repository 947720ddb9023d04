package plan

import (
	"testing"

	"eddy/engine/types"
)

func TestPruneProjections(t *testing.T) {
	str := types.NewString()
	src := &Values{Cols: Schema{{"a", str}, {"b", str}}, Rows: [][]Expr{
		{&Literal{Value: "abc", T: str}, &Literal{Value: "y", T: str}},
	}}
	// A view's projection casting to its frozen types, read by a query
	// that only wants b.
	view := &Project{Input: src, Names: []string{"a", "b"}, Exprs: []Expr{
		&Cast{X: &ColumnRef{Index: 0, Name: "a", T: str}, T: intT()},
		&ColumnRef{Index: 1, Name: "b", T: str},
	}}
	q := &Project{Input: view, Names: []string{"b"}, Exprs: []Expr{&ColumnRef{Index: 1, Name: "b", T: str}}}
	got, err := PruneProjections(q)
	if err != nil {
		t.Fatal(err)
	}
	outer := got.(*Project)
	inner := outer.Input.(*Project)
	if len(inner.Exprs) != 1 || inner.Names[0] != "b" {
		t.Fatalf("inner projection keeps %v, want only b", inner.Names)
	}
	if c := outer.Exprs[0].(*ColumnRef); c.Index != 0 {
		t.Fatalf("outer reference = %d, want 0 after pruning", c.Index)
	}
	if len(q.Input.(*Project).Exprs) != 2 {
		t.Fatal("the input plan was modified")
	}

	// Every column read: nothing to prune, the same node comes back.
	all := &Project{Input: view, Names: []string{"b", "a"}, Exprs: []Expr{
		&ColumnRef{Index: 1, Name: "b", T: str}, &ColumnRef{Index: 0, Name: "a", T: intT()},
	}}
	if got, _ := PruneProjections(all); got != Node(all) {
		t.Fatal("a projection reading every column was rebuilt")
	}
}
