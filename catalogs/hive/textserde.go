package hive

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"

	"eddy/engine/types"
)

// textSerDe reads and writes rows of Hive's default text format
// (LazySimpleSerDe): one row a line, fields separated by field.delim
// (\001), nested values by the next separators (\002 between collection
// items, \003 between a map key and its value, then \004...), NULL
// written as serialization.null.format (\N). A field that does not parse
// as its column's type reads as NULL, as in Hive.
type textSerDe struct {
	seps    []byte // separators by nesting level
	null    string
	escape  byte // 0 when none
	lineSep byte
}

// newTextSerDe reads the SerDe parameters of a table or partition.
func newTextSerDe(params map[string]string) (*textSerDe, error) {
	s := &textSerDe{null: `\N`, lineSep: '\n'}
	first := func(keys ...string) (string, bool) {
		for _, k := range keys {
			if v, ok := params[k]; ok {
				return v, true
			}
		}
		return "", false
	}
	sep := func(v string, def byte) byte {
		if v == "" {
			return def
		}
		// Hive also takes a delimiter written as its byte value.
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); err == nil && fmt.Sprint(n) == v && n > 0 && n < 128 && len(v) > 1 {
			return byte(n)
		}
		return v[0]
	}
	field, _ := first(serdeFieldDelim, serdeSerialFmt)
	coll, _ := first("collection.delim", "colelction.delim")
	mapKey, _ := first("mapkey.delim")
	s.seps = []byte{sep(field, 1), sep(coll, 2), sep(mapKey, 3)}
	for b := byte(4); b <= 8; b++ {
		s.seps = append(s.seps, b)
	}
	if s.seps[0] == '1' && field == "1" {
		s.seps[0] = 1 // serialization.format = 1 means the default \001
	}
	if v, ok := params[serdeNullFormat]; ok {
		s.null = v
	}
	if v, ok := params["escape.delim"]; ok && v != "" {
		s.escape = v[0]
	}
	if v, ok := params["line.delim"]; ok && v != "" && v != "\n" {
		return nil, fmt.Errorf("LINES TERMINATED BY other than '\\n' is not supported")
	}
	return s, nil
}

// split cuts s at sep, minding the escape character.
func (s *textSerDe) split(line string, sep byte) []string {
	if s.escape == 0 {
		return strings.Split(line, string(sep))
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == s.escape && i+1 < len(line) {
			cur.WriteByte(c)
			cur.WriteByte(line[i+1])
			i++
			continue
		}
		if c == sep {
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(out, cur.String())
}

func (s *textSerDe) unescape(v string) string {
	if s.escape == 0 || strings.IndexByte(v, s.escape) < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == s.escape && i+1 < len(v) {
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(v[i])
			}
			continue
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// decodeLine reads one line into a row of the given types.
func (s *textSerDe) decodeLine(line string, cols []*types.Type, row []any) {
	fields := s.split(line, s.seps[0])
	for i, t := range cols {
		if i >= len(fields) {
			row[i] = nil
			continue
		}
		row[i] = s.decode(fields[i], t, 1)
	}
}

// decode reads one value at a nesting level (its inner separator is
// seps[level]).
func (s *textSerDe) decode(v string, t *types.Type, level int) any {
	if v == s.null {
		return nil
	}
	switch t.Kind {
	case types.Array, types.Map, types.Row:
		if level+1 >= len(s.seps) {
			return nil
		}
	}
	switch t.Kind {
	case types.Array:
		if v == "" {
			return []any{}
		}
		parts := s.split(v, s.seps[level])
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = s.decode(p, t.Elem, level+1)
		}
		return out
	case types.Map:
		m := map[any]any{}
		if v == "" {
			return m
		}
		for _, p := range s.split(v, s.seps[level]) {
			kv := s.split(p, s.seps[level+1])
			k := s.decode(kv[0], t.Elem, level+2)
			var val any
			if len(kv) > 1 {
				val = s.decode(kv[1], t.Val, level+2)
			}
			m[k] = val
		}
		return m
	case types.Row:
		parts := s.split(v, s.seps[level])
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			if i < len(parts) {
				out[i] = s.decode(parts[i], f.Type, level+1)
			}
		}
		return out
	case types.Binary, types.VarBinary:
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return []byte(s.unescape(v))
		}
		return b
	case types.Char, types.VarChar:
		return s.unescape(v)
	}
	x, err := types.CastValue(strings.TrimSpace(v), types.NewString(), t)
	if err != nil {
		return nil
	}
	return x
}

// encodeRow appends one line holding vals (then '\n') to buf.
func (s *textSerDe) encodeRow(buf *bytes.Buffer, vals []any, cols []*types.Type) {
	for i, v := range vals {
		if i > 0 {
			buf.WriteByte(s.seps[0])
		}
		s.encode(buf, v, cols[i], 1)
	}
	buf.WriteByte(s.lineSep)
}

func (s *textSerDe) encode(buf *bytes.Buffer, v any, t *types.Type, level int) {
	if v == nil {
		buf.WriteString(s.null)
		return
	}
	switch t.Kind {
	case types.Array:
		for i, e := range v.([]any) {
			if i > 0 {
				buf.WriteByte(s.seps[level])
			}
			s.encode(buf, e, t.Elem, level+1)
		}
		return
	case types.Map:
		i := 0
		for k, e := range v.(map[any]any) {
			if i > 0 {
				buf.WriteByte(s.seps[level])
			}
			i++
			s.encode(buf, k, t.Elem, level+2)
			buf.WriteByte(s.seps[level+1])
			s.encode(buf, e, t.Val, level+2)
		}
		return
	case types.Row:
		for i, e := range v.([]any) {
			if i > 0 {
				buf.WriteByte(s.seps[level])
			}
			s.encode(buf, e, t.Fields[i].Type, level+1)
		}
		return
	case types.Binary, types.VarBinary:
		buf.WriteString(base64.StdEncoding.EncodeToString(v.([]byte)))
		return
	case types.Boolean:
		if v.(bool) {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
		return
	case types.Char, types.VarChar:
		s.writeEscaped(buf, v.(string))
		return
	}
	buf.WriteString(types.ValueString(v, t))
}

// writeEscaped writes a string, escaping separators and line breaks when
// the table has an escape character.
func (s *textSerDe) writeEscaped(buf *bytes.Buffer, v string) {
	if s.escape == 0 {
		buf.WriteString(v)
		return
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\n':
			buf.WriteByte(s.escape)
			buf.WriteByte('n')
		case c == '\r':
			buf.WriteByte(s.escape)
			buf.WriteByte('r')
		case c == s.escape || bytes.IndexByte(s.seps, c) >= 0:
			buf.WriteByte(s.escape)
			buf.WriteByte(c)
		default:
			buf.WriteByte(c)
		}
	}
}
