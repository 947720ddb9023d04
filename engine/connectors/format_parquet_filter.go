package connectors

import (
	"cmp"
	"strings"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// The parquet reader applies the pushed filters it can evaluate exactly
// as the engine does (TakesFilter) to the rows it decodes, so the rows it
// returns already pass them and a filter column the query does not
// return is never handed on: comparisons of integer columns with an
// integer, DOUBLE columns with a double (NaN compares false but for <>),
// VARCHAR columns with a string (byte order), and NULL tests. NULL passes
// no comparison.

// TakesFilter implements FilterBulkCodec.
func (c *parquetCodec) TakesFilter(col Column, f RowFilter) bool {
	if f.Op == FilterIsNull || f.Op == FilterIsNotNull {
		return true
	}
	switch f.Value.(type) {
	case int64:
		switch col.Type.Kind {
		case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
			return true
		}
	case float64:
		return col.Type.Kind == types.Double
	case string:
		return col.Type.Kind == types.VarChar
	}
	return false
}

// filterMask sets keep[j] false for each of the k rows of vec from base
// on that fails f.
func filterMask(f RowFilter, vec *vector.Vec, base int, keep []bool) {
	for j := range keep {
		if !keep[j] {
			continue
		}
		i := base + j
		null := vec.IsNull(i)
		switch f.Op {
		case FilterIsNull:
			keep[j] = null
			continue
		case FilterIsNotNull:
			keep[j] = !null
			continue
		}
		if null {
			keep[j] = false
			continue
		}
		var c int
		switch x := f.Value.(type) {
		case int64:
			c = cmp.Compare(vec.Ints[i], x)
		case float64:
			y := vec.Floats[i]
			if y != y { // NaN: only <> holds
				keep[j] = f.Op == FilterNe
				continue
			}
			c = cmp.Compare(y, x)
		case string:
			c = strings.Compare(vec.Strs[i], x)
		}
		switch f.Op {
		case FilterEq:
			keep[j] = c == 0
		case FilterNe:
			keep[j] = c != 0
		case FilterLt:
			keep[j] = c < 0
		case FilterLe:
			keep[j] = c <= 0
		case FilterGt:
			keep[j] = c > 0
		case FilterGe:
			keep[j] = c >= 0
		}
	}
}

// compactVec keeps the rows of vec from base on whose keep entry is true,
// in order.
func compactVec(vec *vector.Vec, base int, keep []bool) {
	n := base
	for j, k := range keep {
		if k {
			if base+j != n {
				vec.SetFrom(n, vec, base+j)
			}
			n++
		}
	}
	old := vec.Len
	for i := n; i < old; i++ {
		vec.ClearNull(i)
	}
	switch vec.Class {
	case vector.Bool:
		vec.Bools = vec.Bools[:n]
	case vector.Int:
		vec.Ints = vec.Ints[:n]
	case vector.Float:
		vec.Floats = vec.Floats[:n]
	case vector.Decimal:
		vec.Decs = vec.Decs[:n]
	case vector.String:
		vec.Strs = vec.Strs[:n]
	case vector.Bytes:
		vec.Bytes = vec.Bytes[:n]
	case vector.Time:
		vec.Times = vec.Times[:n]
	default:
		vec.Anys = vec.Anys[:n]
	}
	vec.Len = n
}
