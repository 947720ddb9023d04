package functions

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// JSON kernels, after Flink's SqlJsonUtils. A path without a mode prefix
// is strict: a missing member is an error, which the ON ERROR behaviour
// handles; in lax mode it is an empty result, which ON EMPTY handles.
// Objects serialize with their keys in order (Flink's mapper orders map
// entries by key) and without blanks.
//
// The plan passes the clauses of the SQL/JSON syntax as leading constant
// arguments (see JSONValueArgs and friends below), so that one kernel
// serves every combination.

// The argument layouts the planner builds for the SQL/JSON functions.
const (
	// JSON_VALUE(json, path, onEmpty, emptyDefault, onError, errorDefault):
	// onEmpty/onError are NULL, ERROR or DEFAULT; the defaults are
	// expressions of the result type (NULL literals when absent).
	JSONValueArgs = 6
	// JSON_QUERY(json, path, wrapper, onEmpty, onError): wrapper is WITHOUT
	// ARRAY, WITH CONDITIONAL ARRAY or WITH UNCONDITIONAL ARRAY.
	JSONQueryArgs = 5
	// JSON_EXISTS(json, path, onError): TRUE, FALSE, UNKNOWN or ERROR.
	JSONExistsArgs = 3
)

// JSON_OBJECT(onNull, raw, key1, value1, ...) and JSON_ARRAY(onNull, raw,
// value1, ...) take NULL or ABSENT first, then a string with one '1' per
// value that is itself JSON text (a nested JSON_OBJECT, JSON_ARRAY or
// JSON call, inserted as JSON rather than as a string) and '0' otherwise.
// IS_JSON(x, kind) takes VALUE, SCALAR, ARRAY or OBJECT second.

// jsonError is the runtime failure of a JSON function (Flink's
// TableRuntimeException).
func jsonError(format string, args ...any) error {
	return &EvalError{Exception: "TableRuntimeException", Msg: fmt.Sprintf(format, args...)}
}

func jsonKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	switch name {
	case "IS_JSON":
		return isJSONKernel(ret)
	case "JSON_EXISTS":
		return jsonPathKernel(ret, jsonExistsRow)
	case "JSON_VALUE":
		return jsonPathKernel(ret, jsonValueRow)
	case "JSON_QUERY":
		return jsonPathKernel(ret, jsonQueryRow)
	case "JSON_QUOTE":
		return strict(ret, func(_ *Env, a []any) (any, error) { return jsonQuote(asString(a[0])), nil })
	case "JSON_UNQUOTE":
		return strict(ret, func(_ *Env, a []any) (any, error) { return jsonUnquote(asString(a[0])), nil })
	case "JSON_STRING":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			return marshalJSON(jsonable(a[0], args[0]))
		})
	case "JSON":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			s := strings.TrimSpace(asString(a[0]))
			if s == "" {
				return nil, nil
			}
			doc, err := parseJSON(s)
			if err != nil {
				return nil, jsonError("Invalid JSON string in JSON(value) function: \"%s\". Error: %v", asString(a[0]), err)
			}
			return marshalJSON(doc)
		})
	case "PARSE_JSON", "TRY_PARSE_JSON":
		return parseJSONKernel(name, ret)
	case "JSON_OBJECT":
		return jsonObjectKernel(args, ret)
	case "JSON_ARRAY":
		return jsonArrayKernel(args, ret)
	}
	return nil
}

// isJSONKernel: IS JSON [VALUE | SCALAR | ARRAY | OBJECT]. NULL is NULL
// when the result type allows it (Flink 2.x), FALSE otherwise.
func isJSONKernel(ret *types.Type) ScalarKernel {
	return lenient(ret, func(_ *Env, a []any) (any, error) {
		if a[0] == nil {
			if ret.Nullable() {
				return nil, nil
			}
			return false, nil
		}
		doc, err := parseJSON(asString(a[0]))
		if err != nil {
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
			return !isContainer(doc), nil
		}
		return true, nil
	})
}

// jsonExistsRow computes one row of JSON_EXISTS: whether the path finds a
// non-null value, or the ON ERROR behaviour when the path fails.
func jsonExistsRow(args []*vector.Vec, i int, _ *types.Type) (any, error) {
	r := evalJSONPath(asString(args[0].Get(i)), asString(args[1].Get(i)))
	if r.err == nil {
		return r.found && r.val != nil, nil
	}
	switch asString(args[2].Get(i)) {
	case "TRUE":
		return true, nil
	case "UNKNOWN":
		return nil, nil
	case "ERROR":
		return nil, r.err
	}
	return false, nil
}

// jsonPathKernel runs a JSON path function row by row: NULL when the
// document or the path is NULL, else what row computes for row i.
func jsonPathKernel(ret *types.Type, row func(args []*vector.Vec, i int, ret *types.Type) (any, error)) ScalarKernel {
	return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.New(ret, n)
		for i := range n {
			if args[0].IsNull(i) || args[1].IsNull(i) {
				out.AppendNull()
				continue
			}
			v, err := row(args, i, ret)
			if err != nil {
				return nil, err
			}
			out.Append(v)
		}
		return out, nil
	}
}

// jsonValueRow computes one row of JSON_VALUE (SqlJsonUtils.jsonValue).
func jsonValueRow(args []*vector.Vec, i int, ret *types.Type) (any, error) {
	r := evalJSONPath(asString(args[0].Get(i)), asString(args[1].Get(i)))
	err := r.err
	if err == nil {
		switch {
		case !r.found || r.val == nil || r.lax && isContainer(r.val):
			switch asString(args[2].Get(i)) {
			case "ERROR":
				return nil, jsonError("Empty result of JSON_VALUE function is not allowed")
			case "DEFAULT":
				return args[3].Get(i), nil
			}
			return nil, nil
		case isContainer(r.val):
			text, _ := marshalJSON(r.val)
			err = jsonError("Strict jsonpath mode requires scalar value, and the actual value is: '%s'", text)
		default:
			v, cerr := jsonScalarAs(r.val, ret)
			if cerr == nil {
				return v, nil
			}
			err = cerr
		}
	}
	switch asString(args[4].Get(i)) {
	case "ERROR":
		return nil, err
	case "DEFAULT":
		return args[5].Get(i), nil
	}
	return nil, nil
}

// jsonScalarAs converts a JSON scalar to the RETURNING type: its text for
// character strings; numbers truncate toward zero into integers and fail
// when out of range; strings holding numbers convert too.
func jsonScalarAs(v any, t *types.Type) (any, error) {
	text := jsonScalarText(v)
	fail := func() error {
		return jsonError("Cannot cast '%s' to %s", text, t.String())
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		return text, nil
	case types.Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		out, err := types.CastValue(text, types.NewString(), t)
		if err != nil || out == nil {
			return nil, fail()
		}
		return out, nil
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		d, err := types.ParseDecimal(text)
		if err != nil {
			return nil, fail()
		}
		// Truncate toward zero (13.89 -> 13), as Flink's JSON_VALUE does.
		n, ok := types.DecimalInt64(d)
		if !ok {
			return nil, fail()
		}
		bits := map[types.Kind]uint{types.TinyInt: 8, types.SmallInt: 16, types.Int: 32, types.BigInt: 64}[t.Kind]
		if bits < 64 && (n < -(1<<(bits-1)) || n >= 1<<(bits-1)) {
			return nil, fail()
		}
		return types.IntegerValue(t.Kind, n), nil
	case types.Float, types.Double:
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fail()
		}
		if t.Kind == types.Float {
			return float32(f), nil
		}
		return f, nil
	}
	out, err := types.CastValue(text, types.NewString(), t)
	if err != nil || out == nil {
		return nil, fail()
	}
	return out, nil
}

// jsonScalarText is a JSON scalar as JSON_VALUE returns it as a string.
func jsonScalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// jsonQueryRow computes one row of JSON_QUERY (SqlJsonUtils.jsonQuery).
func jsonQueryRow(args []*vector.Vec, i int, ret *types.Type) (any, error) {
	r := evalJSONPath(asString(args[0].Get(i)), asString(args[1].Get(i)))
	behave := func(what string, err error) (any, error) {
		switch what {
		case "ERROR":
			if err == nil {
				err = jsonError("Empty result of JSON_QUERY function is not allowed")
			}
			return nil, err
		case "EMPTY ARRAY":
			if ret.Kind == types.Array {
				return []any{}, nil
			}
			return "[]", nil
		case "EMPTY OBJECT":
			return "{}", nil
		}
		return nil, nil
	}
	if r.err != nil {
		return behave(asString(args[4].Get(i)), r.err)
	}
	var v any
	if r.found && r.val != nil {
		switch asString(args[2].Get(i)) {
		case "WITH UNCONDITIONAL ARRAY":
			v = []any{r.val}
		case "WITH CONDITIONAL ARRAY":
			if _, ok := r.val.([]any); ok {
				v = r.val
			} else {
				v = []any{r.val}
			}
		default:
			v = r.val
		}
	}
	if v == nil || r.lax && !isContainer(v) {
		return behave(asString(args[3].Get(i)), nil)
	}
	if !isContainer(v) {
		text, _ := marshalJSON(v)
		if s, ok := v.(string); ok {
			text = s
		}
		return behave(asString(args[4].Get(i)),
			jsonError("Strict jsonpath mode requires array or object value, and the actual value is: '%s'", text))
	}
	if ret.Kind != types.Array {
		return marshalJSON(v)
	}
	list, ok := v.([]any)
	if !ok {
		return behave(asString(args[4].Get(i)), jsonError("JSON_QUERY cannot return an object as an array"))
	}
	outList := make([]any, len(list))
	for k, e := range list {
		if e == nil {
			continue
		}
		var s string
		if isContainer(e) {
			s, _ = marshalJSON(e)
		} else {
			s = jsonScalarText(e)
		}
		if ret.Elem != nil && ret.Elem.Kind != types.Char && ret.Elem.Kind != types.VarChar {
			if isContainer(e) {
				return behave(asString(args[4].Get(i)), jsonError("Cannot cast '%s' to %s", s, ret.Elem.String()))
			}
			x, err := jsonScalarAs(e, ret.Elem)
			if err != nil {
				return behave(asString(args[4].Get(i)), err)
			}
			outList[k] = x
			continue
		}
		outList[k] = s
	}
	return outList, nil
}

// jsonObjectKernel builds JSON_OBJECT(onNull, raw, k1, v1, ...).
func jsonObjectKernel(argTypes []*types.Type, ret *types.Type) ScalarKernel {
	return lenient(ret, func(_ *Env, a []any) (any, error) {
		absent := asString(a[0]) == "ABSENT"
		raw := asString(a[1])
		m := map[string]any{}
		for i := 2; i+1 < len(a); i += 2 {
			if a[i] == nil {
				return nil, jsonError("JSON_OBJECT key must not be NULL")
			}
			v, err := jsonMember(a[i+1], argTypes[i+1], raw, (i-2)/2)
			if err != nil {
				return nil, err
			}
			if v == nil && absent {
				continue
			}
			m[asString(a[i])] = v
		}
		return marshalJSON(m)
	})
}

// jsonArrayKernel builds JSON_ARRAY(onNull, raw, v1, ...).
func jsonArrayKernel(argTypes []*types.Type, ret *types.Type) ScalarKernel {
	return lenient(ret, func(_ *Env, a []any) (any, error) {
		absent := len(a) == 0 || asString(a[0]) != "NULL"
		raw := ""
		if len(a) > 1 {
			raw = asString(a[1])
		}
		items := []any{}
		for i := 2; i < len(a); i++ {
			v, err := jsonMember(a[i], argTypes[i], raw, i-2)
			if err != nil {
				return nil, err
			}
			if v == nil && absent {
				continue
			}
			items = append(items, v)
		}
		return marshalJSON(items)
	})
}

// jsonMember is one value of a JSON constructor: parsed JSON when it comes
// from another JSON constructor, else the value converted to JSON.
func jsonMember(v any, t *types.Type, raw string, i int) (any, error) {
	if v == nil {
		return nil, nil
	}
	if i < len(raw) && raw[i] == '1' {
		doc, err := parseJSON(asString(v))
		if err != nil {
			return nil, jsonError("Invalid JSON text: %v", err)
		}
		return doc, nil
	}
	return jsonable(v, t), nil
}

// JSONConstructor reports whether a call of the named function yields JSON
// text that a surrounding JSON_OBJECT or JSON_ARRAY inserts as JSON
// (JsonGenerateUtils.isJsonFunctionOperand).
func JSONConstructor(name string) bool {
	switch strings.ToUpper(name) {
	case "JSON_OBJECT", "JSON_ARRAY", "JSON":
		return true
	}
	return false
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// parseJSON reads one JSON document, numbers kept as their text.
func parseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("unexpected content after the JSON value")
	}
	return doc, nil
}

// marshalJSON writes compact JSON with object keys in order and without
// HTML escaping, as Jackson writes it.
func marshalJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", jsonError("JSON object could not be serialized: %v", err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// jsonable converts an engine value for encoding/json as Flink's
// JSON_STRING and JSON_OBJECT convert it: numbers stay numbers, BINARY
// becomes base64, TIMESTAMP an ISO-8601 local date-time, TIMESTAMP_LTZ an
// ISO-8601 instant (UTC, 'Z'), ROW an object of its field names, MAP an
// object, ARRAY an array.
func jsonable(v any, t *types.Type) any {
	switch x := v.(type) {
	case nil, bool, string:
		return x
	case float32:
		return json.Number(types.JavaFloat(float64(x), 32))
	case float64:
		// Jackson writes a double as Double.toString does (1.0, 1.0E10).
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return types.JavaFloat(x, 64)
		}
		return json.Number(types.JavaFloat(x, 64))
	case *decimal.Decimal:
		return json.Number(types.DecimalText(x))
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case time.Time:
		if t != nil && t.Kind == types.TimestampLTZ {
			return isoTime(x.UTC()) + "Z"
		}
		if t != nil && t.Kind == types.Date {
			return x.Format("2006-01-02")
		}
		return isoTime(x)
	case time.Duration:
		if t != nil && t.Kind == types.Time {
			return isoClock(x)
		}
		return types.ValueString(x, t)
	case []any:
		if t != nil && t.Kind == types.Row {
			m := map[string]any{}
			for i, f := range t.Fields {
				if i < len(x) {
					m[f.Name] = jsonable(x[i], f.Type)
				}
			}
			return m
		}
		if t != nil && t.Kind == types.Multiset {
			counts := map[string]any{}
			n := map[string]int64{}
			for _, e := range x {
				n[types.ValueString(e, t.Elem)]++
			}
			for k, c := range n {
				counts[k] = c
			}
			return counts
		}
		out := make([]any, len(x))
		for i, e := range x {
			var et *types.Type
			if t != nil {
				et = t.Elem
			}
			out[i] = jsonable(e, et)
		}
		return out
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			var kt, vt *types.Type
			if t != nil {
				kt, vt = t.Elem, t.Val
			}
			m[types.ValueString(k, kt)] = jsonable(e, vt)
		}
		return m
	}
	if t != nil && t.Kind == types.Date {
		if n, ok := types.AsInt64(v); ok {
			return types.DateTime(int32(n)).Format("2006-01-02")
		}
	}
	if n, ok := types.AsInt64(v); ok && (t == nil || t.Kind.IsNumeric()) {
		return json.Number(strconv.FormatInt(n, 10))
	}
	return types.ValueString(v, t)
}

// isoTime formats a wall-clock time as DateTimeFormatter.ISO_LOCAL_DATE_TIME
// does (JsonGenerateUtils): seconds always, the fraction only when not
// zero and without trailing zeros.
func isoTime(t time.Time) string {
	out := t.Format("2006-01-02T15:04:05")
	if ns := t.Nanosecond(); ns != 0 {
		out += strings.TrimRight(fmt.Sprintf(".%09d", ns), "0")
	}
	return out
}

// isoClock formats a time of day as java.time.LocalTime.toString does.
func isoClock(d time.Duration) string {
	h, m := int(d/time.Hour), int(d/time.Minute%60)
	s, ns := int(d/time.Second%60), int(d%time.Second)
	out := fmt.Sprintf("%02d:%02d", h, m)
	if s == 0 && ns == 0 {
		return out
	}
	out += fmt.Sprintf(":%02d", s)
	switch {
	case ns == 0:
	case ns%1000000 == 0:
		out += fmt.Sprintf(".%03d", ns/1000000)
	case ns%1000 == 0:
		out += fmt.Sprintf(".%06d", ns/1000)
	default:
		out += fmt.Sprintf(".%09d", ns)
	}
	return out
}

// pathResult is what a JSON path selects: found reports a match (val may
// be a JSON null), lax the path's mode, err a failure (bad document or
// path, or a missing member in strict mode).
type pathResult struct {
	val   any
	found bool
	lax   bool
	err   error
}

// evalJSONPath parses the document and follows the path spec: an optional
// "lax" or "strict" mode (strict when absent), then $, .member, ['member'],
// ["member"], [index], [*] and .* steps. A path with a wildcard selects
// the list of its matches.
func evalJSONPath(doc, spec string) pathResult {
	mode, path := "strict", strings.TrimSpace(spec)
	if f := strings.Fields(path); len(f) > 1 && (strings.EqualFold(f[0], "lax") || strings.EqualFold(f[0], "strict")) {
		mode = strings.ToLower(f[0])
		path = strings.TrimSpace(path[len(f[0]):])
	}
	lax := mode == "lax"
	v, err := parseJSON(doc)
	if err != nil {
		if lax {
			return pathResult{lax: true}
		}
		return pathResult{err: jsonError("%v", err)}
	}
	steps, err := parsePath(path)
	if err != nil {
		return pathResult{lax: lax, err: err}
	}
	cur := []any{v}
	wild := false
	for _, st := range steps {
		wild = wild || st.wild
		var next []any
		for _, c := range cur {
			got, ok := st.apply(c)
			if !ok {
				if !wild && !lax {
					return pathResult{err: jsonError("No results for path: %s", pathText(steps))}
				}
				continue
			}
			next = append(next, got...)
		}
		cur = next
	}
	if wild {
		if cur == nil {
			cur = []any{}
		}
		return pathResult{val: cur, found: true, lax: lax}
	}
	if len(cur) == 0 {
		return pathResult{lax: lax}
	}
	return pathResult{val: cur[0], found: true, lax: lax}
}

// pathStep is one step of a JSON path.
type pathStep struct {
	member string
	index  int
	isIdx  bool
	wild   bool
}

func (s pathStep) apply(v any) ([]any, bool) {
	switch {
	case s.wild:
		switch x := v.(type) {
		case []any:
			return x, true
		case map[string]any:
			out := make([]any, 0, len(x))
			for _, k := range sortedKeys(x) {
				out = append(out, x[k])
			}
			return out, true
		}
		return nil, false
	case s.isIdx:
		xs, ok := v.([]any)
		i := s.index
		if ok && i < 0 {
			i += len(xs)
		}
		if !ok || i < 0 || i >= len(xs) {
			return nil, false
		}
		return []any{xs[i]}, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	x, ok := m[s.member]
	if !ok {
		return nil, false
	}
	return []any{x}, true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// pathText prints a path as Jayway does in its messages: $['a'][0].
func pathText(steps []pathStep) string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range steps {
		switch {
		case s.wild:
			b.WriteString("[*]")
		case s.isIdx:
			fmt.Fprintf(&b, "[%d]", s.index)
		default:
			b.WriteString("['" + s.member + "']")
		}
	}
	return b.String()
}

// parsePath reads the steps after $.
func parsePath(p string) ([]pathStep, error) {
	bad := func() error {
		return jsonError("Illegal jsonpath spec '%s', format of the spec should be: '<lax|strict> ${expr}'", p)
	}
	if !strings.HasPrefix(p, "$") {
		return nil, bad()
	}
	rest := p[1:]
	var steps []pathStep
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, ".["):
			rest = rest[1:]
		case rest[0] == '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			key := strings.TrimSpace(rest[:end])
			rest = rest[end:]
			if key == "" {
				return nil, bad()
			}
			if key == "*" {
				steps = append(steps, pathStep{wild: true})
			} else {
				steps = append(steps, pathStep{member: key})
			}
		case rest[0] == '[':
			inner, after, ok := bracket(rest)
			if !ok {
				return nil, bad()
			}
			rest = after
			inner = strings.TrimSpace(inner)
			switch {
			case inner == "*":
				steps = append(steps, pathStep{wild: true})
			case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
				steps = append(steps, pathStep{member: inner[1 : len(inner)-1]})
			default:
				i, err := strconv.Atoi(inner)
				if err != nil {
					return nil, bad()
				}
				steps = append(steps, pathStep{index: i, isIdx: true})
			}
		default:
			return nil, bad()
		}
	}
	return steps, nil
}

// bracket splits "[...]rest" at the closing bracket, skipping brackets
// inside quotes.
func bracket(s string) (inner, rest string, ok bool) {
	var quote byte
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ']':
			return s[1:i], s[i+1:], true
		}
	}
	return "", "", false
}

// jsonQuote writes s as a JSON string the way Flink's JSON_QUOTE does:
// besides quote, backslash and the control characters it escapes '/' and
// every character outside ASCII, as UTF-16 \uXXXX units in lower case.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r >= 0x20 && r < 0x7f {
				b.WriteRune(r)
				continue
			}
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonUnquote reads s as a JSON string literal; text that is not one comes
// back unchanged.
func jsonUnquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var out string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return s
	}
	return out
}
