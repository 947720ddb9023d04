package connectors

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
)

// The json format (connectors.md §4b): newline-delimited JSON objects,
// fields matched by name (extra fields ignored, a missing field NULL
// unless 'json.fail-on-missing-field'), a top-level array on one line
// expands to several rows. ROW and MAP are objects, ARRAY and MULTISET
// arrays, BINARY a base64 string, timestamps 'SQL' text by default.

type jsonDecoder struct {
	name    string
	f       *jsonOptions
	fast    *jsonFields // nil: every line the general way
	names   []string
	ts      []*types.Type
	sc      *bufio.Scanner
	line    int
	pending []map[string]any
}

func newJSONDecoder(in io.Reader, name string, f *jsonOptions, cols []Column) *jsonDecoder {
	d := &jsonDecoder{name: name, f: f, sc: bufio.NewScanner(in)}
	d.sc.Buffer(make([]byte, bufferSize(in)), 256<<20)
	for _, c := range cols {
		d.names = append(d.names, c.Name)
		d.ts = append(d.ts, c.Type)
	}
	d.fast = newJSONFields(f, cols)
	return d
}

func (d *jsonDecoder) parseError(err error) error {
	return &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to deserialize JSON row '%s' (line %d): %v", d.name, d.line, err)}
}

// Next implements RowDecoder: json rows are inserts.
func (d *jsonDecoder) Next(row []any) (types.RowKind, bool, error) {
	for len(d.pending) == 0 {
		if !d.sc.Scan() {
			if err := d.sc.Err(); err != nil {
				return types.Insert, false, d.parseError(err)
			}
			return types.Insert, false, nil
		}
		d.line++
		text := bytes.TrimSpace(d.sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if d.fast != nil && d.fast.object(text, row) {
			return types.Insert, true, nil
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var v any
		err := dec.Decode(&v)
		if err == nil && dec.More() {
			err = fmt.Errorf("unexpected data after the JSON value")
		}
		switch x := v.(type) {
		case map[string]any:
			d.pending = append(d.pending, x)
		case []any:
			for _, e := range x {
				if m, ok := e.(map[string]any); ok {
					d.pending = append(d.pending, m)
				} else if err == nil {
					err = fmt.Errorf("expected a JSON object, found %s", jsonKind(e))
				}
			}
		default:
			if err == nil {
				err = fmt.Errorf("expected a JSON object, found %s", jsonKind(v))
			}
		}
		if err != nil {
			d.pending = nil
			if d.f.ignoreErrors {
				continue
			}
			return types.Insert, false, d.parseError(err)
		}
	}
	obj := d.pending[0]
	d.pending = d.pending[1:]
	for i, name := range d.names {
		raw, ok := obj[name]
		if !ok && d.f.failOnMissing {
			return types.Insert, false, d.parseError(fmt.Errorf("could not find field with name '%s'", name))
		}
		v, err := fromJSON(raw, d.ts[i], d.f.isoTimestamps)
		if err != nil {
			if d.f.ignoreErrors {
				v = nil
			} else {
				return types.Insert, false, d.parseError(fmt.Errorf("field '%s': %w", name, err))
			}
		}
		row[i] = v
	}
	return types.Insert, true, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// fromJSON converts a decoded JSON value to the engine value of type t.
func fromJSON(v any, t *types.Type, iso bool) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		switch t.Kind {
		case types.Char, types.VarChar:
			return x, nil
		case types.Binary, types.VarBinary:
			return base64.StdEncoding.DecodeString(x)
		case types.Timestamp, types.TimestampLTZ:
			s := x
			if iso {
				s = strings.Replace(s, "T", " ", 1)
			}
			return parseCSVField(s, t, nil)
		}
		return types.CastValue(strings.TrimSpace(x), types.NewString(), t)
	case json.Number:
		switch {
		case t.Kind.IsCharacterString():
			return x.String(), nil
		case t.Kind == types.BigInt || t.Kind == types.Int:
			if n, ok := jsonInteger(x, t); ok {
				return n, nil
			}
		case t.Kind == types.Double:
			if f, err := strconv.ParseFloat(string(x), 64); err == nil {
				return f, nil
			}
		}
		return types.CastValue(x.String(), types.NewString(), t)
	case bool:
		switch t.Kind {
		case types.Boolean:
			return x, nil
		case types.Char, types.VarChar:
			return fmt.Sprint(x), nil
		}
	case []any:
		switch t.Kind {
		case types.Array, types.Multiset:
			out := make([]any, len(x))
			for i, e := range x {
				ev, err := fromJSON(e, t.Elem, iso)
				if err != nil {
					return nil, err
				}
				out[i] = ev
			}
			return out, nil
		case types.Char, types.VarChar:
			b, _ := json.Marshal(x)
			return string(b), nil
		}
	case map[string]any:
		switch t.Kind {
		case types.Row:
			out := make([]any, len(t.Fields))
			for i, f := range t.Fields {
				fv, err := fromJSON(x[f.Name], f.Type, iso)
				if err != nil {
					return nil, err
				}
				out[i] = fv
			}
			return out, nil
		case types.Map:
			out := map[any]any{}
			for k, e := range x {
				kv, err := fromJSON(k, t.Elem, iso)
				if err != nil {
					return nil, err
				}
				ev, err := fromJSON(e, t.Val, iso)
				if err != nil {
					return nil, err
				}
				out[kv] = ev
			}
			return out, nil
		case types.Char, types.VarChar:
			b, _ := json.Marshal(x)
			return string(b), nil
		}
	}
	return nil, fmt.Errorf("cannot read %s as %s", jsonKind(v), t)
}

type jsonEncoder struct {
	buf   *bufio.Writer
	o     *jsonWriteOptions
	names []string
	ts    []*types.Type
	line  []byte
}

func newJSONEncoder(out io.Writer, o *jsonWriteOptions, cols []Column) *jsonEncoder {
	e := &jsonEncoder{buf: bufio.NewWriterSize(out, bufferSize(out)), o: o}
	for _, c := range cols {
		e.names = append(e.names, c.Name)
		e.ts = append(e.ts, c.Type)
	}
	return e
}

// Write implements RowEncoder: json rows carry no row kind.
func (e *jsonEncoder) Write(_ types.RowKind, row []any) error {
	b, err := e.o.appendRow(e.line[:0], row, e.names, e.ts)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	e.line = b
	_, err = e.buf.Write(b)
	return err
}

// Flush implements RowEncoder.
func (e *jsonEncoder) Flush() error { return e.buf.Flush() }

// appendJSONString writes s quoted as encoding/json does; a string of
// printable ASCII that needs no escape (the common case) is copied as it
// is.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= utf8.RuneSelf, c == '"', c == '\\', c == '<', c == '>', c == '&':
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonWriteOptions are the encoding options of the json format and of the
// formats built on it ('<format>.timestamp-format.standard',
// '.map-null-key.mode', '.map-null-key.literal',
// '.encode.decimal-as-plain-number', '.encode.ignore-null-fields').
type jsonWriteOptions struct {
	iso              bool
	nullKeyMode      string // FAIL, DROP or LITERAL
	nullKeyLiteral   string
	plainDecimal     bool
	ignoreNullFields bool
}

// appendRow writes the fields of a row as a JSON object.
func (o *jsonWriteOptions) appendRow(b []byte, row []any, names []string, ts []*types.Type) ([]byte, error) {
	b = append(b, '{')
	first := true
	for i, v := range row {
		if v == nil && o.ignoreNullFields {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, names[i])
		b = append(b, ':')
		var err error
		if b, err = o.appendJSON(b, v, ts[i]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJavaFloat appends a finite f as types.JavaFloat writes it (Java's
// Double.toString and Float.toString), without the strings in between.
func appendJavaFloat(b []byte, f float64, bits int) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		start := len(b)
		b = strconv.AppendFloat(b, f, 'f', -1, bits)
		if bytes.IndexByte(b[start:], '.') < 0 {
			b = append(b, ".0"...)
		}
		return b
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, bits) // d[.ddd]e±dd
	at := bytes.IndexByte(e, 'e')
	b = append(b, e[:at]...)
	if bytes.IndexByte(e[:at], '.') < 0 {
		b = append(b, ".0"...)
	}
	b = append(b, 'E')
	exp := e[at+1:]
	if exp[0] == '-' {
		b = append(b, '-')
	}
	exp = exp[1:]
	for len(exp) > 1 && exp[0] == '0' {
		exp = exp[1:]
	}
	return append(b, exp...)
}

// appendJSON writes a value as Flink's JSON format does.
func (o *jsonWriteOptions) appendJSON(b []byte, v any, t *types.Type) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case int8, int16, int32, int64:
		if n, ok := v.(int64); ok && t.Kind == types.BigInt {
			return strconv.AppendInt(b, n, 10), nil
		}
		if n, ok := v.(int32); ok && t.Kind == types.Int {
			return strconv.AppendInt(b, int64(n), 10), nil
		}
		if t.Kind == types.Date || t.Kind == types.Time {
			return appendJSONString(b, formatCSVField(v, t)), nil
		}
		return append(b, types.ValueString(v, t)...), nil
	case float32, float64:
		f, ok := x.(float64)
		if !ok {
			f = float64(x.(float32))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return appendJSONString(b, types.ValueString(v, t)), nil
		}
		bits := 64
		if _, single := x.(float32); single {
			bits = 32
		}
		return appendJavaFloat(b, f, bits), nil
	case *decimal.Decimal:
		// Flink's JSON writer takes the value without trailing zeros (a
		// Jackson number node), then prints it as Java's
		// BigDecimal.toString (1.2E+4, 1.2E-7) or, with
		// 'encode.decimal-as-plain-number', toPlainString.
		r := types.DecimalStripped(x)
		if o.plainDecimal {
			return append(b, types.DecimalText(r)...), nil
		}
		return append(b, types.DecimalJavaString(r)...), nil
	case string:
		return appendJSONString(b, x), nil
	case []byte:
		return appendJSONString(b, base64.StdEncoding.EncodeToString(x)), nil
	case time.Time:
		s := formatCSVField(v, t)
		if o.iso {
			s = strings.Replace(s, " ", "T", 1)
		}
		return appendJSONString(b, s), nil
	case []any:
		if t.Kind == types.Row {
			names := make([]string, len(t.Fields))
			ts := make([]*types.Type, len(t.Fields))
			for i, f := range t.Fields {
				names[i], ts[i] = f.Name, f.Type
			}
			return o.appendRow(b, x, names, ts)
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = o.appendJSON(b, e, t.Elem); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[any]any:
		keys := make([]string, 0, len(x))
		byKey := map[string]any{}
		for k, e := range x {
			var ks string
			if k == nil {
				switch o.nullKeyMode {
				case "DROP":
					continue
				case "LITERAL":
					ks = o.nullKeyLiteral
				default:
					return nil, &Error{Exception: "RuntimeException", Msg: "JSON format doesn't support to serialize map data with null keys. You can drop null key entries or encode null in literals by specifying map-null-key.mode option."}
				}
			} else {
				ks = formatCSVField(k, t.Elem)
			}
			keys = append(keys, ks)
			byKey[ks] = e
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			var err error
			if b, err = o.appendJSON(b, byKey[k], t.Val); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return appendJSONString(b, formatCSVField(v, t)), nil
}
