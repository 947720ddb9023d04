package functions

import (
	"math"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Operator kernels: arithmetic with Flink's overflow and division rules,
// comparison, three-valued logic, IS tests and string concatenation. The
// operator names are those of engine/plan's Op* constants.

func operatorKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	switch name {
	case "$FOLD_FLOAT":
		if len(args) == 1 {
			return strict(ret, func(_ *Env, a []any) (any, error) { return foldFloat(toFloat(a[0])) })
		}
	case "+", "-", "*", "/", "%":
		if len(args) == 2 {
			return arithKernel(name, args, ret)
		}
	case "MOD":
		if len(args) == 2 {
			return arithKernel("%", args, ret)
		}
	case "U-":
		return negKernel(ret)
	case "U+":
		return func(_ *Env, a []*vector.Vec, _ int) (*vector.Vec, error) { return a[0], nil }
	case "=", "<>", "<", "<=", ">", ">=":
		return compareKernel(name, args)
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		return distinctKernel(name == "IS DISTINCT FROM", args)
	case "AND":
		return andKernel
	case "OR":
		return orKernel
	case "NOT":
		return notKernel
	case "IS NULL", "IS NOT NULL", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN":
		return isKernel(name)
	case "||":
		return strict(ret, func(_ *Env, a []any) (any, error) { return concatValues(a), nil })
	case "IN":
		return inKernel(args)
	case "LIKE", "NOT LIKE", "SIMILAR TO", "NOT SIMILAR TO", "ILIKE":
		return likeKernel(name, ret)
	case "ROW":
		return lenient(ret, func(_ *Env, a []any) (any, error) { return append([]any(nil), a...), nil })
	case "ARRAY":
		return lenient(ret, func(_ *Env, a []any) (any, error) { return append([]any(nil), a...), nil })
	case "MAP":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			m := make(map[any]any, len(a)/2)
			for i := 0; i+1 < len(a); i += 2 {
				m[a[i]] = a[i+1]
			}
			return m, nil
		})
	case "ITEM":
		return strict(ret, itemValue)
	}
	return nil
}

func concatValues(a []any) string {
	s := ""
	for _, x := range a {
		switch v := x.(type) {
		case string:
			s += v
		case []byte:
			s += string(v)
		}
	}
	return s
}

func itemValue(_ *Env, a []any) (any, error) {
	switch c := a[0].(type) {
	case []any:
		i, _ := types.AsInt64(a[1])
		if i < 1 || int(i) > len(c) {
			return nil, nil
		}
		return c[i-1], nil
	case map[any]any:
		return c[a[1]], nil
	}
	return nil, nil
}

// numeric views of a vector

func floatAt(v *vector.Vec, i int) float64 {
	switch v.Class {
	case vector.Float:
		return v.Floats[i]
	case vector.Int:
		return float64(v.Ints[i])
	case vector.Decimal:
		return types.DecimalFloat64(v.Decs[i])
	}
	return 0
}

func decAt(v *vector.Vec, i int) *decimal.Decimal {
	switch v.Class {
	case vector.Decimal:
		return v.Decs[i]
	case vector.Int:
		return types.DecimalValue(v.Ints[i], 0)
	case vector.Float:
		if d, err := types.ParseDecimal(types.JavaFloat(v.Floats[i], 64)); err == nil {
			return d
		}
	}
	return types.DecimalValue(0, 0)
}

// wrapInt narrows a 64-bit result to the width of an integer kind, as
// Java's int arithmetic wraps.
func wrapInt(k types.Kind, x int64) int64 {
	switch k {
	case types.TinyInt:
		return int64(int8(x))
	case types.SmallInt:
		return int64(int16(x))
	case types.Int, types.IntervalYearMonth:
		return int64(int32(x))
	}
	return x
}

var errDivByZero = &EvalError{Exception: "ArithmeticException", Msg: "/ by zero"}

func arithKernel(op string, args []*types.Type, ret *types.Type) ScalarKernel {
	l, r := args[0], args[1]
	switch {
	case isTemporal(l.Kind) || isTemporal(r.Kind):
		return temporalArith(op, l, r, ret)
	case vector.ClassOf(ret) == vector.Int && vector.ClassOf(l) == vector.Int && vector.ClassOf(r) == vector.Int:
		return intArith(op, ret)
	case vector.ClassOf(ret) == vector.Float:
		return floatArith(op, ret)
	case ret.Kind == types.Decimal:
		return decimalArith(op, ret)
	case vector.ClassOf(ret) == vector.Int:
		// INTERVAL * DOUBLE and friends: computed in floating point, truncated.
		return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.Make(ret, n)
			out.SetNulls(unionNulls(a, n))
			for i := range n {
				if out.IsNull(i) {
					continue
				}
				f, err := floatOp(op, floatAt(a[0], i), floatAt(a[1], i))
				if err != nil {
					return nil, err
				}
				out.Ints[i] = wrapInt(ret.Kind, int64(f))
			}
			return out, nil
		}
	}
	return nil
}

func isTemporal(k types.Kind) bool {
	return k == types.Date || k == types.Time || k == types.Timestamp || k == types.TimestampLTZ
}

func intArith(op string, ret *types.Type) ScalarKernel {
	k := ret.Kind
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(ret, n)
		nulls := unionNulls(a, n)
		out.SetNulls(nulls)
		x, y, z := a[0].Ints[:n], a[1].Ints[:n], out.Ints[:n]
		switch op {
		case "+":
			for i := range z {
				z[i] = wrapInt(k, x[i]+y[i])
			}
		case "-":
			for i := range z {
				z[i] = wrapInt(k, x[i]-y[i])
			}
		case "*":
			for i := range z {
				z[i] = wrapInt(k, x[i]*y[i])
			}
		case "/", "%":
			for i := range z {
				if y[i] == 0 {
					if nulls != nil && out.IsNull(i) {
						continue
					}
					return nil, errDivByZero
				}
				if op == "/" {
					if y[i] == -1 {
						z[i] = wrapInt(k, -x[i])
					} else {
						z[i] = wrapInt(k, x[i]/y[i])
					}
				} else if y[i] == -1 {
					z[i] = 0
				} else {
					z[i] = x[i] % y[i]
				}
			}
		}
		return out, nil
	}
}

func floatOp(op string, x, y float64) (float64, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		return x / y, nil
	}
	return math.Mod(x, y), nil
}

func floatArith(op string, ret *types.Type) ScalarKernel {
	single := ret.Kind == types.Float
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(ret, n)
		out.SetNulls(unionNulls(a, n))
		z := out.Floats
		if a[0].Class == vector.Float && a[1].Class == vector.Float && op != "%" {
			x, y := a[0].Floats[:n], a[1].Floats[:n]
			switch op {
			case "+":
				for i := range z {
					z[i] = x[i] + y[i]
				}
			case "-":
				for i := range z {
					z[i] = x[i] - y[i]
				}
			case "*":
				for i := range z {
					z[i] = x[i] * y[i]
				}
			case "/":
				for i := range z {
					z[i] = x[i] / y[i]
				}
			}
		} else {
			for i := range z {
				z[i], _ = floatOp(op, floatAt(a[0], i), floatAt(a[1], i))
			}
		}
		if single {
			for i := range z {
				z[i] = float64(float32(z[i]))
			}
		}
		return out, nil
	}
}

func decimalArith(op string, ret *types.Type) ScalarKernel {
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(ret, n)
		out.SetNulls(unionNulls(a, n))
		for i := range n {
			if out.IsNull(i) {
				continue
			}
			x, y := decAt(a[0], i), decAt(a[1], i)
			var z decimal.Decimal
			switch op {
			case "+":
				z = x.Add(*y)
			case "-":
				z = x.Sub(*y)
			case "*":
				z = x.Mul(*y)
			case "/":
				if y.IsZero() {
					return nil, &EvalError{Exception: "ArithmeticException", Msg: "Division by zero"}
				}
				// Rounded half up at the result's scale, as the quotient
				// is then rounded to it.
				z = x.DivRound(*y, int32(ret.Scale))
			case "%":
				if y.IsZero() {
					return nil, &EvalError{Exception: "ArithmeticException", Msg: "Division by zero"}
				}
				z = x.Mod(*y)
			}
			r := types.RoundDecimal(&z, ret.Prec, ret.Scale)
			if r == nil {
				out.SetNull(i)
				continue
			}
			out.Decs[i] = r
		}
		return out, nil
	}
}

func negKernel(ret *types.Type) ScalarKernel {
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(ret, n)
		out.SetNulls(unionNulls(a, n))
		for i := range n {
			if out.IsNull(i) {
				continue
			}
			switch out.Class {
			case vector.Int:
				out.Ints[i] = wrapInt(ret.Kind, -a[0].Ints[i])
			case vector.Float:
				out.Floats[i] = -a[0].Floats[i]
			case vector.Decimal:
				out.Decs[i] = types.DecimalOf(a[0].Decs[i].Neg())
			}
		}
		return out, nil
	}
}

// temporalArith is DATE/TIME/TIMESTAMP +/- INTERVAL (and INTERVAL +
// datetime), DATE/TIMESTAMP + exact numeric (days).
func temporalArith(op string, l, r, ret *types.Type) ScalarKernel {
	if op != "+" && op != "-" {
		return nil
	}
	dt, iv, swap := l, r, false
	if !isTemporal(l.Kind) {
		dt, iv, swap = r, l, true
	}
	sign := int64(1)
	if op == "-" {
		sign = -1
	}
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		dv, ivv := a[0], a[1]
		if swap {
			dv, ivv = a[1], a[0]
		}
		out := vector.Make(ret, n)
		out.SetNulls(unionNulls(a, n))
		for i := range n {
			if out.IsNull(i) {
				continue
			}
			amount := sign * ivv.Ints[i]
			switch dt.Kind {
			case types.Date:
				days := dv.Ints[i]
				switch iv.Kind {
				case types.IntervalYearMonth:
					t := addMonths(types.DateTime(int32(days)), amount)
					days = int64(types.DateOf(t))
				case types.IntervalDayTime:
					days += amount / 86400000
				default:
					days += amount
				}
				if out.Class == vector.Time {
					out.Times[i] = types.DateTime(int32(days))
				} else {
					out.Ints[i] = days
				}
			case types.Time:
				ns := dv.Ints[i]
				if iv.Kind == types.IntervalDayTime {
					day := int64(24 * time.Hour)
					ns = ((ns+amount*int64(time.Millisecond))%day + day) % day
				}
				out.Ints[i] = ns
			default:
				t := dv.Times[i]
				switch iv.Kind {
				case types.IntervalYearMonth:
					t = addMonths(t, amount)
				case types.IntervalDayTime:
					t = t.Add(time.Duration(amount) * time.Millisecond)
				default:
					t = t.AddDate(0, 0, int(amount))
				}
				out.Times[i] = t
			}
		}
		return out, nil
	}
}

// addMonths adds months as Java's plusMonths: the day is clamped to the
// last day of the resulting month.
func addMonths(t time.Time, months int64) time.Time {
	y, m, d := t.Date()
	total := int64(y)*12 + int64(m-1) + months
	ny, nm := int(total/12), time.Month(total%12+1)
	if total%12 < 0 {
		ny, nm = int(total/12)-1, time.Month(total%12+13)
	}
	last := time.Date(ny, nm+1, 0, 0, 0, 0, 0, time.UTC).Day()
	d = min(d, last)
	h, mi, s := t.Clock()
	return time.Date(ny, nm, d, h, mi, s, t.Nanosecond(), t.Location())
}

// comparer returns a function ordering a[i] and b[i] for two vectors
// whose types Flink can compare (numeric types of different classes are
// compared after widening).
func comparer(l, r *types.Type) func(a, b *vector.Vec, i int) int {
	lc, rc := vector.ClassOf(l), vector.ClassOf(r)
	switch {
	case lc == rc:
		return func(a, b *vector.Vec, i int) int { return vector.Compare(a, i, b, i) }
	case lc == vector.Float || rc == vector.Float:
		return func(a, b *vector.Vec, i int) int { return vector.CompareFloat(floatAt(a, i), floatAt(b, i)) }
	case lc == vector.Decimal || rc == vector.Decimal:
		return func(a, b *vector.Vec, i int) int { return decAt(a, i).Cmp(*decAt(b, i)) }
	case lc == vector.Int && rc == vector.Time || lc == vector.Time && rc == vector.Int:
		// DATE against TIMESTAMP: the date is midnight.
		at := func(v *vector.Vec, i int) time.Time {
			if v.Class == vector.Int {
				return types.DateTime(int32(v.Ints[i]))
			}
			return v.Times[i]
		}
		return func(a, b *vector.Vec, i int) int { return at(a, i).Compare(at(b, i)) }
	}
	return func(a, b *vector.Vec, i int) int { return types.CompareValues(a.Get(i), b.Get(i)) }
}

func compareKernel(op string, args []*types.Type) ScalarKernel {
	test := cmpTest(op)
	boolT := types.New(types.Boolean)
	cmp := comparer(args[0], args[1])
	intFast := vector.ClassOf(args[0]) == vector.Int && vector.ClassOf(args[1]) == vector.Int
	floatFast := vector.ClassOf(args[0]) == vector.Float && vector.ClassOf(args[1]) == vector.Float
	// A DOUBLE against an integer (a column against an integer constant,
	// mostly) compares as doubles, the integer converted in the loop.
	floatInt := vector.ClassOf(args[0]) == vector.Float && vector.ClassOf(args[1]) == vector.Int
	intFloat := vector.ClassOf(args[0]) == vector.Int && vector.ClassOf(args[1]) == vector.Float
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(boolT, n)
		out.SetNulls(unionNulls(a, n))
		z := out.Bools
		if intFast {
			x, y := a[0].Ints[:n], a[1].Ints[:n]
			switch op {
			case "=":
				for i := range z {
					z[i] = x[i] == y[i]
				}
			case "<>":
				for i := range z {
					z[i] = x[i] != y[i]
				}
			case "<":
				for i := range z {
					z[i] = x[i] < y[i]
				}
			case "<=":
				for i := range z {
					z[i] = x[i] <= y[i]
				}
			case ">":
				for i := range z {
					z[i] = x[i] > y[i]
				}
			case ">=":
				for i := range z {
					z[i] = x[i] >= y[i]
				}
			}
			return out, nil
		}
		if floatFast {
			x, y := a[0].Floats[:n], a[1].Floats[:n]
			for i := range z {
				z[i] = test(vector.CompareFloat(x[i], y[i]))
			}
			return out, nil
		}
		if floatInt {
			x, y := a[0].Floats[:n], a[1].Ints[:n]
			for i := range z {
				z[i] = test(vector.CompareFloat(x[i], float64(y[i])))
			}
			return out, nil
		}
		if intFloat {
			x, y := a[0].Ints[:n], a[1].Floats[:n]
			for i := range z {
				z[i] = test(vector.CompareFloat(float64(x[i]), y[i]))
			}
			return out, nil
		}
		for i := range z {
			if out.IsNull(i) {
				continue
			}
			z[i] = test(cmp(a[0], a[1], i))
		}
		return out, nil
	}
}

func cmpTest(op string) func(int) bool {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }
	case "<>":
		return func(c int) bool { return c != 0 }
	case "<":
		return func(c int) bool { return c < 0 }
	case "<=":
		return func(c int) bool { return c <= 0 }
	case ">":
		return func(c int) bool { return c > 0 }
	}
	return func(c int) bool { return c >= 0 }
}

func distinctKernel(distinct bool, args []*types.Type) ScalarKernel {
	cmp := comparer(args[0], args[1])
	boolT := types.New(types.Boolean).WithNullable(false)
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(boolT, n)
		for i := range n {
			ln, rn := a[0].IsNull(i), a[1].IsNull(i)
			same := ln && rn || !ln && !rn && cmp(a[0], a[1], i) == 0
			out.Bools[i] = same != distinct
		}
		return out, nil
	}
}

// andKernel is n-ary AND with SQL's three-valued logic: FALSE wins over
// NULL, NULL over TRUE.
func andKernel(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
	return logic(a, n, false), nil
}

func orKernel(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
	return logic(a, n, true), nil
}

// logic computes AND (dominant false) or OR (dominant true).
func logic(a []*vector.Vec, n int, dominant bool) *vector.Vec {
	out := vector.Make(types.New(types.Boolean), n)
	for i := range n {
		hasNull, hit := false, false
		for _, v := range a {
			if v.IsNull(i) {
				hasNull = true
				continue
			}
			if v.Bools[i] == dominant {
				hit = true
				break
			}
		}
		switch {
		case hit:
			out.Bools[i] = dominant
		case hasNull:
			out.SetNull(i)
		default:
			out.Bools[i] = !dominant
		}
	}
	return out
}

func notKernel(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
	out := vector.Make(types.New(types.Boolean), n)
	out.SetNulls(unionNulls(a, n))
	for i := range n {
		out.Bools[i] = !a[0].Bools[i]
	}
	return out, nil
}

func isKernel(name string) ScalarKernel {
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(types.New(types.Boolean).WithNullable(false), n)
		v := a[0]
		for i := range n {
			null := v.IsNull(i)
			val := !null && v.Class == vector.Bool && v.Bools[i]
			var r bool
			switch name {
			case "IS NULL", "IS UNKNOWN":
				r = null
			case "IS NOT NULL", "IS NOT UNKNOWN":
				r = !null
			case "IS TRUE":
				r = !null && val
			case "IS NOT TRUE":
				r = null || !val
			case "IS FALSE":
				r = !null && !val
			case "IS NOT FALSE":
				r = null || val
			}
			out.Bools[i] = r
		}
		return out, nil
	}
}

// inKernel is x IN (v1, v2, ...): TRUE when some vi equals x, else NULL
// when x or some vi is NULL, else FALSE.
func inKernel(args []*types.Type) ScalarKernel {
	cmps := make([]func(a, b *vector.Vec, i int) int, len(args))
	for j := 1; j < len(args); j++ {
		cmps[j] = comparer(args[0], args[j])
	}
	return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.Make(types.New(types.Boolean), n)
		for i := range n {
			if a[0].IsNull(i) {
				out.SetNull(i)
				continue
			}
			found, sawNull := false, false
			for j := 1; j < len(a); j++ {
				if a[j].IsNull(i) {
					sawNull = true
					continue
				}
				if cmps[j](a[0], a[j], i) == 0 {
					found = true
					break
				}
			}
			switch {
			case found:
				out.Bools[i] = true
			case sawNull:
				out.SetNull(i)
			}
		}
		return out, nil
	}
}

// foldFloat is the value of a constant FLOAT expression as Flink's
// planner folds it: Calcite keeps a FLOAT literal to 7 significant digits
// (its BigDecimal), and an infinite or NaN value has no BigDecimal.
func foldFloat(f float64) (any, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &types.CastError{Msg: "Infinite or NaN", Exception: "NumberFormatException"}
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(float64(float32(f)), 'g', 7, 64), 32)
	if err != nil {
		return nil, err
	}
	return float64(float32(r)), nil
}
