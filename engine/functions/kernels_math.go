package functions

import (
	"math"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Math kernels (types-and-functions.md §5).

func mathKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	unary := func(fn func(float64) float64) ScalarKernel {
		return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.Make(ret, n)
			out.SetNulls(unionNulls(a, n))
			for i := range n {
				if !out.IsNull(i) {
					out.Floats[i] = fn(floatAt(a[0], i))
				}
			}
			return out, nil
		}
	}
	switch name {
	case "SQRT":
		return unary(math.Sqrt)
	case "LN":
		return unary(math.Log)
	case "LOG10":
		return unary(math.Log10)
	case "LOG2":
		return unary(math.Log2)
	case "EXP":
		return unary(math.Exp)
	case "SIN":
		return unary(math.Sin)
	case "COS":
		return unary(math.Cos)
	case "TAN":
		return unary(math.Tan)
	case "COT":
		return unary(func(x float64) float64 { return 1 / math.Tan(x) })
	case "ASIN":
		return unary(math.Asin)
	case "ACOS":
		return unary(math.Acos)
	case "ATAN":
		return unary(math.Atan)
	case "SINH":
		return unary(math.Sinh)
	case "COSH":
		return unary(math.Cosh)
	case "TANH":
		return unary(math.Tanh)
	case "DEGREES":
		return unary(func(x float64) float64 { return x * 180 / math.Pi })
	case "RADIANS":
		return unary(func(x float64) float64 { return x * math.Pi / 180 })
	case "LOG":
		if len(args) == 1 {
			return unary(math.Log)
		}
		return strict(ret, func(_ *Env, a []any) (any, error) {
			return math.Log(toFloat(a[1])) / math.Log(toFloat(a[0])), nil
		})
	case "POWER", "POW":
		return strict(ret, func(_ *Env, a []any) (any, error) { return math.Pow(toFloat(a[0]), toFloat(a[1])), nil })
	case "ATAN2":
		return strict(ret, func(_ *Env, a []any) (any, error) { return math.Atan2(toFloat(a[0]), toFloat(a[1])), nil })
	case "PI":
		return func(_ *Env, _ []*vector.Vec, n int) (*vector.Vec, error) { return vector.Const(ret, math.Pi, n), nil }
	case "E":
		return func(_ *Env, _ []*vector.Vec, n int) (*vector.Vec, error) { return vector.Const(ret, math.E, n), nil }
	case "ABS":
		return strict(ret, func(_ *Env, a []any) (any, error) { return absValue(a[0]), nil })
	case "SIGN":
		return strict(ret, func(_ *Env, a []any) (any, error) { return signValue(a[0], ret), nil })
	case "CEIL", "CEILING", "FLOOR":
		if len(args) == 1 && args[0].Kind.IsNumeric() {
			up := name != "FLOOR"
			return strict(ret, func(_ *Env, a []any) (any, error) { return roundInteger(a[0], up, ret) })
		}
	case "ROUND", "TRUNCATE":
		mode := roundHalfUp
		if name == "TRUNCATE" {
			mode = roundDown
		}
		return strict(ret, func(_ *Env, a []any) (any, error) {
			digits := int64(0)
			if len(a) > 1 {
				digits, _ = types.AsInt64(a[1])
			}
			return roundValue(a[0], digits, mode, ret)
		})
	}
	return nil
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case *decimal.Decimal:
		return types.DecimalFloat64(x)
	}
	n, _ := types.AsInt64(v)
	return float64(n)
}

func absValue(v any) any {
	switch x := v.(type) {
	case int8:
		if x < 0 {
			return -x
		}
	case int16:
		if x < 0 {
			return -x
		}
	case int32:
		if x < 0 {
			return -x
		}
	case int64:
		if x < 0 {
			return -x
		}
	case float32:
		return float32(math.Abs(float64(x)))
	case float64:
		return math.Abs(x)
	case *decimal.Decimal:
		return types.DecimalOf(x.Abs())
	}
	return v
}

func signValue(v any, ret *types.Type) any {
	switch x := v.(type) {
	case float32:
		return float32(sign(float64(x)))
	case float64:
		return sign(x)
	case *decimal.Decimal:
		return types.RoundDecimal(types.DecimalValue(int64(x.Sign()), 0), ret.Prec, ret.Scale)
	}
	n, _ := types.AsInt64(v)
	return types.IntegerValue(ret.Kind, int64(sign(float64(n))))
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

func roundInteger(v any, up bool, ret *types.Type) (any, error) {
	switch x := v.(type) {
	case float32:
		if up {
			return float32(math.Ceil(float64(x))), nil
		}
		return float32(math.Floor(float64(x))), nil
	case float64:
		if up {
			return math.Ceil(x), nil
		}
		return math.Floor(x), nil
	case *decimal.Decimal:
		var out decimal.Decimal
		if up {
			out = x.RoundCeil(0)
		} else {
			out = x.RoundFloor(0)
		}
		return types.RoundDecimal(&out, ret.Prec, ret.Scale), nil
	}
	return v, nil
}

func roundValue(v any, digits int64, mode roundMode, ret *types.Type) (any, error) {
	switch x := v.(type) {
	case float32, float64:
		f := toFloat(x)
		d, err := types.ParseDecimal(types.JavaFloat(f, 64))
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return v, nil
		}
		r := roundDec(d, digits, mode)
		g := types.DecimalFloat64(r)
		if ret.Kind == types.Float {
			return float32(g), nil
		}
		return g, nil
	case *decimal.Decimal:
		r := roundDec(x, digits, mode)
		return types.RoundDecimal(r, ret.Prec, ret.Scale), nil
	}
	n, _ := types.AsInt64(v)
	if digits >= 0 {
		return v, nil
	}
	r := roundDec(types.DecimalValue(n, 0), digits, mode)
	i, _ := types.DecimalInt64(r)
	return types.IntegerValue(ret.Kind, i), nil
}

// roundMode is how ROUND (half up) and TRUNCATE (toward zero) drop digits.
type roundMode bool

const (
	roundHalfUp roundMode = false
	roundDown   roundMode = true
)

// roundDec returns d with digits fraction digits (a negative digits
// rounds to tens, hundreds, ..., with scale 0).
func roundDec(d *decimal.Decimal, digits int64, mode roundMode) *decimal.Decimal {
	var out decimal.Decimal
	if mode == roundDown {
		out = d.RoundDown(int32(digits))
	} else {
		out = d.Round(int32(digits))
	}
	if digits < 0 {
		out = decimal.NewFromBigInt(out.BigInt(), 0)
	}
	return &out
}
