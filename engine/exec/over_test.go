package exec

import (
	"testing"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// TestOverPartitionsAndTies checks window partitions on an integer key
// (NULL keys forming one partition, partitions in order of first
// appearance) and that rows tied on the ORDER BY keep their input order.
func TestOverPartitionsAndTies(t *testing.T) {
	v := values([]any{int32(2), "x"}, []any{int32(1), "y"}, []any{nil, "z"}, []any{int32(2), "w"},
		[]any{nil, "v"}, []any{int32(1), "u"}, []any{int32(1), "t"})
	s := v.Schema()
	part := []plan.Expr{col(s, 0)}
	byS := []plan.SortKey{{Expr: col(s, 1), Desc: true}}
	byID := []plan.SortKey{{Expr: col(s, 0)}}
	dbl := types.New(types.Double).WithNullable(false)
	o := &plan.Over{Input: v, Calls: []plan.WindowCall{
		{Name: "ROW_NUMBER", Partition: part, Order: byS, Alias: "rn", T: bigT},
		{Name: "DENSE_RANK", Partition: part, Order: byID, Alias: "dr", T: bigT},
		{Name: "CUME_DIST", Partition: part, Order: byID, Alias: "cd", T: dbl},
	}}
	check(t, run(t, o, false), "2|x|1|1|1.0", "2|w|2|1|1.0", "1|y|1|1|1.0", "1|u|2|1|1.0", "1|t|3|1|1.0",
		"NULL|z|1|1|1.0", "NULL|v|2|1|1.0")

	all := &plan.Over{Input: v, Calls: []plan.WindowCall{
		{Name: "ROW_NUMBER", Order: byID, Alias: "rn", T: bigT},
		{Name: "RANK", Order: byID, Alias: "rk", T: bigT},
	}}
	check(t, run(t, all, false), "1|y|1|1", "1|u|2|1", "1|t|3|1", "2|x|4|4", "2|w|5|4", "NULL|z|6|6", "NULL|v|7|6")
}
