package vector

import (
	"time"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
)

// Class is the physical storage of a vector.
type Class uint8

// Physical classes.
const (
	Bool    Class = iota + 1 // BOOLEAN
	Int                      // TINYINT..BIGINT, DATE (days), TIME (nanos of day), INTERVAL (months or millis)
	Float                    // FLOAT (rounded to float32 after each operation), DOUBLE
	Decimal                  // DECIMAL: *decimal.Decimal, never mutated
	String                   // CHAR, VARCHAR
	Bytes                    // BINARY, VARBINARY
	Time                     // TIMESTAMP, TIMESTAMP_LTZ
	Any                      // ARRAY, MULTISET, MAP, ROW, RAW, NULL and VARIANT (*types.VariantValue): engine values
)

// ClassOf returns the physical class of a type.
func ClassOf(t *types.Type) Class {
	switch t.Kind {
	case types.Boolean:
		return Bool
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.Time,
		types.IntervalYearMonth, types.IntervalDayTime:
		return Int
	case types.Float, types.Double:
		return Float
	case types.Decimal:
		return Decimal
	case types.Char, types.VarChar:
		return String
	case types.Binary, types.VarBinary:
		return Bytes
	case types.Timestamp, types.TimestampLTZ, types.TimestampTZ:
		return Time
	}
	return Any
}

// Vec is a column of values of one type. Only the slice of its class is
// used; its length is Len. A set bit in the null bitmap marks a NULL (the
// slot's value is then the zero value).
type Vec struct {
	T      *types.Type
	Class  Class
	Len    int
	nulls  []uint64 // nil when no value is NULL
	Bools  []bool
	Ints   []int64
	Floats []float64
	Decs   []*decimal.Decimal
	Strs   []string
	Bytes  [][]byte
	Times  []time.Time
	Anys   []any
}

// New returns an empty vector of type t with room for capacity values.
func New(t *types.Type, capacity int) *Vec {
	v := &Vec{T: t, Class: ClassOf(t)}
	switch v.Class {
	case Bool:
		v.Bools = make([]bool, 0, capacity)
	case Int:
		v.Ints = make([]int64, 0, capacity)
	case Float:
		v.Floats = make([]float64, 0, capacity)
	case Decimal:
		v.Decs = make([]*decimal.Decimal, 0, capacity)
	case String:
		v.Strs = make([]string, 0, capacity)
	case Bytes:
		v.Bytes = make([][]byte, 0, capacity)
	case Time:
		v.Times = make([]time.Time, 0, capacity)
	default:
		v.Anys = make([]any, 0, capacity)
	}
	return v
}

// Reserve makes room for n more values without a reallocation, growing
// the storage to at least twice its capacity when it must grow (append
// grows a large slice by a quarter, so a vector appended to batch after
// batch would be copied many more times).
func (v *Vec) Reserve(n int) {
	switch v.Class {
	case Bool:
		v.Bools = reserve(v.Bools, n)
	case Int:
		v.Ints = reserve(v.Ints, n)
	case Float:
		v.Floats = reserve(v.Floats, n)
	case Decimal:
		v.Decs = reserve(v.Decs, n)
	case String:
		v.Strs = reserve(v.Strs, n)
	case Bytes:
		v.Bytes = reserve(v.Bytes, n)
	case Time:
		v.Times = reserve(v.Times, n)
	default:
		v.Anys = reserve(v.Anys, n)
	}
}

func reserve[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]T, len(s), max(len(s)+n, 2*cap(s)))
	copy(out, s)
	return out
}

// Make returns a vector of type t holding n zero (non-null) values, for
// kernels that write by index.
func Make(t *types.Type, n int) *Vec {
	v := &Vec{T: t, Class: ClassOf(t), Len: n}
	switch v.Class {
	case Bool:
		v.Bools = make([]bool, n)
	case Int:
		v.Ints = make([]int64, n)
	case Float:
		v.Floats = make([]float64, n)
	case Decimal:
		v.Decs = make([]*decimal.Decimal, n)
	case String:
		v.Strs = make([]string, n)
	case Bytes:
		v.Bytes = make([][]byte, n)
	case Time:
		v.Times = make([]time.Time, n)
	default:
		v.Anys = make([]any, n)
	}
	return v
}

// IsNull reports whether value i is NULL.
func (v *Vec) IsNull(i int) bool {
	w := i >> 6
	return w < len(v.nulls) && v.nulls[w]&(1<<(uint(i)&63)) != 0
}

// HasNulls reports whether any value may be NULL.
func (v *Vec) HasNulls() bool { return v.nulls != nil }

// SetNull marks value i as NULL.
func (v *Vec) SetNull(i int) {
	if v.nulls == nil {
		v.nulls = make([]uint64, (max(v.Len, i+1)+63)>>6)
	}
	for i>>6 >= len(v.nulls) {
		v.nulls = append(v.nulls, 0)
	}
	v.nulls[i>>6] |= 1 << (uint(i) & 63)
	switch v.Class {
	case Decimal:
		v.Decs[i] = nil
	case Any:
		v.Anys[i] = nil
	}
}

// ClearNull marks value i as not NULL.
func (v *Vec) ClearNull(i int) {
	if v.nulls != nil && i>>6 < len(v.nulls) {
		v.nulls[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// Nulls returns the null bitmap (nil when no value is NULL); callers must
// not modify it.
func (v *Vec) Nulls() []uint64 { return v.nulls }

// SetNulls replaces the null bitmap (nil clears it). The bitmap is used,
// not copied.
func (v *Vec) SetNulls(b []uint64) { v.nulls = b }

// AppendNull adds a NULL.
func (v *Vec) AppendNull() {
	v.appendZero()
	v.SetNull(v.Len - 1)
}

func (v *Vec) appendZero() {
	switch v.Class {
	case Bool:
		v.Bools = append(v.Bools, false)
	case Int:
		v.Ints = append(v.Ints, 0)
	case Float:
		v.Floats = append(v.Floats, 0)
	case Decimal:
		v.Decs = append(v.Decs, nil)
	case String:
		v.Strs = append(v.Strs, "")
	case Bytes:
		v.Bytes = append(v.Bytes, nil)
	case Time:
		v.Times = append(v.Times, time.Time{})
	default:
		v.Anys = append(v.Anys, nil)
	}
	v.Len++
}

// Append adds an engine value (nil is NULL). The value must have the Go
// type of the vector's SQL type.
func (v *Vec) Append(x any) {
	if x == nil {
		v.AppendNull()
		return
	}
	switch v.Class {
	case Bool:
		v.Bools = append(v.Bools, x.(bool))
	case Int:
		v.Ints = append(v.Ints, toInt(x))
	case Float:
		switch f := x.(type) {
		case float32:
			v.Floats = append(v.Floats, float64(f))
		default:
			v.Floats = append(v.Floats, f.(float64))
		}
	case Decimal:
		v.Decs = append(v.Decs, x.(*decimal.Decimal))
	case String:
		v.Strs = append(v.Strs, x.(string))
	case Bytes:
		v.Bytes = append(v.Bytes, x.([]byte))
	case Time:
		v.Times = append(v.Times, x.(time.Time))
	default:
		v.Anys = append(v.Anys, x)
	}
	v.Len++
}

func toInt(x any) int64 {
	switch n := x.(type) {
	case time.Duration:
		return int64(n)
	}
	n, _ := types.AsInt64(x)
	return n
}

// Get returns value i as an engine value (nil for NULL).
func (v *Vec) Get(i int) any {
	if v.IsNull(i) {
		return nil
	}
	switch v.Class {
	case Bool:
		return v.Bools[i]
	case Int:
		n := v.Ints[i]
		switch v.T.Kind {
		case types.Time:
			return time.Duration(n)
		case types.IntervalDayTime, types.BigInt:
			return n
		}
		return types.IntegerValue(v.T.Kind, n)
	case Float:
		if v.T.Kind == types.Float {
			return float32(v.Floats[i])
		}
		return v.Floats[i]
	case Decimal:
		return v.Decs[i]
	case String:
		return v.Strs[i]
	case Bytes:
		return v.Bytes[i]
	case Time:
		return v.Times[i]
	}
	return v.Anys[i]
}

// AppendFrom adds value i of src (of the same class) without boxing.
func (v *Vec) AppendFrom(src *Vec, i int) {
	if src.IsNull(i) {
		v.AppendNull()
		return
	}
	switch v.Class {
	case Bool:
		v.Bools = append(v.Bools, src.Bools[i])
	case Int:
		v.Ints = append(v.Ints, src.Ints[i])
	case Float:
		v.Floats = append(v.Floats, src.Floats[i])
	case Decimal:
		v.Decs = append(v.Decs, src.Decs[i])
	case String:
		v.Strs = append(v.Strs, src.Strs[i])
	case Bytes:
		v.Bytes = append(v.Bytes, src.Bytes[i])
	case Time:
		v.Times = append(v.Times, src.Times[i])
	default:
		v.Anys = append(v.Anys, src.Anys[i])
	}
	v.Len++
}

// Gather returns a new vector of the values at the given positions.
func (v *Vec) Gather(sel []int) *Vec {
	out := New(v.T, len(sel))
	if v.nulls == nil && (v.Class == Int || v.Class == Float) {
		return v.GatherInto(out, sel)
	}
	for _, i := range sel {
		out.AppendFrom(v, i)
	}
	return out
}

// GatherInto is Gather filling dst, a vector of v's type whose values are
// no longer needed, when it is an integer or floating-point vector
// without NULLs (nil or another: a new vector).
func (v *Vec) GatherInto(dst *Vec, sel []int) *Vec {
	if dst == nil || dst.Class != v.Class || v.nulls != nil || (v.Class != Int && v.Class != Float) {
		return v.Gather(sel)
	}
	dst.T, dst.Len, dst.nulls = v.T, len(sel), nil
	switch v.Class {
	case Int:
		out := reserve(dst.Ints[:0], len(sel))[:len(sel)]
		for j, i := range sel {
			out[j] = v.Ints[i]
		}
		dst.Ints = out
	case Float:
		out := reserve(dst.Floats[:0], len(sel))[:len(sel)]
		for j, i := range sel {
			out[j] = v.Floats[i]
		}
		dst.Floats = out
	}
	return dst
}

// Const returns a vector of n copies of an engine value.
func Const(t *types.Type, x any, n int) *Vec {
	if x == nil {
		v := Make(t, n)
		v.nulls = make([]uint64, (n+63)>>6)
		for i := range v.nulls {
			v.nulls[i] = ^uint64(0)
		}
		return v
	}
	one := New(t, 1)
	one.Append(x)
	v := Make(t, n)
	switch v.Class {
	case Bool:
		for i := range v.Bools {
			v.Bools[i] = one.Bools[0]
		}
	case Int:
		for i := range v.Ints {
			v.Ints[i] = one.Ints[0]
		}
	case Float:
		for i := range v.Floats {
			v.Floats[i] = one.Floats[0]
		}
	case Decimal:
		for i := range v.Decs {
			v.Decs[i] = one.Decs[0]
		}
	case String:
		for i := range v.Strs {
			v.Strs[i] = one.Strs[0]
		}
	case Bytes:
		for i := range v.Bytes {
			v.Bytes[i] = one.Bytes[0]
		}
	case Time:
		for i := range v.Times {
			v.Times[i] = one.Times[0]
		}
	default:
		for i := range v.Anys {
			v.Anys[i] = x
		}
	}
	return v
}

// SetFrom overwrites value i (of a vector made with Make) with value j of
// src, of the same class.
func (v *Vec) SetFrom(i int, src *Vec, j int) {
	if src.IsNull(j) {
		v.SetNull(i)
		return
	}
	v.ClearNull(i)
	switch v.Class {
	case Bool:
		v.Bools[i] = src.Bools[j]
	case Int:
		v.Ints[i] = src.Ints[j]
	case Float:
		v.Floats[i] = src.Floats[j]
	case Decimal:
		v.Decs[i] = src.Decs[j]
	case String:
		v.Strs[i] = src.Strs[j]
	case Bytes:
		v.Bytes[i] = src.Bytes[j]
	case Time:
		v.Times[i] = src.Times[j]
	default:
		v.Anys[i] = src.Anys[j]
	}
}

// AppendVec adds every value of src (same class).
func (v *Vec) AppendVec(src *Vec) {
	if src.nulls == nil {
		switch v.Class {
		case Bool:
			v.Bools = append(v.Bools, src.Bools[:src.Len]...)
		case Int:
			v.Ints = append(v.Ints, src.Ints[:src.Len]...)
		case Float:
			v.Floats = append(v.Floats, src.Floats[:src.Len]...)
		case Decimal:
			v.Decs = append(v.Decs, src.Decs[:src.Len]...)
		case String:
			v.Strs = append(v.Strs, src.Strs[:src.Len]...)
		case Bytes:
			v.Bytes = append(v.Bytes, src.Bytes[:src.Len]...)
		case Time:
			v.Times = append(v.Times, src.Times[:src.Len]...)
		default:
			v.Anys = append(v.Anys, src.Anys[:src.Len]...)
		}
		v.Len += src.Len
		return
	}
	for i := range src.Len {
		v.AppendFrom(src, i)
	}
}
