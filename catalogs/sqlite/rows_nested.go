package sqlite

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"eddy/engine/types"
)

// Collection values (ARRAY, MULTISET, MAP, ROW) of managed tables are
// stored as JSON text: ARRAY, MULTISET and ROW as arrays, MAP as an array
// of [key, value] pairs, scalars in the form toSQL stores them (BYTES as
// base64 through encoding/json); numbers are read back exactly.

func encodeNested(v any, t *types.Type) any {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case types.Array, types.Multiset, types.Row:
		xs, _ := v.([]any)
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = encodeNested(x, elemType(t, i))
		}
		return out
	case types.Map:
		m, _ := v.(map[any]any)
		out := make([]any, 0, len(m))
		for k, x := range m {
			out = append(out, []any{encodeNested(k, t.Elem), encodeNested(x, t.Val)})
		}
		return out
	}
	return toSQL(v, t)
}

func elemType(t *types.Type, i int) *types.Type {
	if t.Kind == types.Row {
		return t.Fields[i].Type
	}
	return t.Elem
}

func decodeNestedText(s string, t *types.Type) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	return decodeNested(x, t)
}

func decodeNested(x any, t *types.Type) (any, error) {
	if x == nil {
		return nil, nil
	}
	bad := fmt.Errorf("cannot read a %s from the store", t)
	switch t.Kind {
	case types.Array, types.Multiset, types.Row:
		xs, ok := x.([]any)
		if !ok || t.Kind == types.Row && len(xs) != len(t.Fields) {
			return nil, bad
		}
		out := make([]any, len(xs))
		for i, e := range xs {
			v, err := decodeNested(e, elemType(t, i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case types.Map:
		xs, _ := x.([]any)
		out := make(map[any]any, len(xs))
		for _, e := range xs {
			pair, ok := e.([]any)
			if !ok || len(pair) != 2 {
				return nil, bad
			}
			k, err := decodeNested(pair[0], t.Elem)
			if err != nil {
				return nil, err
			}
			v, err := decodeNested(pair[1], t.Val)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	}
	switch n := x.(type) {
	case json.Number:
		if st, err := sqliteType(t); err == nil && st == "INTEGER" {
			i, err := n.Int64()
			if err != nil {
				return nil, err
			}
			return fromSQL(i, t)
		}
		f, err := n.Float64()
		if err != nil {
			return nil, err
		}
		return fromSQL(f, t)
	case string:
		if t.Kind == types.Binary || t.Kind == types.VarBinary {
			return base64.StdEncoding.DecodeString(n)
		}
		return fromSQL(n, t)
	}
	return fromSQL(x, t)
}
