package connectors

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"eddy/engine/types"
)

// jsonFields reads a JSON object whose fields the columns take as scalars
// straight into a row, without building a map of the object: the common
// case of the json format's decoders (a message or a line holding one flat
// object). What it does not read it declines, and the caller decodes the
// text the general way (jsonDecoder), which also words every error: a
// text that is not one object, a value a column cannot take, an object or
// array for a column, an escape in a field name, a missing field that
// 'json.fail-on-missing-field' refuses. Values are converted by fromJSON,
// the general way's conversion.
type jsonFields struct {
	f     *jsonOptions
	ts    []*types.Type
	index map[string]int
	seen  []bool
}

// newJSONFields returns the fast reader of cols, or nil when a column's
// type is not a scalar one (ROW, ARRAY, MULTISET, MAP and RAW columns take
// the general way).
func newJSONFields(f *jsonOptions, cols []Column) *jsonFields {
	j := &jsonFields{f: f, index: make(map[string]int, len(cols)), seen: make([]bool, len(cols))}
	for i, c := range cols {
		switch c.Type.Kind {
		case types.Row, types.Array, types.Multiset, types.Map, types.Raw:
			return nil
		}
		if _, dup := j.index[c.Name]; dup {
			return nil
		}
		j.index[c.Name] = i
		j.ts = append(j.ts, c.Type)
	}
	return j
}

// object reads text, one JSON object, into row (one value per column).
// ok is false when it declines the text (see jsonFields).
func (j *jsonFields) object(text []byte, row []any) (ok bool) {
	clear(j.seen)
	s := jsonScanner{b: text}
	if !s.byte('{') {
		return false
	}
	if !s.byte('}') {
		for {
			key, ok := s.plainString()
			if !ok || !s.byte(':') {
				return false
			}
			col, isCol := j.index[string(key)]
			s.space()
			if s.i >= len(s.b) {
				return false
			}
			var v any
			switch c := s.b[s.i]; {
			case c == '"':
				str, ok := s.stringValue()
				if !ok {
					return false
				}
				v = str
			case c == '-' || c >= '0' && c <= '9':
				num, ok := s.number()
				if !ok {
					return false
				}
				if isCol {
					v = json.Number(num)
				}
			case c == 't' || c == 'f' || c == 'n':
				word, ok := s.word()
				if !ok {
					return false
				}
				v = word
			case c == '{' || c == '[':
				if isCol || !s.skipNested() {
					return false
				}
			default:
				return false
			}
			if isCol {
				x, err := fromJSON(v, j.ts[col], j.f.isoTimestamps)
				if err != nil {
					return false
				}
				row[col], j.seen[col] = x, true
			}
			if s.byte(',') {
				continue
			}
			if !s.byte('}') {
				return false
			}
			break
		}
	}
	s.space()
	if s.i != len(s.b) {
		return false
	}
	for i, seen := range j.seen {
		if !seen {
			if j.f.failOnMissing {
				return false
			}
			row[i] = nil
		}
	}
	return true
}

// jsonScanner walks the bytes of one JSON text.
type jsonScanner struct {
	b []byte
	i int
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte skips white space and then c, reporting whether c was there.
func (s *jsonScanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// plainString reads a string without escapes (a field name), after white
// space, returning its bytes.
func (s *jsonScanner) plainString() ([]byte, bool) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	start := s.i + 1
	for i := start; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			// encoding/json reads invalid UTF-8 as U+FFFD.
			if !utf8.Valid(s.b[start:i]) {
				return nil, false
			}
			return s.b[start:i], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// stringValue reads a string value; one with escapes is unescaped by
// encoding/json.
func (s *jsonScanner) stringValue() (string, bool) {
	start := s.i
	escaped := false
	for i := start + 1; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '\\':
			escaped = true
			i++
		case c == '"':
			s.i = i + 1
			if !escaped && !utf8.Valid(s.b[start+1:i]) {
				escaped = true // encoding/json reads invalid UTF-8 as U+FFFD
			}
			if !escaped {
				return string(s.b[start+1 : i]), true
			}
			var out string
			if json.Unmarshal(s.b[start:s.i], &out) != nil {
				return "", false
			}
			return out, true
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// number reads a number as JSON writes it and returns its text.
func (s *jsonScanner) number() (string, bool) {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return "", false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return "", false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return "", false
		}
	}
	text := string(b[s.i:i])
	s.i = i
	return text, true
}

// word reads true, false or null: the value as encoding/json gives it.
func (s *jsonScanner) word() (any, bool) {
	rest := s.b[s.i:]
	for _, w := range [...]struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(rest) >= len(w.text) && string(rest[:len(w.text)]) == w.text {
			s.i += len(w.text)
			return w.v, true
		}
	}
	return nil, false
}

// skipNested skips an object or array (of a field no column reads),
// checking that it is valid JSON.
func (s *jsonScanner) skipNested() bool {
	start, depth := s.i, 0
	for i := start; i < len(s.b); i++ {
		switch s.b[i] {
		case '"':
			for i++; i < len(s.b) && s.b[i] != '"'; i++ {
				if s.b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.i = i + 1
				return json.Valid(s.b[start:s.i])
			}
		}
	}
	return false
}

// jsonInteger is the fast conversion of a JSON number to an integer
// column: plain digits that fit the type, as CastValue would read them.
func jsonInteger(x json.Number, t *types.Type) (any, bool) {
	bits := 64
	if t.Kind == types.Int {
		bits = 32
	}
	n, err := strconv.ParseInt(string(x), 10, bits)
	if err != nil {
		return nil, false
	}
	return types.IntegerValue(t.Kind, n), true
}
