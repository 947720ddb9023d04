package vector

import (
	"encoding/binary"
	"math"

	"eddy/engine/types"
)

// AppendKey appends an encoding of value i to buf such that two values
// have equal encodings exactly when SQL grouping treats them as the same
// (NULL equals NULL here, as in GROUP BY and DISTINCT; 1.0 and 1.00 are
// the same DECIMAL). Keys of several columns concatenate unambiguously.
func AppendKey(buf []byte, v *Vec, i int) []byte {
	if v.IsNull(i) {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	switch v.Class {
	case Bool:
		if v.Bools[i] {
			return append(buf, 1)
		}
		return append(buf, 0)
	case Int:
		return binary.LittleEndian.AppendUint64(buf, uint64(v.Ints[i]))
	case Float:
		f := v.Floats[i]
		if f == 0 {
			f = 0 // -0.0 groups with 0.0
		}
		if math.IsNaN(f) {
			f = math.NaN()
		}
		return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
	case Decimal:
		// 1.0 and 1.00 are one key: the coefficient without trailing
		// zeros and its exponent.
		r := v.Decs[i].Normalize()
		buf = appendString(buf, r.Coefficient().String())
		return binary.LittleEndian.AppendUint32(buf, uint32(r.Exponent()))
	case String:
		return appendString(buf, v.Strs[i])
	case Bytes:
		return appendString(buf, string(v.Bytes[i]))
	case Time:
		t := v.Times[i]
		buf = binary.LittleEndian.AppendUint64(buf, uint64(t.Unix()))
		return binary.LittleEndian.AppendUint32(buf, uint32(t.Nanosecond()))
	}
	if x, ok := v.Anys[i].(*types.VariantValue); ok {
		// A variant's key is its encoding: equal exactly when = says so.
		return appendString(buf, string(x.Encode()))
	}
	return appendString(buf, types.ValueString(v.Anys[i], v.T))
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// Compare orders value i of a and value j of b (same class), NULLs not
// considered: the caller checks IsNull first.
func Compare(a *Vec, i int, b *Vec, j int) int {
	switch a.Class {
	case Bool:
		x, y := a.Bools[i], b.Bools[j]
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case Int:
		x, y := a.Ints[i], b.Ints[j]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case Float:
		return CompareFloat(a.Floats[i], b.Floats[j])
	case Decimal:
		return a.Decs[i].Cmp(*b.Decs[j])
	case String:
		x, y := a.Strs[i], b.Strs[j]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case Time:
		return a.Times[i].Compare(b.Times[j])
	}
	return types.CompareValues(a.Get(i), b.Get(j))
}

// CompareFloat orders floats as Java's Double.compare: NaN above
// +Infinity, equal NaNs equal.
func CompareFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	case math.IsNaN(x) && math.IsNaN(y):
		return 0
	case math.IsNaN(x):
		return 1
	}
	return -1
}
