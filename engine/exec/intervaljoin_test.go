package exec

import (
	"sort"
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

func TestIntervalJoin(t *testing.T) {
	orders := timed(t, []string{"id", "ts"},
		[]any{"o1", "10:00:00"}, []any{"o2", "10:10:00"}, []any{"o3", "10:20:00"}, []any{nil, "10:30:00"})
	ships := timed(t, []string{"id", "ts"},
		[]any{"o1", "10:30:00"}, []any{"o1", "12:00:00"}, []any{"o3", "10:19:00"}, []any{"o4", "10:40:00"})
	ls := orders.Schema()
	ts3 := types.NewTimestamp(3)
	// s.ts BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR: o.ts - s.ts in [-1h, 0].
	lt, rt := &plan.ColumnRef{Index: 1, T: ts3}, &plan.ColumnRef{Index: 3, T: ts3}
	hour := lit(int64(3600000), types.New(types.IntervalDayTime))
	bounds := call("AND", boolT, call(">=", boolT, rt, lt), call("<=", boolT, rt, call("+", ts3, lt, hour)))
	keys := []plan.EquiKey{{Left: col(ls, 0), Right: col(ships.Schema(), 0)}}
	join := func(kind plan.JoinKind) plan.Node {
		return &plan.IntervalJoin{Kind: kind, Left: orders, Right: ships, EquiKeys: keys, Residual: bounds,
			LeftTime: 1, RightTime: 1, Lower: -3600000, Upper: 0}
	}
	check(t, sorted(run(t, join(plan.InnerJoin), true)),
		"+I|o1|2024-01-01 10:00:00.000|o1|2024-01-01 10:30:00.000")
	// Outer rows that met nothing come once, as inserts, padded.
	check(t, sorted(run(t, join(plan.FullJoin), true)),
		"+I|NULL|2024-01-01 10:30:00.000|NULL|NULL",
		"+I|NULL|NULL|o1|2024-01-01 12:00:00.000",
		"+I|NULL|NULL|o3|2024-01-01 10:19:00.000",
		"+I|NULL|NULL|o4|2024-01-01 10:40:00.000",
		"+I|o1|2024-01-01 10:00:00.000|o1|2024-01-01 10:30:00.000",
		"+I|o2|2024-01-01 10:10:00.000|NULL|NULL",
		"+I|o3|2024-01-01 10:20:00.000|NULL|NULL")
}

func TestWindowJoin(t *testing.T) {
	ts3 := types.NewTimestamp(3)
	windowed := func(v *plan.Values) *plan.WindowTVF {
		cols := append(append(plan.Schema{}, v.Cols...), plan.Column{Name: "window_start", Type: ts3},
			plan.Column{Name: "window_end", Type: ts3}, plan.Column{Name: "window_time", Type: ts3})
		return &plan.WindowTVF{Input: v, Kind: plan.Tumble, TimeCol: 1, Size: 600000, Cols: cols}
	}
	clicks := windowed(timed(t, []string{"user", "ts"}, []any{"u1", "10:01:00"}, []any{"u2", "10:02:00"}, []any{"u1", "10:12:00"}))
	views := windowed(timed(t, []string{"user", "ts"}, []any{"u1", "10:03:00"}, []any{"u1", "10:05:00"}, []any{"u2", "10:15:00"}))
	ls, rs := clicks.Schema(), views.Schema()
	keys := []plan.EquiKey{{Left: col(ls, 0), Right: col(rs, 0)}, {Left: col(ls, 2), Right: col(rs, 2)}, {Left: col(ls, 3), Right: col(rs, 3)}}
	join := func(kind plan.JoinKind) plan.Node {
		j := &plan.WindowJoin{Kind: kind, Left: clicks, Right: views, EquiKeys: keys, LeftEnd: 3, RightEnd: 3, LeftTime: 1, RightTime: 1}
		s := j.Schema()
		return &plan.Project{Input: j, Exprs: []plan.Expr{col(s, 0), col(s, 1), col(s, 5), col(s, 6)}, Names: []string{"u", "a", "v", "b"}}
	}
	check(t, sorted(run(t, join(plan.InnerJoin), true)),
		"+I|u1|2024-01-01 10:01:00.000|u1|2024-01-01 10:03:00.000",
		"+I|u1|2024-01-01 10:01:00.000|u1|2024-01-01 10:05:00.000")
	check(t, sorted(run(t, join(plan.LeftJoin), true)),
		"+I|u1|2024-01-01 10:01:00.000|u1|2024-01-01 10:03:00.000",
		"+I|u1|2024-01-01 10:01:00.000|u1|2024-01-01 10:05:00.000",
		"+I|u1|2024-01-01 10:12:00.000|NULL|NULL",
		"+I|u2|2024-01-01 10:02:00.000|NULL|NULL")
}

// sorted returns rows in sorted order (a join's output order across keys
// is not part of its result).
func sorted(rows []string) []string {
	out := append([]string(nil), rows...)
	sort.Strings(out)
	return out
}
