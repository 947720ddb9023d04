package functions

import (
	"math"
	"testing"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// TestGroupAccumulatorOneGroup folds the same rows into one group (the
// global aggregate's path) and into the first of two groups (the general
// path), with skipped rows and NULLs, and checks both against a row by
// row fold: the counts, the integer sums and the floating-point sums,
// which must add in the same order to be equal to the last bit.
func TestGroupAccumulatorOneGroup(t *testing.T) {
	const n = 1000
	dbl, big := types.New(types.Double), types.New(types.BigInt)
	fv, iv := vector.New(dbl, n), vector.New(big, n)
	groups := make([]int32, n)
	var wantF float64
	var wantI, wantN, wantRows int64
	for i := range n {
		if i%7 == 3 {
			groups[i] = -1 // skipped, as a filtered row
		}
		if i%11 == 5 {
			fv.AppendNull()
			iv.AppendNull()
		} else {
			x := 1.0 / float64(i+3) * math.Pi * 1e6
			fv.Append(x)
			iv.Append(int64(i*i - 5000))
			if groups[i] >= 0 {
				wantF += x
				wantI += int64(i*i - 5000)
				wantN++
			}
		}
		if groups[i] >= 0 {
			wantRows++
		}
	}
	run := func(name string, args []*types.Type, ret *types.Type, in []*vector.Vec, want any) {
		t.Helper()
		mk, ok := GroupAggregateKernel(name, args, ret)
		if !ok {
			t.Fatalf("%s has no group accumulator", name)
		}
		one, two := mk(), mk()
		one.Grow(1)
		two.Grow(2)
		// Two calls, so the state carries over between batches.
		half := n / 2
		for _, a := range []GroupAccumulator{one, two} {
			a.Update(groups[:half], sliceVecs(in, 0, half))
			a.Update(groups[half:], sliceVecs(in, half, n))
		}
		if got := one.Result(0); got != want {
			t.Errorf("%s, one group: %v, want %v", name, got, want)
		}
		if got := two.Result(0); got != want {
			t.Errorf("%s, two groups: %v, want %v", name, got, want)
		}
	}
	run("COUNT", nil, big, nil, wantRows)
	run("COUNT", []*types.Type{dbl}, big, []*vector.Vec{fv}, wantN)
	run("SUM", []*types.Type{dbl}, dbl, []*vector.Vec{fv}, wantF)
	run("SUM", []*types.Type{big}, big, []*vector.Vec{iv}, wantI)
	run("AVG", []*types.Type{big}, big, []*vector.Vec{iv}, wantI/wantN)
}

// sliceVecs returns rows lo..hi of each vector as vectors of their own.
func sliceVecs(vs []*vector.Vec, lo, hi int) []*vector.Vec {
	out := make([]*vector.Vec, len(vs))
	for i, v := range vs {
		w := vector.New(v.T, hi-lo)
		for r := lo; r < hi; r++ {
			if v.IsNull(r) {
				w.AppendNull()
			} else {
				w.Append(v.Get(r))
			}
		}
		out[i] = w
	}
	return out
}

// TestGroupAccumulatorUpdateOne: folding batches whose rows are all in
// group 0 through UpdateOne gives what Update gives with a group array of
// zeros, for batches with NULLs and without, at lengths that do not fill
// the integer sum's lanes, and with integer sums that wrap.
func TestGroupAccumulatorUpdateOne(t *testing.T) {
	dbl, big := types.New(types.Double), types.New(types.BigInt)
	var batches [][]*vector.Vec
	for b, n := range []int{1, 7, 1000, 1023} {
		fv, iv := vector.New(dbl, n), vector.New(big, n)
		for i := range n {
			if b%2 == 1 && i%5 == 2 {
				fv.AppendNull()
				iv.AppendNull()
				continue
			}
			fv.Append(math.Sqrt(float64(i+b)) * 1e7 / 3)
			iv.Append(int64(i)*math.MaxInt64/3 + int64(b))
		}
		batches = append(batches, []*vector.Vec{fv, iv})
	}
	cases := []struct {
		name string
		col  int // -1: no argument
		arg  *types.Type
	}{{"COUNT", -1, nil}, {"COUNT", 0, dbl}, {"SUM", 0, dbl}, {"SUM", 1, big}, {"SUM0", 1, big}, {"AVG", 0, dbl}, {"AVG", 1, big}}
	for _, c := range cases {
		var args []*types.Type
		ret := big
		if c.arg != nil {
			args, ret = []*types.Type{c.arg}, c.arg
		}
		mk, ok := GroupAggregateKernel(c.name, args, ret)
		if !ok {
			t.Fatalf("%s has no group accumulator", c.name)
		}
		viaOne, viaGroups := mk(), mk()
		one, ok := viaOne.(OneGroupAccumulator)
		if !ok {
			t.Fatalf("%s(%v) has no UpdateOne", c.name, c.arg)
		}
		viaOne.Grow(1)
		viaGroups.Grow(1)
		for _, b := range batches {
			var in []*vector.Vec
			if c.col >= 0 {
				in = []*vector.Vec{b[c.col]}
			}
			n := b[0].Len
			one.UpdateOne(n, in)
			viaGroups.Update(make([]int32, n), in)
		}
		if got, want := viaOne.Result(0), viaGroups.Result(0); got != want {
			t.Errorf("%s(%v): UpdateOne gives %v, Update %v", c.name, c.arg, got, want)
		}
	}
}
