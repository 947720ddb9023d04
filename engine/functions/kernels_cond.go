package functions

import (
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Conditional kernels: COALESCE, IFNULL, IF, NULLIF, GREATEST, LEAST. CASE
// is compiled by the executor, which evaluates only the branches it needs.

func condKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	switch name {
	case "COALESCE", "IFNULL":
		return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.New(ret, n)
			for i := range n {
				found := false
				for _, v := range a {
					if !v.IsNull(i) {
						out.Append(convert(v.Get(i), v.T, ret))
						found = true
						break
					}
				}
				if !found {
					out.AppendNull()
				}
			}
			return out, nil
		}
	case "IF":
		return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.New(ret, n)
			for i := range n {
				v := a[2]
				if !a[0].IsNull(i) && a[0].Bools[i] {
					v = a[1]
				}
				out.Append(convert(v.Get(i), v.T, ret))
			}
			return out, nil
		}
	case "NULLIF":
		cmp := comparer(args[0], args[1])
		return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.New(ret, n)
			for i := range n {
				if a[0].IsNull(i) || !a[1].IsNull(i) && cmp(a[0], a[1], i) == 0 {
					out.AppendNull()
					continue
				}
				out.Append(convert(a[0].Get(i), a[0].T, ret))
			}
			return out, nil
		}
	case "GREATEST", "LEAST":
		want := 1
		if name == "LEAST" {
			want = -1
		}
		return strict(ret, func(_ *Env, a []any) (any, error) {
			best := convert(a[0], args[0], ret)
			for j := 1; j < len(a); j++ {
				x := convert(a[j], args[j], ret)
				if types.CompareValues(x, best)*want > 0 {
					best = x
				}
			}
			return best, nil
		})
	}
	return nil
}

// convert casts a value to the call's common result type when the
// validator left the widening to the executor; on failure the value is
// kept.
func convert(v any, from, to *types.Type) any {
	if v == nil || from.Kind == to.Kind && (to.Kind != types.Decimal || from.Scale == to.Scale) {
		return v
	}
	c, err := types.CastValue(v, from, to)
	if err != nil {
		return v
	}
	return c
}
