package functions

import (
	"encoding/json"
	"strconv"
	"strings"

	"eddy/engine/types"
)

// JSON kernels with the defaults of Flink's functions: JSON_VALUE returns
// NULL on an empty or failed path and the scalar's text, JSON_QUERY
// returns the JSON text of the selected value (NULL when it is missing),
// JSON_EXISTS tests a path, IS_JSON tests a document, JSON_STRING,
// JSON_OBJECT (key, value, key, value ...) and JSON_ARRAY serialize.
// Paths are SQL/JSON lax paths of members and array indexes: $.a.b[0].

func jsonKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	switch name {
	case "IS_JSON":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			// IS JSON [VALUE | SCALAR | ARRAY | OBJECT]: an optional second
			// argument names the kind the document must have; NULL is not
			// JSON.
			if a[0] == nil {
				return false, nil
			}
			var doc any
			if json.Unmarshal([]byte(asString(a[0])), &doc) != nil {
				return false, nil
			}
			kind := "VALUE"
			if len(a) > 1 && a[1] != nil {
				kind = strings.ToUpper(asString(a[1]))
			}
			switch kind {
			case "OBJECT":
				_, ok := doc.(map[string]any)
				return ok, nil
			case "ARRAY":
				_, ok := doc.([]any)
				return ok, nil
			case "SCALAR":
				switch doc.(type) {
				case map[string]any, []any:
					return false, nil
				}
				return true, nil
			}
			return true, nil
		})
	case "JSON_EXISTS", "JSON_VALUE", "JSON_QUERY":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			var doc any
			if err := json.Unmarshal([]byte(asString(a[0])), &doc); err != nil {
				if name == "JSON_EXISTS" {
					return false, nil
				}
				return nil, nil
			}
			v, ok := jsonPath(doc, asString(a[1]))
			switch name {
			case "JSON_EXISTS":
				return ok, nil
			case "JSON_VALUE":
				if !ok || v == nil {
					return nil, nil
				}
				switch x := v.(type) {
				case string:
					return x, nil
				case float64:
					return strconv.FormatFloat(x, 'f', -1, 64), nil
				case bool:
					return strconv.FormatBool(x), nil
				}
				return nil, nil // objects and arrays are not scalars
			}
			if !ok {
				return nil, nil
			}
			switch v.(type) {
			case map[string]any, []any:
				b, _ := json.Marshal(v)
				return string(b), nil
			}
			return nil, nil // JSON_QUERY of a scalar: NULL (WITHOUT ARRAY WRAPPER)
		})
	case "JSON_STRING":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			b, err := json.Marshal(jsonable(a[0], args[0]))
			return string(b), err
		})
	case "JSON_OBJECT":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			var b strings.Builder
			b.WriteByte('{')
			for i := 0; i+1 < len(a); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				k, _ := json.Marshal(asString(a[i]))
				v, _ := json.Marshal(jsonable(a[i+1], args[i+1]))
				b.Write(k)
				b.WriteByte(':')
				b.Write(v)
			}
			b.WriteByte('}')
			return b.String(), nil
		})
	case "JSON_ARRAY":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			items := []any{}
			for i, x := range a {
				if x != nil {
					items = append(items, jsonable(x, args[i]))
				}
			}
			b, err := json.Marshal(items)
			return string(b), err
		})
	}
	return nil
}

// jsonable converts an engine value for encoding/json: numbers stay
// numbers, other scalars become their printed text.
func jsonable(v any, t *types.Type) any {
	switch x := v.(type) {
	case nil, bool, string, float32, float64:
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var et *types.Type
			if t != nil {
				et = t.Elem
				if t.Kind == types.Row && i < len(t.Fields) {
					et = t.Fields[i].Type
				}
			}
			out[i] = jsonable(e, et)
		}
		if t != nil && t.Kind == types.Row {
			m := map[string]any{}
			for i, f := range t.Fields {
				m[f.Name] = out[i]
			}
			return m
		}
		return out
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			var vt *types.Type
			if t != nil {
				vt = t.Val
			}
			m[types.ValueString(k, nil)] = jsonable(e, vt)
		}
		return m
	}
	if n, ok := types.AsInt64(v); ok && (t == nil || t.Kind.IsNumeric()) {
		return n
	}
	if t != nil && t.Kind == types.Decimal {
		return json.Number(types.ValueString(v, t))
	}
	return types.ValueString(v, t)
}

// jsonPath follows a lax path ($, .member, ['member'], [index]).
func jsonPath(doc any, path string) (any, bool) {
	p := strings.TrimSpace(path)
	p = strings.TrimPrefix(strings.TrimPrefix(p, "lax "), "strict ")
	p = strings.TrimSpace(p)
	if !strings.HasPrefix(p, "$") {
		return nil, false
	}
	p = p[1:]
	cur := doc
	for p != "" {
		switch {
		case p[0] == '.':
			p = p[1:]
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			key := p[:end]
			p = p[end:]
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[key]; !ok {
				return nil, false
			}
		case p[0] == '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, false
			}
			inner := strings.TrimSpace(p[1:end])
			p = p[end+1:]
			if len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') {
				m, ok := cur.(map[string]any)
				if !ok {
					return nil, false
				}
				if cur, ok = m[inner[1:len(inner)-1]]; !ok {
					return nil, false
				}
				continue
			}
			i, err := strconv.Atoi(inner)
			xs, ok := cur.([]any)
			if err != nil || !ok || i < 0 || i >= len(xs) {
				return nil, false
			}
			cur = xs[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
