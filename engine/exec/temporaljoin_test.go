package exec

import (
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// timed builds a VALUES table of (STRING, TIMESTAMP(3)) rows, with an INT
// column between them when the row has three values.
func timed(t *testing.T, names []string, rows ...[]any) *plan.Values {
	t.Helper()
	ts3 := types.NewTimestamp(3)
	v := &plan.Values{}
	for i, n := range names {
		typ := strT
		switch {
		case i == len(names)-1:
			typ = ts3
		case i > 0:
			typ = intT
		}
		v.Cols = append(v.Cols, plan.Column{Name: n, Type: typ})
	}
	for _, r := range rows {
		var exprs []plan.Expr
		for i, x := range r {
			if s, ok := x.(string); ok && i == len(r)-1 {
				tm, err := types.ParseTimestamp("2024-01-01 " + s)
				if err != nil {
					t.Fatal(err)
				}
				x = tm
			}
			exprs = append(exprs, lit(x, v.Cols[i].Type))
		}
		v.Rows = append(v.Rows, exprs)
	}
	return v
}

func TestTemporalJoin(t *testing.T) {
	orders := timed(t, []string{"cur", "ts"},
		[]any{"EUR", "10:15:00"}, []any{"USD", "10:30:00"}, []any{"EUR", "11:20:00"},
		[]any{"GBP", "11:30:00"}, []any{nil, "12:00:00"}, []any{"EUR", "08:00:00"})
	// The rates as a changelog by currency: EUR's second row updates it.
	log := timed(t, []string{"cur", "rate", "ut"},
		[]any{"EUR", int32(114), "09:00:00"}, []any{"USD", int32(1), "09:00:00"},
		[]any{"EUR", int32(119), "11:15:00"}, []any{"GBP", int32(108), "11:49:00"})
	rates := &plan.ChangelogNormalize{Input: log, Key: []int{0}}
	ls, rs := orders.Schema(), rates.Schema()
	keys := []plan.EquiKey{{Left: col(ls, 0), Right: col(rs, 0)}}
	join := func(kind plan.JoinKind, residual plan.Expr) *plan.Project {
		j := &plan.TemporalJoin{Kind: kind, Left: orders, Right: rates, EquiKeys: keys, Residual: residual,
			LeftTime: 1, RightTime: 2, VersionKey: []int{0}}
		s := j.Schema()
		return &plan.Project{Input: j, Exprs: []plan.Expr{col(s, 0), col(s, 1), col(s, 3)}, Names: []string{"cur", "ts", "rate"}}
	}
	// Each order meets the rate valid at its time; an order before the
	// first version, or of a currency without one, meets none. The rows
	// come in order arrival once the watermark (the smaller of the two
	// inputs' largest times) passes them, the rest at the end.
	check(t, run(t, join(plan.InnerJoin, nil), true),
		"+I|EUR|2024-01-01 10:15:00.000|114",
		"+I|USD|2024-01-01 10:30:00.000|1",
		"+I|EUR|2024-01-01 11:20:00.000|119")
	check(t, run(t, join(plan.LeftJoin, nil), true),
		"+I|EUR|2024-01-01 10:15:00.000|114",
		"+I|USD|2024-01-01 10:30:00.000|1",
		"+I|EUR|2024-01-01 11:20:00.000|119",
		"+I|GBP|2024-01-01 11:30:00.000|NULL",
		"+I|EUR|2024-01-01 08:00:00.000|NULL",
		"+I|NULL|2024-01-01 12:00:00.000|NULL")
	// A version that fails the rest of the condition pads the order.
	gt100 := call(">", boolT, &plan.ColumnRef{Index: 3, T: intT}, lit(int32(100), intT))
	check(t, run(t, join(plan.LeftJoin, gt100), true),
		"+I|EUR|2024-01-01 10:15:00.000|114",
		"+I|USD|2024-01-01 10:30:00.000|NULL",
		"+I|EUR|2024-01-01 11:20:00.000|119",
		"+I|GBP|2024-01-01 11:30:00.000|NULL",
		"+I|EUR|2024-01-01 08:00:00.000|NULL",
		"+I|NULL|2024-01-01 12:00:00.000|NULL")
}

func TestTemporalVersions(t *testing.T) {
	v := func(ts int64, kind types.RowKind) temporalRow { return temporalRow{time: ts, kind: kind} }
	versions := []temporalRow{v(1, types.Insert), v(4, types.UpdateAfter), v(7, types.UpdateAfter), v(9, types.Delete), v(12, types.Insert)}
	for _, c := range []struct {
		at   int64
		want int64 // -1: none
	}{{0, -1}, {1, 1}, {6, 4}, {7, 7}, {10, 9}, {99, 12}} {
		got, ok := latestVersion(versions, c.at)
		if !ok && c.want != -1 || ok && got.time != c.want {
			t.Errorf("latestVersion(%d) = %v %v, want %d", c.at, got.time, ok, c.want)
		}
	}
	// A deletion is the latest version at 10, but it meets no row.
	if got, _ := latestVersion(versions, 10); got.kind.IsAccumulate() {
		t.Errorf("the version at 10 is %v, want a deletion", got.kind)
	}
	for _, c := range []struct{ wm, want int64 }{{0, 0}, {5, 1}, {7, 2}, {100, 4}} {
		if got := firstVersionToKeep(versions, c.wm); int64(got) != c.want {
			t.Errorf("firstVersionToKeep(%d) = %d, want %d", c.wm, got, c.want)
		}
	}
}
