package exec

import (
	"eddy/engine/plan"
	"eddy/engine/vector"
)

// rowComparator returns a function ordering rows i and j of the key
// columns by the sort keys, as compareKeys does, with the comparison of
// each key column chosen once: integer and floating point columns without
// NULLs compare their typed values directly.
func rowComparator(keys []plan.SortKey, cols []*vector.Vec) func(i, j int) int {
	cmps := make([]func(i, j int) int, len(keys))
	for k, key := range keys {
		v := cols[k]
		switch {
		case !v.HasNulls() && v.Class == vector.Int:
			x := v.Ints
			if key.Desc {
				cmps[k] = func(i, j int) int { return compareInt(x[j], x[i]) }
			} else {
				cmps[k] = func(i, j int) int { return compareInt(x[i], x[j]) }
			}
		case !v.HasNulls() && v.Class == vector.Float:
			x := v.Floats
			if key.Desc {
				cmps[k] = func(i, j int) int { return vector.CompareFloat(x[j], x[i]) }
			} else {
				cmps[k] = func(i, j int) int { return vector.CompareFloat(x[i], x[j]) }
			}
		default:
			one, col := keys[k:k+1], cols[k:k+1]
			cmps[k] = func(i, j int) int { return compareKeyRows(one, col, i, col, j) }
		}
	}
	switch len(cmps) {
	case 0:
		return func(int, int) int { return 0 }
	case 1:
		return cmps[0]
	case 2:
		a, b := cmps[0], cmps[1]
		return func(i, j int) int {
			if c := a(i, j); c != 0 {
				return c
			}
			return b(i, j)
		}
	}
	return func(i, j int) int {
		for _, c := range cmps {
			if r := c(i, j); r != 0 {
				return r
			}
		}
		return 0
	}
}

func compareInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
