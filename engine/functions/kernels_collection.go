package functions

import (
	"fmt"
	"sort"
	"strings"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Collection kernels over ARRAY ([]any) and MAP (map[any]any) values.

func collectionKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	elemEq := func(a, b any) bool {
		if a == nil || b == nil {
			return a == nil && b == nil
		}
		return types.CompareValues(widen(a), widen(b)) == 0
	}
	list := func(v any) []any { xs, _ := v.([]any); return xs }
	switch name {
	case "CARDINALITY":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			switch c := a[0].(type) {
			case []any:
				return int32(len(c)), nil
			case map[any]any:
				return int32(len(c)), nil
			}
			return nil, nil
		})
	case "ELEMENT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			xs := list(a[0])
			switch len(xs) {
			case 0:
				return nil, nil
			case 1:
				return xs[0], nil
			}
			// The generated code of Flink's ELEMENT throws this.
			return nil, &EvalError{Exception: "RuntimeException", Msg: "Array has more than one element."}
		})
	case "ARRAY_CONTAINS":
		return func(env *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			return lenient(ret, func(_ *Env, v []any) (any, error) {
				if v[0] == nil {
					return nil, nil
				}
				for _, e := range list(v[0]) {
					if elemEq(e, v[1]) {
						return true, nil
					}
				}
				return false, nil
			})(env, a, n)
		}
	case "ARRAY_POSITION":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			for i, e := range list(a[0]) {
				if elemEq(e, a[1]) {
					return int32(i + 1), nil
				}
			}
			return int32(0), nil
		})
	case "ARRAY_REMOVE":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			out := []any{}
			for _, e := range list(a[0]) {
				if !elemEq(e, a[1]) {
					out = append(out, e)
				}
			}
			return out, nil
		})
	case "ARRAY_APPEND", "ARRAY_PREPEND":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			// Both take the array first: ARRAY_PREPEND(array, element).
			arr, x := a[0], a[1]
			if arr == nil {
				return nil, nil
			}
			xs := list(arr)
			if name == "ARRAY_APPEND" {
				return append(append([]any{}, xs...), x), nil
			}
			return append([]any{x}, xs...), nil
		})
	case "ARRAY_DISTINCT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			out := []any{}
		next:
			for _, e := range list(a[0]) {
				for _, o := range out {
					if elemEq(e, o) {
						continue next
					}
				}
				out = append(out, e)
			}
			return out, nil
		})
	case "ARRAY_REVERSE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			xs := list(a[0])
			out := make([]any, len(xs))
			for i, e := range xs {
				out[len(xs)-1-i] = e
			}
			return out, nil
		})
	case "ARRAY_SORT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			out := append([]any{}, list(a[0])...)
			// ARRAY_SORT(array[, ascending[, nulls_first]]): NULLs go first
			// when ascending and last when descending unless nulls_first
			// says otherwise.
			asc := len(a) < 2 || a[1] == true
			nullsFirst := asc
			if len(a) > 2 {
				nullsFirst = a[2] == true
			}
			sort.SliceStable(out, func(i, j int) bool {
				x, y := out[i], out[j]
				if x == nil || y == nil {
					return (x == nil && y != nil) == nullsFirst && (x == nil) != (y == nil)
				}
				c := types.CompareValues(widen(x), widen(y))
				if asc {
					return c < 0
				}
				return c > 0
			})
			return out, nil
		})
	case "ARRAY_CONCAT":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			out := []any{}
			for _, x := range a {
				if x == nil {
					return nil, nil
				}
				out = append(out, list(x)...)
			}
			return out, nil
		})
	case "ARRAY_MAX", "ARRAY_MIN":
		want := 1
		if name == "ARRAY_MIN" {
			want = -1
		}
		return strict(ret, func(_ *Env, a []any) (any, error) {
			var best any
			for _, e := range list(a[0]) {
				if e != nil && (best == nil || types.CompareValues(widen(e), widen(best))*want > 0) {
					best = e
				}
			}
			return best, nil
		})
	case "ARRAY_JOIN":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			var parts []string
			for _, e := range list(a[0]) {
				if e == nil {
					if len(a) > 2 {
						parts = append(parts, asString(a[2]))
					}
					continue
				}
				parts = append(parts, types.ValueString(e, args[0].Elem))
			}
			return strings.Join(parts, asString(a[1])), nil
		})
	case "MAP_KEYS", "MAP_VALUES":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			m, _ := a[0].(map[any]any)
			keys := make([]any, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				return types.ValueString(keys[i], args[0].Elem) < types.ValueString(keys[j], args[0].Elem)
			})
			if name == "MAP_KEYS" {
				return keys, nil
			}
			vals := make([]any, len(keys))
			for i, k := range keys {
				vals[i] = m[k]
			}
			return vals, nil
		})
	case "ARRAY_SLICE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			xs := list(a[0])
			n := int64(len(xs))
			from, _ := types.AsInt64(a[1])
			to := n
			if len(a) > 2 {
				to, _ = types.AsInt64(a[2])
			}
			norm := func(i int64) int64 {
				if i < 0 {
					return n + i + 1
				}
				if i == 0 {
					return 1
				}
				return i
			}
			lo, hi := max(norm(from), 1), min(norm(to), n)
			if lo > hi {
				return []any{}, nil
			}
			return append([]any{}, xs[lo-1:hi]...), nil
		})
	case "ARRAY_UNION", "ARRAY_INTERSECT", "ARRAY_EXCEPT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			x, y := list(a[0]), list(a[1])
			in := func(v any, xs []any) bool {
				for _, e := range xs {
					if elemEq(v, e) {
						return true
					}
				}
				return false
			}
			out := []any{}
			add := func(v any) {
				if !in(v, out) {
					out = append(out, v)
				}
			}
			for _, v := range x {
				switch {
				case name == "ARRAY_UNION":
					add(v)
				case name == "ARRAY_INTERSECT" && in(v, y):
					add(v)
				case name == "ARRAY_EXCEPT" && !in(v, y):
					add(v)
				}
			}
			if name == "ARRAY_UNION" {
				for _, v := range y {
					add(v)
				}
			}
			return out, nil
		})
	case "MAP_ENTRIES":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			m, _ := a[0].(map[any]any)
			keys := make([]any, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				return types.ValueString(keys[i], args[0].Elem) < types.ValueString(keys[j], args[0].Elem)
			})
			out := make([]any, len(keys))
			for i, k := range keys {
				out[i] = []any{k, m[k]}
			}
			return out, nil
		})
	case "MAP_FROM_ARRAYS":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			ks, vs := list(a[0]), list(a[1])
			if len(ks) != len(vs) {
				// MapFromArraysFunction's message.
				return nil, &EvalError{Exception: "FlinkRuntimeException", Msg: fmt.Sprintf(
					"Invalid function MAP_FROM_ARRAYS call:\nThe length of the keys array %d is not equal to the length of the values array %d",
					len(ks), len(vs))}
			}
			m := make(map[any]any, len(ks))
			for i, k := range ks {
				m[k] = vs[i]
			}
			return m, nil
		})
	case "MAP_UNION":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			out := map[any]any{}
			for _, x := range a {
				m, _ := x.(map[any]any)
				for k, v := range m {
					out[k] = v
				}
			}
			return out, nil
		})
	case "CURRENT_CATALOG":
		return func(env *Env, _ []*vector.Vec, n int) (*vector.Vec, error) {
			return vector.Const(ret, env.Catalog, n), nil
		}
	case "CURRENT_DATABASE":
		return func(env *Env, _ []*vector.Vec, n int) (*vector.Vec, error) {
			return vector.Const(ret, env.Database, n), nil
		}
	case "TYPEOF":
		return func(_ *Env, _ []*vector.Vec, n int) (*vector.Vec, error) {
			return vector.Const(ret, args[0].String(), n), nil
		}
	}
	return nil
}

// widen makes integers of different widths comparable.
func widen(v any) any {
	if n, ok := types.AsInt64(v); ok {
		return n
	}
	return v
}
