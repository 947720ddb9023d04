package plan

import (
	"testing"

	"eddy/engine/types"
)

func intT() *types.Type { return types.New(types.Int).WithNullable(false) }

func TestFormatAndEquiKeys(t *testing.T) {
	str := types.NewString()
	left := &Values{Cols: Schema{{"id", intT()}, {"s", str}}, Rows: [][]Expr{
		{&Literal{Value: int32(1), T: intT()}, &Literal{Value: "a", T: str}},
	}}
	right := &Scan{Table: TableID{"c", "d", "t"}, Physical: Schema{{"k", intT()}, {"v", str}}, Rowtime: -1, Bounded: true}
	boolT := types.New(types.Boolean)
	eq := &Call{Name: OpEq, Args: []Expr{&ColumnRef{Index: 2, Name: "k", T: intT()}, &ColumnRef{Index: 0, Name: "id", T: intT()}}, T: boolT}
	gt := &Call{Name: OpGt, Args: []Expr{&ColumnRef{Index: 3, Name: "v", T: str}, &ColumnRef{Index: 1, Name: "s", T: str}}, T: boolT}
	j := NewJoin(LeftJoin, left, right, And(eq, gt))
	if len(j.EquiKeys) != 1 {
		t.Fatalf("equi keys = %d, want 1", len(j.EquiKeys))
	}
	if r, ok := j.EquiKeys[0].Right.(*ColumnRef); !ok || r.Index != 0 {
		t.Fatalf("right key = %v, want column 0 of the right input", j.EquiKeys[0].Right)
	}
	if j.Residual != gt {
		t.Fatalf("residual = %v", j.Residual)
	}
	s := j.Schema()
	if len(s) != 4 || !s[2].Type.Nullable() || s[0].Type.Nullable() {
		t.Fatalf("schema = %v", s)
	}
	p := &Project{Input: j, Exprs: []Expr{s.Ref(0), s.Ref(3)}, Names: []string{"id", "w"}}
	lim := &Limit{Input: &Sort{Input: p, Keys: []SortKey{{Expr: p.Schema().Ref(0), Desc: true}}}, Fetch: 10}
	want := "Limit(offset=[0], fetch=[10])\n" +
		"+- Sort(orderBy=[id DESC NULLS LAST])\n" +
		"   +- Project(select=[id, v AS w])\n" +
		"      +- Join(joinType=[LeftOuterJoin], equi=[id = k], where=[>(v, s)])\n" +
		"         :- Values(tuples=[[{ 1, 'a' }]], values=[id, s])\n" +
		"         +- TableSourceScan(table=[`c`.`d`.`t`], fields=[k, v])\n"
	if got := Format(lim); got != want {
		t.Fatalf("Format:\n%s\nwant:\n%s", got, want)
	}
	if _, err := lim.WithChildren(); err == nil {
		t.Fatal("WithChildren() with no children succeeded")
	}
	n, err := p.WithChildren(left)
	if err != nil || n.(*Project).Input != left || p.Input != j {
		t.Fatalf("WithChildren did not copy: %v", err)
	}
}

func TestCrossJoinKeepsCondition(t *testing.T) {
	a := &Values{Cols: Schema{{"x", intT()}}}
	b := &Values{Cols: Schema{{"y", intT()}}}
	eq := &Call{Name: OpEq, Args: []Expr{&ColumnRef{Index: 0, T: intT()}, &ColumnRef{Index: 1, T: intT()}}, T: types.New(types.Boolean)}
	j := NewJoin(SemiJoin, a, b, eq)
	if len(j.EquiKeys) != 1 || j.Residual != nil || len(j.Schema()) != 1 {
		t.Fatalf("semi join: %s", j.Describe())
	}
	c := NewJoin(CrossJoin, a, b, eq)
	if len(c.EquiKeys) != 0 || c.Residual == nil {
		t.Fatalf("cross join: %s", c.Describe())
	}
}
