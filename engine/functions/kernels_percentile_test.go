package functions

import (
	"testing"

	"eddy/engine/types"
	"eddy/engine/vector"
)

func TestPercentileKernel(t *testing.T) {
	cases := []struct {
		pct   float64
		vals  []any
		freqs []any // nil: no frequency argument
		want  any
	}{
		{0.5, []any{int32(1), int32(2), int32(3), int32(4)}, nil, 2.5},
		{0.25, []any{int32(4), int32(3), int32(2), int32(1)}, nil, 1.75},
		{1, []any{int32(1), nil, int32(9)}, nil, 9.0},
		{0, []any{int32(5)}, nil, 5.0},
		{0.5, []any{nil, nil}, nil, nil},
		// Frequencies weight the values; NULL or non-positive ones skip the row.
		{0.5, []any{int32(1), int32(2), int32(3), int32(4)}, []any{int64(1), int64(3), int64(0), nil}, 2.0},
	}
	for _, c := range cases {
		args := []*types.Type{tInt, tDouble}
		if c.freqs != nil {
			args = append(args, tBig)
		}
		mk, err := AggregateKernel("PERCENTILE", args, tDouble)
		if err != nil {
			t.Fatal(err)
		}
		vecs := make([]*vector.Vec, len(args))
		for j, at := range args {
			vecs[j] = vector.New(at, len(c.vals))
		}
		for i, v := range c.vals {
			vecs[0].Append(v)
			vecs[1].Append(c.pct)
			if c.freqs != nil {
				vecs[2].Append(c.freqs[i])
			}
		}
		acc := mk()
		for i := range c.vals {
			acc.Add(vecs, i)
		}
		if got := acc.Result(); got != c.want {
			t.Errorf("PERCENTILE(%v, %v) freqs %v = %v, want %v", c.vals, c.pct, c.freqs, got, c.want)
		}
	}
	// Retracting a row undoes its add.
	mk, _ := AggregateKernel("PERCENTILE", []*types.Type{tInt, tDouble}, tDouble)
	acc := mk()
	v, p := vector.New(tInt, 3), vector.New(tDouble, 3)
	for _, x := range []int32{1, 2, 100} {
		v.Append(x)
		p.Append(0.5)
	}
	for i := range 3 {
		acc.Add([]*vector.Vec{v, p}, i)
	}
	acc.Retract([]*vector.Vec{v, p}, 2)
	if got := acc.Result(); got != 1.5 {
		t.Errorf("PERCENTILE after retract = %v, want 1.5", got)
	}
}
