package exec

import (
	"sort"
	"strconv"
	"strings"
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

// TestJoinStringKeyTable joins on one string key (the string table) and
// checks inner, null-safe, semi and anti joins against a nested loop over
// the same rows, duplicates and NULL keys included.
func TestJoinStringKeyTable(t *testing.T) {
	var lrows, rrows [][]any
	for i := range 300 {
		var s any = "k" + strconv.Itoa(i%40)
		if i%17 == 0 {
			s = nil
		}
		lrows = append(lrows, []any{int32(i), s})
	}
	for i := range 200 {
		var s any = "k" + strconv.Itoa((i*3)%60)
		if i%23 == 0 {
			s = nil
		}
		rrows = append(rrows, []any{int32(1000 + i), s})
	}
	l, r := values(lrows...), values(rrows...)
	ls := l.Schema()
	for _, op := range []string{"=", "IS NOT DISTINCT FROM"} {
		cond := call(op, boolT, col(ls, 1), &plan.ColumnRef{Index: 3, T: strT})
		match := func(a, b any) bool { return a == b && (a != nil || op != "=") }
		var inner, semi, anti []string
		for _, lr := range lrows {
			found := false
			for _, rr := range rrows {
				if match(lr[1], rr[1]) {
					found = true
					inner = append(inner, line(lr[0], lr[1], rr[0], rr[1]))
				}
			}
			if found {
				semi = append(semi, line(lr[0], lr[1]))
			} else {
				anti = append(anti, line(lr[0], lr[1]))
			}
		}
		for kind, want := range map[plan.JoinKind][]string{plan.InnerJoin: inner, plan.SemiJoin: semi, plan.AntiJoin: anti} {
			got, jop := runOpts(t, plan.NewJoin(kind, l, r, cond), Options{})
			if jop.(*joinOp).strHead == nil {
				t.Fatalf("%s %s: the string table was not used", op, kind)
			}
			sort.Strings(want)
			sameLines(t, op+" "+kind.String(), got, want)
		}
	}
}

// line prints values as runOpts does: "v1|v2", NULL for nil.
func line(vals ...any) string {
	var cells []string
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			cells = append(cells, "NULL")
		case int32:
			cells = append(cells, strconv.Itoa(int(x)))
		default:
			cells = append(cells, x.(string))
		}
	}
	return strings.Join(cells, "|")
}
