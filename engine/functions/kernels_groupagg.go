package functions

import (
	"eddy/engine/types"
	"eddy/engine/vector"
)

// GroupAccumulator keeps one aggregate call's state for every group of a
// hash aggregation in flat arrays indexed by group number, so that a batch
// is folded in with one loop per aggregate instead of one call per row.
// Update folds row i into group groups[i] (rows with a negative group are
// skipped); Grow makes room for groups 0..n-1.
type GroupAccumulator interface {
	Grow(n int)
	Update(groups []int32, args []*vector.Vec)
	Result(g int) any
}

// OneGroupAccumulator is a GroupAccumulator that also folds a batch of n
// rows all in group 0 (a global aggregation that skips none of them)
// without a group array.
type OneGroupAccumulator interface {
	UpdateOne(n int, args []*vector.Vec)
}

// GroupAggregateKernel returns a constructor of group accumulators for the
// aggregates that have one (COUNT, SUM, AVG, MIN, MAX over integers and
// floating point, MIN and MAX over strings); ok is false for the others,
// which use Accumulator.
func GroupAggregateKernel(name string, args []*types.Type, ret *types.Type) (mk func() GroupAccumulator, ok bool) {
	switch name {
	case "COUNT":
		return func() GroupAccumulator { return &groupCount{} }, true
	}
	if len(args) != 1 {
		return nil, false
	}
	in := vector.ClassOf(args[0])
	if in == vector.String && (name == "MIN" || name == "MAX") {
		want := 1
		if name == "MIN" {
			want = -1
		}
		return func() GroupAccumulator { return &groupMinMaxStr{want: want} }, true
	}
	if in != vector.Int && in != vector.Float {
		return nil, false
	}
	switch name {
	case "SUM", "SUM0":
		if vector.ClassOf(ret) != in {
			return nil, false
		}
		zero := name == "SUM0"
		return func() GroupAccumulator { return &groupSum{ret: ret, float: in == vector.Float, zero: zero} }, true
	case "AVG":
		if vector.ClassOf(ret) != in {
			return nil, false
		}
		return func() GroupAccumulator { return &groupSum{ret: ret, float: in == vector.Float, avg: true} }, true
	case "MIN", "MAX":
		want := 1
		if name == "MIN" {
			want = -1
		}
		return func() GroupAccumulator { return &groupMinMax{t: args[0], float: in == vector.Float, want: want} }, true
	}
	return nil, false
}

// groupCount is COUNT(*) and COUNT(x...).
type groupCount struct{ n []int64 }

func (a *groupCount) Grow(n int) { a.n = growTo(a.n, n) }

// growTo extends s with zero values to length n (at least). The capacity
// doubles: the groups of an aggregation arrive a batch at a time, and an
// append's own growth (a quarter at a time past a few hundred values)
// would copy the state twenty times on the way to 100,000 groups.
func growTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	if cap(s) >= n {
		t := s[:n]
		clear(t[len(s):])
		return t
	}
	out := make([]T, n, max(n, 2*cap(s)))
	copy(out, s)
	return out
}

func (a *groupCount) Update(groups []int32, args []*vector.Vec) {
	if len(args) == 0 || !anyNulls(args) {
		if len(a.n) == 1 {
			// One group (a global aggregate): every row is in it or
			// skipped, and the count is kept in a register.
			a.n[0] += countKept(groups)
			return
		}
		for _, g := range groups {
			if g >= 0 {
				a.n[g]++
			}
		}
		return
	}
rows:
	for i, g := range groups {
		if g < 0 {
			continue
		}
		for _, v := range args {
			if v.IsNull(i) {
				continue rows
			}
		}
		a.n[g]++
	}
}

func (a *groupCount) UpdateOne(n int, args []*vector.Vec) {
	if len(args) == 0 || !anyNulls(args) {
		a.n[0] += int64(n)
		return
	}
	a.Update(make([]int32, n), args)
}

// countKept returns the number of rows with a group (not skipped).
func countKept(groups []int32) int64 {
	var n int64
	for _, g := range groups {
		if g >= 0 {
			n++
		}
	}
	return n
}

func anyNulls(args []*vector.Vec) bool {
	for _, v := range args {
		if v.HasNulls() {
			return true
		}
	}
	return false
}

func (a *groupCount) Result(g int) any { return a.n[g] }

// groupSum is SUM, SUM0 and AVG over integers (wrapping in the result
// type for SUM; an exact int64 sum for AVG) or floating point.
type groupSum struct {
	ret   *types.Type
	float bool
	zero  bool
	avg   bool
	i     []int64
	f     []float64
	n     []int64
}

func (a *groupSum) Grow(n int) {
	a.n = growTo(a.n, n)
	if a.float {
		a.f = growTo(a.f, n)
	} else {
		a.i = growTo(a.i, n)
	}
}

func (a *groupSum) Update(groups []int32, args []*vector.Vec) {
	v := args[0]
	if a.float {
		sumInto(a.f, a.n, v.Floats, groups, v)
		return
	}
	sumInto(a.i, a.n, v.Ints, groups, v)
}

func (a *groupSum) UpdateOne(n int, args []*vector.Vec) {
	v := args[0]
	if v.HasNulls() {
		a.Update(make([]int32, n), args)
		return
	}
	a.n[0] += int64(n)
	if a.float {
		// In row order: a floating-point sum depends on it.
		s := a.f[0]
		for _, x := range v.Floats[:n] {
			s += x
		}
		a.f[0] = s
		return
	}
	a.i[0] += sumInts(v.Ints[:n])
}

// sumInts is the wrapping sum of x, four lanes at a time: integer
// addition wraps the same in any order.
func sumInts(x []int64) int64 {
	var s0, s1, s2, s3 int64
	for len(x) >= 4 {
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
		x = x[4:]
	}
	for _, v := range x {
		s0 += v
	}
	return s0 + s1 + s2 + s3
}

// sumInto adds each row's value x[i] to sums[groups[i]] and counts it in
// n, for the rows with a group whose value v does not hold NULL. With one
// group (a global aggregate) the sum and count are kept in registers, not
// stored to the group's slot each row; the values add in row order either
// way, so a floating-point sum is the same.
func sumInto[T int64 | float64](sums []T, n []int64, x []T, groups []int32, v *vector.Vec) {
	nulls := v.HasNulls()
	if len(n) == 1 {
		s, c := sums[0], n[0]
		for i, g := range groups {
			if g >= 0 && (!nulls || !v.IsNull(i)) {
				s += x[i]
				c++
			}
		}
		sums[0], n[0] = s, c
		return
	}
	if !nulls {
		x = x[:len(groups)]
		for i, g := range groups {
			if g >= 0 {
				sums[g] += x[i]
				n[g]++
			}
		}
		return
	}
	for i, g := range groups {
		if g >= 0 && !v.IsNull(i) {
			sums[g] += x[i]
			n[g]++
		}
	}
}

func (a *groupSum) Result(g int) any {
	if a.n[g] == 0 && !a.zero {
		return nil
	}
	if a.float {
		f := a.f[g]
		if a.avg {
			f /= float64(a.n[g])
		}
		if a.ret.Kind == types.Float {
			return float32(f)
		}
		return f
	}
	s := a.i[g]
	if a.avg {
		s /= a.n[g]
	}
	return types.IntegerValue(a.ret.Kind, wrapInt(a.ret.Kind, s))
}

// groupMinMax is MIN and MAX over integers or floating point.
type groupMinMax struct {
	t     *types.Type
	float bool
	want  int
	seen  []bool
	i     []int64
	f     []float64
}

func (a *groupMinMax) Grow(n int) {
	a.seen = growTo(a.seen, n)
	if a.float {
		a.f = growTo(a.f, n)
	} else {
		a.i = growTo(a.i, n)
	}
}

func (a *groupMinMax) Update(groups []int32, args []*vector.Vec) {
	v := args[0]
	nulls := v.HasNulls()
	for i, g := range groups {
		if g < 0 || nulls && v.IsNull(i) {
			continue
		}
		if a.float {
			x := v.Floats[i]
			if !a.seen[g] || vector.CompareFloat(x, a.f[g])*a.want > 0 {
				a.f[g], a.seen[g] = x, true
			}
			continue
		}
		x := v.Ints[i]
		if !a.seen[g] || (a.want > 0 && x > a.i[g]) || (a.want < 0 && x < a.i[g]) {
			a.i[g], a.seen[g] = x, true
		}
	}
}

func (a *groupMinMax) Result(g int) any {
	if !a.seen[g] {
		return nil
	}
	one := vector.New(a.t, 1)
	if a.float {
		one.Floats = append(one.Floats, a.f[g])
	} else {
		one.Ints = append(one.Ints, a.i[g])
	}
	one.Len = 1
	return one.Get(0)
}

// GroupResultVector is implemented by the group accumulators that can
// write the results of groups 0..n-1 as one column of type t at once;
// ok is false when t's storage does not suit them (use Result then).
type GroupResultVector interface {
	ResultVec(t *types.Type, n int) (v *vector.Vec, ok bool)
}

// nullsWhere is the null bitmap of the groups g < n for which null(g)
// holds, or nil when there is none.
func nullsWhere(n int, null func(g int) bool) []uint64 {
	var b []uint64
	for g := range n {
		if null(g) {
			if b == nil {
				b = make([]uint64, (n+63)>>6)
			}
			b[g>>6] |= 1 << (uint(g) & 63)
		}
	}
	return b
}

func (a *groupCount) ResultVec(t *types.Type, n int) (*vector.Vec, bool) {
	if vector.ClassOf(t) != vector.Int {
		return nil, false
	}
	a.Grow(n)
	v := vector.Make(t, n)
	copy(v.Ints, a.n[:n])
	return v, true
}

func (a *groupSum) ResultVec(t *types.Type, n int) (*vector.Vec, bool) {
	want := vector.Int
	if a.float {
		want = vector.Float
	}
	if vector.ClassOf(t) != want || t.Kind != a.ret.Kind {
		return nil, false
	}
	a.Grow(n)
	v := vector.Make(t, n)
	for g := range n {
		if a.float {
			f := a.f[g]
			if a.avg && a.n[g] > 0 {
				f /= float64(a.n[g])
			}
			if a.ret.Kind == types.Float {
				f = float64(float32(f))
			}
			v.Floats[g] = f
			continue
		}
		s := a.i[g]
		if a.avg && a.n[g] > 0 {
			s /= a.n[g]
		}
		v.Ints[g] = wrapInt(a.ret.Kind, s)
	}
	if !a.zero {
		v.SetNulls(nullsWhere(n, func(g int) bool { return a.n[g] == 0 }))
	}
	return v, true
}

func (a *groupMinMax) ResultVec(t *types.Type, n int) (*vector.Vec, bool) {
	want := vector.Int
	if a.float {
		want = vector.Float
	}
	if vector.ClassOf(t) != want || t.Kind != a.t.Kind {
		return nil, false
	}
	a.Grow(n)
	v := vector.Make(t, n)
	if a.float {
		copy(v.Floats, a.f[:n])
	} else {
		copy(v.Ints, a.i[:n])
	}
	v.SetNulls(nullsWhere(n, func(g int) bool { return !a.seen[g] }))
	return v, true
}

// groupMinMaxStr is MIN and MAX over strings (compared bytewise, as
// types.CompareValues does).
type groupMinMaxStr struct {
	want int
	seen []bool
	s    []string
}

func (a *groupMinMaxStr) Grow(n int) {
	a.seen = growTo(a.seen, n)
	a.s = growTo(a.s, n)
}

func (a *groupMinMaxStr) Update(groups []int32, args []*vector.Vec) {
	v := args[0]
	nulls := v.HasNulls()
	for i, g := range groups {
		if g < 0 || nulls && v.IsNull(i) {
			continue
		}
		x := v.Strs[i]
		if !a.seen[g] || (a.want > 0 && x > a.s[g]) || (a.want < 0 && x < a.s[g]) {
			a.s[g], a.seen[g] = x, true
		}
	}
}

func (a *groupMinMaxStr) Result(g int) any {
	if !a.seen[g] {
		return nil
	}
	return a.s[g]
}

func (a *groupMinMaxStr) ResultVec(t *types.Type, n int) (*vector.Vec, bool) {
	if vector.ClassOf(t) != vector.String {
		return nil, false
	}
	a.Grow(n)
	v := vector.Make(t, n)
	copy(v.Strs, a.s[:n])
	v.SetNulls(nullsWhere(n, func(g int) bool { return !a.seen[g] }))
	return v, true
}
