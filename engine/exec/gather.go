package exec

import (
	"eddy/engine/types"
	"eddy/engine/vector"
)

// gatherOrNull returns a vector of type t holding the values of src at
// the positions idx, a whole column at a time; a negative position (or a
// nil src) gives NULL. src must have t's class.
func gatherOrNull(src *vector.Vec, t *types.Type, idx []int) *vector.Vec {
	out := vector.Make(t, len(idx))
	if src == nil {
		out.SetNulls(allNulls(len(idx)))
		return out
	}
	if src.Class != out.Class {
		out = vector.New(t, len(idx))
		for _, i := range idx {
			if i < 0 {
				out.AppendNull()
				continue
			}
			out.AppendFrom(src, i)
		}
		return out
	}
	switch src.Class {
	case vector.Bool:
		gatherInto(out.Bools, src.Bools, idx)
	case vector.Int:
		gatherInto(out.Ints, src.Ints, idx)
	case vector.Float:
		gatherInto(out.Floats, src.Floats, idx)
	case vector.Decimal:
		gatherInto(out.Decs, src.Decs, idx)
	case vector.String:
		gatherInto(out.Strs, src.Strs, idx)
	case vector.Bytes:
		gatherInto(out.Bytes, src.Bytes, idx)
	case vector.Time:
		gatherInto(out.Times, src.Times, idx)
	default:
		gatherInto(out.Anys, src.Anys, idx)
	}
	var nulls []uint64
	srcNulls := src.HasNulls()
	for j, i := range idx {
		if i < 0 || srcNulls && src.IsNull(i) {
			if nulls == nil {
				nulls = make([]uint64, (len(idx)+63)>>6)
			}
			nulls[j>>6] |= 1 << (uint(j) & 63)
		}
	}
	out.SetNulls(nulls)
	return out
}

// gatherInto sets dst[j] to src[idx[j]], skipping negative positions.
func gatherInto[T any](dst, src []T, idx []int) {
	dst = dst[:len(idx)]
	for j, i := range idx {
		if i >= 0 {
			dst[j] = src[i]
		}
	}
}

// allNulls is a null bitmap of n NULLs.
func allNulls(n int) []uint64 {
	b := make([]uint64, (n+63)>>6)
	for i := range b {
		b[i] = ^uint64(0)
	}
	return b
}
