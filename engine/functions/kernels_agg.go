package functions

import (
	"math"
	"strings"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Accumulator is the running state of one aggregate call for one group.
// Add folds in row i of the argument vectors (the caller has applied
// FILTER and DISTINCT); Retract removes a row added before (for changelog
// inputs) and reports false when the function cannot retract; Result
// returns the current value as an engine value (nil is NULL).
type Accumulator interface {
	Add(args []*vector.Vec, i int)
	Retract(args []*vector.Vec, i int) bool
	Result() any
}

// AggregateKernel returns a constructor of accumulators for an aggregate
// function over arguments of the given types with validated result type
// ret.
func AggregateKernel(name string, args []*types.Type, ret *types.Type) (func() Accumulator, error) {
	name = strings.ToUpper(name)
	switch name {
	case "COUNT":
		return func() Accumulator { return &countAcc{} }, nil
	case "SUM", "SUM0":
		zero := name == "SUM0"
		return func() Accumulator { return &sumAcc{ret: ret, zero: zero} }, nil
	case "AVG":
		return func() Accumulator { return &avgAcc{sumAcc: sumAcc{ret: sumTypeOf(args[0])}, ret: ret} }, nil
	case "MIN", "MAX":
		want := 1
		if name == "MIN" {
			want = -1
		}
		return func() Accumulator { return &minMaxAcc{want: want} }, nil
	case "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "VARIANCE", "STDDEV":
		return func() Accumulator { return &varAcc{name: name, ret: ret} }, nil
	case "FIRST_VALUE":
		return func() Accumulator { return &firstLastAcc{first: true} }, nil
	case "LAST_VALUE":
		return func() Accumulator { return &firstLastAcc{} }, nil
	case "LISTAGG":
		return func() Accumulator { return &listAggAcc{} }, nil
	case "COLLECT", "ARRAY_AGG":
		return func() Accumulator { return &collectAcc{arrayAgg: name == "ARRAY_AGG"} }, nil
	case "BOOL_AND", "EVERY":
		return func() Accumulator { return &boolAcc{and: true} }, nil
	case "BOOL_OR", "SOME":
		return func() Accumulator { return &boolAcc{} }, nil
	case "PERCENTILE":
		return func() Accumulator { return &percentileAcc{} }, nil
	case "JSON_ARRAYAGG", "JSON_OBJECTAGG":
		return jsonAggKernel(name, args), nil
	}
	return nil, &UnsupportedError{Name: name, Args: args}
}

func sumTypeOf(t *types.Type) *types.Type {
	if t.Kind == types.Decimal {
		return types.NewDecimal(types.MaxDecimalPrecision, t.Scale)
	}
	return t
}

// countAcc is COUNT(*) (no arguments) and COUNT(x, ...): rows whose
// arguments are all non-null.
type countAcc struct{ n int64 }

func (a *countAcc) Add(args []*vector.Vec, i int) {
	for _, v := range args {
		if v.IsNull(i) {
			return
		}
	}
	a.n++
}

func (a *countAcc) Retract(args []*vector.Vec, i int) bool {
	for _, v := range args {
		if v.IsNull(i) {
			return true
		}
	}
	a.n--
	return true
}

func (a *countAcc) Result() any { return a.n }

// sumAcc is SUM: integers wrap in the result type as Flink's Java sum
// does, DECIMAL is exact, FLOAT/DOUBLE add in float64.
type sumAcc struct {
	ret  *types.Type
	zero bool // SUM0: 0 instead of NULL on empty input
	n    int64
	i    int64
	f    float64
	d    *decimal.Decimal
}

func (a *sumAcc) add(v *vector.Vec, i int, sign int64) {
	if v.IsNull(i) {
		return
	}
	a.n += sign
	switch {
	case a.ret.Kind == types.Decimal:
		x := decAt(v, i)
		if a.d == nil {
			a.d = types.DecimalValue(0, 0)
		}
		if sign > 0 {
			*a.d = a.d.Add(*x)
		} else {
			*a.d = a.d.Sub(*x)
		}
	case v.Class == vector.Int:
		a.i = wrapInt(a.ret.Kind, a.i+sign*v.Ints[i])
	default:
		a.f += float64(sign) * floatAt(v, i)
	}
}

func (a *sumAcc) Add(args []*vector.Vec, i int) { a.add(args[0], i, 1) }

func (a *sumAcc) Retract(args []*vector.Vec, i int) bool { a.add(args[0], i, -1); return true }

func (a *sumAcc) Result() any {
	if a.n == 0 && !a.zero {
		return nil
	}
	switch vector.ClassOf(a.ret) {
	case vector.Decimal:
		if a.d == nil {
			return types.RoundDecimal(types.DecimalValue(0, 0), a.ret.Prec, a.ret.Scale)
		}
		return types.RoundDecimal(a.d, a.ret.Prec, a.ret.Scale)
	case vector.Int:
		return types.IntegerValue(a.ret.Kind, a.i)
	}
	if a.ret.Kind == types.Float {
		return float32(a.f)
	}
	return a.f
}

// avgAcc is AVG: AVG(INT) truncates toward zero, AVG(DECIMAL) rounds to
// the result scale.
type avgAcc struct {
	sumAcc
	ret *types.Type
}

func (a *avgAcc) Add(args []*vector.Vec, i int) {
	v := args[0]
	if v.IsNull(i) {
		return
	}
	if v.Class == vector.Int {
		// Sum integers in int64 without wrapping, as Flink's AVG uses a
		// BIGINT sum.
		a.n++
		a.i += v.Ints[i]
		return
	}
	a.add(v, i, 1)
}

func (a *avgAcc) Retract(args []*vector.Vec, i int) bool {
	v := args[0]
	if v.IsNull(i) {
		return true
	}
	if v.Class == vector.Int {
		a.n--
		a.i -= v.Ints[i]
		return true
	}
	a.add(v, i, -1)
	return true
}

func (a *avgAcc) Result() any {
	if a.n == 0 {
		return nil
	}
	switch vector.ClassOf(a.ret) {
	case vector.Int:
		return types.IntegerValue(a.ret.Kind, a.i/a.n)
	case vector.Decimal:
		sum := a.d
		if sum == nil {
			sum = types.DecimalValue(a.i, 0)
		}
		q := sum.DivRound(decimal.New(a.n, 0), int32(a.ret.Scale))
		return types.RoundDecimal(&q, a.ret.Prec, a.ret.Scale)
	}
	f := a.f
	if a.sumAcc.ret.Kind != types.Float && a.sumAcc.ret.Kind != types.Double && a.d == nil {
		f = float64(a.i)
	}
	if a.ret.Kind == types.Float {
		return float32(f / float64(a.n))
	}
	return f / float64(a.n)
}

// minMaxAcc keeps the smallest or largest non-null value.
type minMaxAcc struct {
	want int
	best any
}

func (a *minMaxAcc) Add(args []*vector.Vec, i int) {
	v := args[0]
	if v.IsNull(i) {
		return
	}
	x := v.Get(i)
	if a.best == nil || types.CompareValues(x, a.best)*a.want > 0 {
		a.best = x
	}
}

func (a *minMaxAcc) Retract([]*vector.Vec, int) bool { return false }

func (a *minMaxAcc) Result() any { return a.best }

// varAcc computes variance and standard deviation with Welford's method.
// Over an integer column Flink computes them in the column's type instead
// (Calcite's AggregateReduceFunctionsRule): (SUM(x*x) - SUM(x)*SUM(x) /
// COUNT(x)) / COUNT(x) (less one for the sample forms), the products and
// sums wrapping around at the column's width, the divisions those of
// BIGINT, and the standard deviation the square root cast back.
type varAcc struct {
	name     string
	ret      *types.Type
	n        float64
	mean, m2 float64
	// sum and sumSq are the integer forms' sums, kept at the width of ret.
	sum, sumSq int64
}

func (a *varAcc) Add(args []*vector.Vec, i int) {
	if args[0].IsNull(i) {
		return
	}
	if vector.ClassOf(a.ret) == vector.Int {
		x, _ := types.AsInt64(args[0].Get(i))
		k := a.ret.Kind
		a.sum = wrapInt(k, a.sum+x)
		a.sumSq = wrapInt(k, a.sumSq+wrapInt(k, x*x))
	}
	x := floatAt(args[0], i)
	a.n++
	d := x - a.mean
	a.mean += d / a.n
	a.m2 += d * (x - a.mean)
}

func (a *varAcc) Retract([]*vector.Vec, int) bool { return false }

func (a *varAcc) Result() any {
	pop := strings.HasSuffix(a.name, "_POP")
	if a.n == 0 || !pop && a.n < 2 {
		return nil
	}
	v := a.m2 / (a.n - 1)
	if pop {
		v = a.m2 / a.n
	}
	if vector.ClassOf(a.ret) == vector.Int {
		return a.integerResult(pop)
	}
	if strings.HasPrefix(a.name, "STDDEV") {
		v = math.Sqrt(v)
	}
	switch vector.ClassOf(a.ret) {
	case vector.Decimal:
		d, err := types.ParseDecimal(types.JavaFloat(v, 64))
		if err != nil {
			return nil
		}
		return types.RoundDecimal(d, a.ret.Prec, a.ret.Scale)
	}
	if a.ret.Kind == types.Float {
		return float32(v)
	}
	return v
}

// integerResult is the variance or standard deviation of an integer
// column, computed as Flink computes it (see varAcc).
func (a *varAcc) integerResult(pop bool) any {
	k := a.ret.Kind
	count := int64(a.n)
	diff := a.sumSq - wrapInt(k, a.sum*a.sum)/count
	denom := count
	if !pop {
		denom--
	}
	v := diff / denom
	if strings.HasPrefix(a.name, "STDDEV") {
		r := math.Pow(float64(v), 0.5)
		if math.IsNaN(r) {
			// Java casts NaN to 0.
			r = 0
		}
		v = int64(r)
	}
	return types.IntegerValue(k, wrapInt(k, v))
}

// firstLastAcc is FIRST_VALUE / LAST_VALUE over non-null values in input
// order.
type firstLastAcc struct {
	first bool
	seen  bool
	v     any
}

func (a *firstLastAcc) Add(args []*vector.Vec, i int) {
	if args[0].IsNull(i) || a.first && a.seen {
		return
	}
	a.v, a.seen = args[0].Get(i), true
}

func (a *firstLastAcc) Retract([]*vector.Vec, int) bool { return false }

func (a *firstLastAcc) Result() any { return a.v }

// listAggAcc is LISTAGG(x [, sep]); the default separator is ','.
type listAggAcc struct {
	parts []string
	sep   string
	set   bool
}

func (a *listAggAcc) Add(args []*vector.Vec, i int) {
	if args[0].IsNull(i) {
		return
	}
	if len(args) > 1 && !a.set && !args[1].IsNull(i) {
		a.sep, a.set = asString(args[1].Get(i)), true
	}
	a.parts = append(a.parts, asString(args[0].Get(i)))
}

func (a *listAggAcc) Retract([]*vector.Vec, int) bool { return false }

func (a *listAggAcc) Result() any {
	if len(a.parts) == 0 {
		return nil
	}
	sep := ","
	if a.set {
		sep = a.sep
	}
	return strings.Join(a.parts, sep)
}

// collectAcc is COLLECT (a MULTISET, NULLs skipped, never NULL itself) and
// ARRAY_AGG (an ARRAY keeping NULLs, NULL for empty input).
type collectAcc struct {
	arrayAgg bool
	vals     []any
}

func (a *collectAcc) Add(args []*vector.Vec, i int) {
	if args[0].IsNull(i) && !a.arrayAgg {
		return
	}
	a.vals = append(a.vals, args[0].Get(i))
}

func (a *collectAcc) Retract([]*vector.Vec, int) bool { return false }

func (a *collectAcc) Result() any {
	if len(a.vals) == 0 {
		if a.arrayAgg {
			return nil
		}
		return []any{}
	}
	return append([]any(nil), a.vals...)
}

// boolAcc is BOOL_AND / BOOL_OR.
type boolAcc struct {
	and  bool
	seen bool
	v    bool
}

func (a *boolAcc) Add(args []*vector.Vec, i int) {
	if args[0].IsNull(i) {
		return
	}
	x := args[0].Bools[i]
	if !a.seen {
		a.v, a.seen = x, true
		return
	}
	if a.and {
		a.v = a.v && x
	} else {
		a.v = a.v || x
	}
}

func (a *boolAcc) Retract([]*vector.Vec, int) bool { return false }

func (a *boolAcc) Result() any {
	if !a.seen {
		return nil
	}
	return a.v
}
