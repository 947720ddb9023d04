package connectors

import (
	"cmp"
	"strings"

	"github.com/parquet-go/parquet-go"

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
	if f.Op != FilterIsNull && f.Op != FilterIsNotNull && !vec.HasNulls() {
		// A vector without NULLs: one loop per operator and type.
		end := base + len(keep)
		switch x := f.Value.(type) {
		case int64:
			maskOrdered(vec.Ints[base:end], x, f.Op, keep)
			return
		case float64:
			if x == x { // NaN fails every comparison but <>, as Go's operators say
				maskOrdered(vec.Floats[base:end], x, f.Op, keep)
				return
			}
		case string:
			maskOrdered(vec.Strs[base:end], x, f.Op, keep)
			return
		}
	}
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

// maskOrdered clears keep[j] where vals[j] op x is false (without a
// branch per value: the comparisons are data, not control flow).
func maskOrdered[T int64 | float64 | string](vals []T, x T, op FilterOp, keep []bool) {
	keep = keep[:len(vals)]
	switch op {
	case FilterEq:
		for j, v := range vals {
			keep[j] = b2u(keep[j])&b2u(v == x) != 0
		}
	case FilterNe:
		for j, v := range vals {
			keep[j] = b2u(keep[j])&b2u(v != x) != 0
		}
	case FilterLt:
		for j, v := range vals {
			keep[j] = b2u(keep[j])&b2u(v < x) != 0
		}
	case FilterLe:
		for j, v := range vals {
			keep[j] = b2u(keep[j])&b2u(v <= x) != 0
		}
	case FilterGt:
		for j, v := range vals {
			keep[j] = b2u(keep[j])&b2u(v > x) != 0
		}
	case FilterGe:
		for j, v := range vals {
			keep[j] = b2u(keep[j])&b2u(v >= x) != 0
		}
	}
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}

// mask applies filter f to the cursor's next len(keep) values, clearing
// keep[j] for those that fail, and moves past them. Runs without NULLs
// of a dictionary page are tested by the dictionary's values, each once,
// and those of a plain 64-bit page where they are; the others are
// decoded into scratch (emptied first) and tested there.
func (fc *flatCursor) mask(f RowFilter, keep []bool, scratch *vector.Vec) error {
	for j := 0; j < len(keep); {
		if fc.li >= fc.n {
			if err := fc.morePage(); err != nil {
				return err
			}
			continue
		}
		m := min(len(keep)-j, fc.n-fc.li)
		if fc.defs == nil && fc.maskPresent(f, keep[j:j+m]) {
			fc.vi += m
			fc.li += m
		} else {
			resetVec(scratch)
			fc.appendRun(scratch, m)
			filterMask(f, scratch, 0, keep[j:j+m])
		}
		j += m
	}
	return nil
}

// maskPresent tests the len(keep) values from fc.vi on (a run without
// NULLs) when it can do so without decoding them; false if it cannot.
func (fc *flatCursor) maskPresent(f RowFilter, keep []bool) bool {
	lo, hi := fc.vi, fc.vi+len(keep)
	switch f.Op {
	case FilterIsNotNull:
		return true
	case FilterIsNull:
		clear(keep)
		return true
	}
	if fc.idx != nil {
		pass, ok := fc.dictPass(f)
		if !ok {
			return false
		}
		for j, d := range fc.idx[lo:hi] {
			keep[j] = b2u(keep[j])&b2u(pass[d]) != 0
		}
		return true
	}
	switch x := f.Value.(type) {
	case int64:
		if fc.ints != nil {
			maskOrdered(fc.ints[lo:hi], x, f.Op, keep)
			return true
		}
	case float64:
		if fc.flts != nil && x == x {
			maskOrdered(fc.flts[lo:hi], x, f.Op, keep)
			return true
		}
	}
	return false
}

// dictPass returns, per value of the page's dictionary, whether it passes
// f (computed once per dictionary).
func (fc *flatCursor) dictPass(f RowFilter) ([]bool, bool) {
	if fc.passOK && fc.passGen == fc.dictGen {
		return fc.pass, true
	}
	var n int
	switch f.Value.(type) {
	case int64:
		if fc.kind != parquet.Int32 && fc.kind != parquet.Int64 {
			return nil, false
		}
		n = len(fc.dInts)
	case float64:
		if fc.kind != parquet.Double {
			return nil, false
		}
		n = len(fc.dFlts)
	case string:
		if fc.kind != parquet.ByteArray {
			return nil, false
		}
		n = len(fc.dStrs)
	default:
		return nil, false
	}
	fc.pass = append(fc.pass[:0], make([]bool, n)...)
	for i := range fc.pass {
		fc.pass[i] = true
	}
	switch x := f.Value.(type) {
	case int64:
		maskOrdered(fc.dInts, x, f.Op, fc.pass)
	case float64:
		if x != x {
			// NaN: only <> holds, for every value.
			for i := range fc.pass {
				fc.pass[i] = f.Op == FilterNe
			}
		} else {
			maskOrdered(fc.dFlts, x, f.Op, fc.pass)
		}
	case string:
		maskOrdered(fc.dStrs, x, f.Op, fc.pass)
	}
	fc.passOK, fc.passGen = true, fc.dictGen
	return fc.pass, true
}
