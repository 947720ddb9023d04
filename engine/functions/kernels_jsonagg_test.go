package functions

import (
	"testing"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// TestJSONAggregates folds rows into JSON_ARRAYAGG and JSON_OBJECTAGG
// accumulators: order, ON NULL, nested JSON values, keys in order, the
// empty results and the repeated-key failure.
func TestJSONAggregates(t *testing.T) {
	str, num := types.NewString(), types.New(types.Int)
	vec := func(tp *types.Type, vals ...any) *vector.Vec {
		v := vector.New(tp, len(vals))
		for _, x := range vals {
			v.Append(x)
		}
		return v
	}
	konst := func(s string, n int) *vector.Vec {
		vals := make([]any, n)
		for i := range vals {
			vals[i] = s
		}
		return vec(str, vals...)
	}
	fold := func(name string, args []*vector.Vec, n int) Accumulator {
		types := make([]*types.Type, len(args))
		for i, a := range args {
			types[i] = a.T
		}
		mk, err := AggregateKernel(name, types, str)
		if err != nil {
			t.Fatal(err)
		}
		acc := mk()
		for i := range n {
			acc.Add(args, i)
		}
		return acc
	}
	cases := []struct {
		name string
		args []*vector.Vec
		n    int
		want string
	}{
		{"JSON_ARRAYAGG", []*vector.Vec{konst("ABSENT", 3), konst("0", 3), vec(num, int32(2), nil, int32(1))}, 3, `[2,1]`},
		{"JSON_ARRAYAGG", []*vector.Vec{konst("NULL", 3), konst("0", 3), vec(num, int32(2), nil, int32(1))}, 3, `[2,null,1]`},
		{"JSON_ARRAYAGG", []*vector.Vec{konst("ABSENT", 2), konst("1", 2), vec(str, `{"a": [1]}`, `[]`)}, 2, `[{"a":[1]},[]]`},
		{"JSON_ARRAYAGG", []*vector.Vec{konst("ABSENT", 0), konst("0", 0), vec(num)}, 0, `[]`},
		{"JSON_OBJECTAGG", []*vector.Vec{konst("NULL", 3), konst("0", 3), vec(str, "b", "a", "c"), vec(num, int32(1), int32(2), nil)}, 3,
			`{"a":2,"b":1,"c":null}`},
		{"JSON_OBJECTAGG", []*vector.Vec{konst("ABSENT", 3), konst("0", 3), vec(str, "b", "a", "c"), vec(num, int32(1), int32(2), nil)}, 3,
			`{"a":2,"b":1}`},
		{"JSON_OBJECTAGG", []*vector.Vec{konst("NULL", 0), konst("0", 0), vec(str), vec(num)}, 0, `{}`},
	}
	for _, c := range cases {
		acc := fold(c.name, c.args, c.n)
		if got := acc.Result(); got != c.want {
			t.Errorf("%s: got %v, want %s", c.name, got, c.want)
		}
		if err := acc.(FailingAccumulator).Err(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	dup := fold("JSON_OBJECTAGG", []*vector.Vec{konst("NULL", 2), konst("0", 2), vec(str, "k", "k"), vec(num, int32(1), int32(2))}, 2)
	if err := dup.(FailingAccumulator).Err(); err == nil {
		t.Error("JSON_OBJECTAGG took a repeated key")
	}
	arr := fold("JSON_ARRAYAGG", []*vector.Vec{konst("ABSENT", 3), konst("0", 3), vec(num, int32(1), int32(2), int32(1))}, 3)
	if !arr.Retract([]*vector.Vec{konst("ABSENT", 1), konst("0", 1), vec(num, int32(1))}, 0) || arr.Result() != `[2,1]` {
		t.Errorf("JSON_ARRAYAGG after retracting 1: %v", arr.Result())
	}
}
