package exec

import (
	"sort"
	"testing"

	"eddy/engine/plan"
)

// TestJoinDenseAndHashTables joins on one integer key with the dense head
// array (keys over a small range) and with the hash table (one far key
// added to the build side, matching nothing): every join kind, plain and
// null-safe, gives the same rows, plus the far row where unmatched build
// rows are kept.
func TestJoinDenseAndHashTables(t *testing.T) {
	l, r := joinInputs()
	far := &plan.Values{Cols: r.Cols, Rows: append(append([][]plan.Expr{}, r.Rows...),
		[]plan.Expr{lit(int32(2_000_000_000), intT), lit("rx", strT)})}
	ls := l.Schema()
	kinds := []plan.JoinKind{plan.InnerJoin, plan.LeftJoin, plan.RightJoin, plan.FullJoin, plan.SemiJoin, plan.AntiJoin}
	for _, op := range []string{"=", "IS NOT DISTINCT FROM"} {
		cond := call(op, boolT, col(ls, 0), &plan.ColumnRef{Index: 2, T: intT})
		for _, kind := range kinds {
			dense, dop := runOpts(t, plan.NewJoin(kind, l, r, cond), Options{})
			hashed, hop := runOpts(t, plan.NewJoin(kind, l, far, cond), Options{})
			if dj := dop.(*joinOp); dj.dense == nil || dj.intHead != nil {
				t.Fatalf("%s %s: the dense array was not used", op, kind)
			}
			if hj := hop.(*joinOp); hj.dense != nil || hj.intHead == nil {
				t.Fatalf("%s %s: the hash table was not used", op, kind)
			}
			if len(dense) == 0 {
				t.Fatalf("%s %s: no rows", op, kind)
			}
			if kind == plan.RightJoin || kind == plan.FullJoin {
				dense = append(dense, "NULL|NULL|2000000000|rx")
				sort.Strings(dense)
			}
			sameLines(t, op+" "+kind.String(), hashed, dense)
		}
	}
}
