package plan

import "testing"

func TestMapNodeExprs(t *testing.T) {
	in := &Values{Cols: Schema{{Name: "a", Type: intT()}, {Name: "b", Type: intT()}}, Rows: [][]Expr{
		{&Literal{Value: int32(1), T: intT()}, &Literal{Value: int32(2), T: intT()}},
	}}
	agg := &Aggregate{Input: in, Group: []Expr{&ColumnRef{Index: 0, Name: "a", T: intT()}}, GroupNames: []string{"a"},
		Aggs: []AggCall{{Name: "SUM", Args: []Expr{&ColumnRef{Index: 1, Name: "b", T: intT()}}, Alias: "s", T: intT()}}}
	if got := MapNodeExprs(agg, func(e Expr) Expr { return e }); got != Node(agg) {
		t.Fatal("an unchanged node was copied")
	}
	swap := func(e Expr) Expr { return RemapColumns(e, []int{1, 0}) }
	got := MapNodeExprs(agg, swap).(*Aggregate)
	if g := got.Group[0].(*ColumnRef); g.Index != 1 {
		t.Fatalf("group column = %d, want 1", g.Index)
	}
	if a := got.Aggs[0].Args[0].(*ColumnRef); a.Index != 0 {
		t.Fatalf("argument column = %d, want 0", a.Index)
	}
	if agg.Group[0].(*ColumnRef).Index != 0 || agg.Aggs[0].Args[0].(*ColumnRef).Index != 1 {
		t.Fatal("the input node was modified")
	}
	if got.Input != in {
		t.Fatal("the children were replaced")
	}
	var used [2]bool
	UsedColumns(used[:], got.Aggs[0].Args...)
	if !used[0] || used[1] {
		t.Fatalf("used columns = %v, want [true false]", used)
	}
}
