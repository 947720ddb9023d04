package connectors

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// jsonFields reads a JSON object whose fields the columns take as scalars
// straight into typed slots, one per column, without building a map of
// the object or an engine value per field: the common case of the json
// format's decoders (a message or a line holding one flat object). The
// slots then go into a row (object) or straight into column vectors
// (appendObject). What it does not read it declines, and the caller
// decodes the text the general way (jsonDecoder), which also words every
// error: a text that is not one object, a value a column cannot take, an
// object or array for a column, an escape in a field name, a missing field
// that 'json.fail-on-missing-field' refuses. A value the typed conversions
// below do not cover is converted by fromJSON, the general way's
// conversion, so both ways agree on every value.
type jsonFields struct {
	f     *jsonOptions
	cols  []jsonCol
	index map[string]int
	slots []jsonSlot
	strs  stringArena
}

// stringArena holds the bytes of the strings a message reader reads: a
// string is a view of bytes appended to it, never written again, so short
// strings cost no allocation of their own. When the arena is full a new
// one takes its place; the old one lives as long as a string of it does.
type stringArena struct{ buf []byte }

// arenaSize is the size of a stringArena's blocks.
const arenaSize = 8 << 10

// str returns b as a string held by the arena.
func (a *stringArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaSize/8 {
		return string(b)
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, arenaSize)
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return unsafe.String(&a.buf[start], len(b))
}

// jsonCol is a column of a jsonFields: its name, type and conversion.
type jsonCol struct {
	name string
	t    *types.Type
	conv jsonConv
}

// jsonConv is how a column takes a JSON scalar without fromJSON.
type jsonConv uint8

const (
	jsAny    jsonConv = iota // fromJSON only
	jsInt                    // BIGINT, INT from a number of plain digits
	jsDouble                 // DOUBLE from a number
	jsString                 // CHAR, VARCHAR from a string, a number or a Boolean
	jsBool                   // BOOLEAN from true or false
	jsTime                   // TIMESTAMP, TIMESTAMP_LTZ from a string yyyy-MM-dd HH:mm:ss[.f]
)

// jsonSlot is one column's value of the object being read.
type jsonSlot struct {
	state slotState
	i     int64 // jsInt, jsBool (0 or 1)
	f     float64
	s     string
	t     time.Time
	x     any // slotValue: an engine value of the column's type
}

type slotState uint8

const (
	slotMissing slotState = iota // no field: NULL unless refused
	slotNull
	slotTyped // in the field of the column's conversion
	slotValue // in x
)

// newJSONFields returns the fast reader of cols, or nil when a column's
// type is not a scalar one (ROW, ARRAY, MULTISET, MAP and RAW columns take
// the general way).
func newJSONFields(f *jsonOptions, cols []Column) *jsonFields {
	j := &jsonFields{f: f, index: make(map[string]int, len(cols)), slots: make([]jsonSlot, len(cols))}
	for i, c := range cols {
		conv := jsAny
		switch c.Type.Kind {
		case types.Row, types.Array, types.Multiset, types.Map, types.Raw:
			return nil
		case types.BigInt, types.Int:
			conv = jsInt
		case types.Double:
			conv = jsDouble
		case types.Char, types.VarChar:
			conv = jsString
		case types.Boolean:
			conv = jsBool
		case types.Timestamp, types.TimestampLTZ:
			conv = jsTime
		}
		if _, dup := j.index[c.Name]; dup {
			return nil
		}
		j.index[c.Name] = i
		j.cols = append(j.cols, jsonCol{name: c.Name, t: c.Type, conv: conv})
	}
	return j
}

// object reads text, one JSON object, into row (one value per column).
// ok is false when it declines the text (see jsonFields).
func (j *jsonFields) object(text []byte, row []any) (ok bool) {
	if !j.scan(text) {
		return false
	}
	for i := range j.slots {
		row[i] = j.value(i)
	}
	return true
}

// appendObject reads text, one JSON object, appending its values to vecs
// (one per column, of the columns' types). ok is false when it declines
// the text (see jsonFields); vecs are then unchanged.
func (j *jsonFields) appendObject(text []byte, vecs []*vector.Vec) (ok bool) {
	if !j.scan(text) {
		return false
	}
	for i := range j.slots {
		s, v := &j.slots[i], vecs[i]
		switch s.state {
		case slotMissing, slotNull:
			v.AppendNull()
			continue
		case slotValue:
			v.Append(s.x)
			continue
		}
		switch j.cols[i].conv {
		case jsInt:
			v.Ints = append(v.Ints, s.i)
		case jsDouble:
			v.Floats = append(v.Floats, s.f)
		case jsString:
			v.Strs = append(v.Strs, s.s)
		case jsBool:
			v.Bools = append(v.Bools, s.i != 0)
		case jsTime:
			v.Times = append(v.Times, s.t)
		}
		v.Len++
	}
	return true
}

// value returns slot i as an engine value.
func (j *jsonFields) value(i int) any {
	s := &j.slots[i]
	switch s.state {
	case slotMissing, slotNull:
		return nil
	case slotValue:
		return s.x
	}
	switch c := &j.cols[i]; c.conv {
	case jsInt:
		return types.IntegerValue(c.t.Kind, s.i)
	case jsDouble:
		return s.f
	case jsString:
		return s.s
	case jsBool:
		return s.i != 0
	default:
		return s.t
	}
}

// scan reads text into the slots; false declines it.
func (j *jsonFields) scan(text []byte) bool {
	for i := range j.slots {
		j.slots[i].state = slotMissing
	}
	s := jsonScanner{b: text}
	if !s.byte('{') {
		return false
	}
	next := 0 // the column the next field most likely is: fields come in column order
	if !s.byte('}') {
		for {
			key, ok := s.plainString()
			if !ok || !s.byte(':') {
				return false
			}
			col := -1
			if next < len(j.cols) && j.cols[next].name == string(key) {
				col = next
			} else if c, isCol := j.index[string(key)]; isCol {
				col = c
			}
			if col >= 0 {
				next = col + 1
			}
			s.space()
			if s.i >= len(s.b) {
				return false
			}
			if col < 0 {
				if !s.skipValue() {
					return false
				}
			} else if !j.field(&s, col) {
				return false
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
	if j.f.failOnMissing {
		for i := range j.slots {
			if j.slots[i].state == slotMissing {
				return false
			}
		}
	}
	return true
}

// field reads the value at s into column col's slot.
func (j *jsonFields) field(s *jsonScanner, col int) bool {
	slot, c := &j.slots[col], &j.cols[col]
	var v any // the value as encoding/json gives it, for fromJSON
	switch b := s.b[s.i]; {
	case b == '"':
		raw, escaped, ok := s.stringBytes()
		if !ok {
			return false
		}
		if !escaped {
			switch c.conv {
			case jsString:
				slot.s, slot.state = j.strs.str(raw), slotTyped
				return true
			case jsTime:
				if t, ok := jsonTimestamp(raw, c.t, j.f.isoTimestamps); ok {
					slot.t, slot.state = t, slotTyped
					return true
				}
			}
			v = string(raw)
		} else {
			var str string
			if json.Unmarshal(s.b[s.i-len(raw)-2:s.i], &str) != nil {
				return false
			}
			v = str
		}
	case b == '-' || b >= '0' && b <= '9':
		num, ok := s.number()
		if !ok {
			return false
		}
		switch c.conv {
		case jsInt:
			if n, ok := jsonDigits(num, c.t.Kind); ok {
				slot.i, slot.state = n, slotTyped
				return true
			}
		case jsDouble:
			if f, err := strconv.ParseFloat(string(num), 64); err == nil {
				slot.f, slot.state = f, slotTyped
				return true
			}
		case jsString:
			slot.s, slot.state = j.strs.str(num), slotTyped
			return true
		}
		v = json.Number(num)
	case b == 't' || b == 'f' || b == 'n':
		word, ok := s.word()
		if !ok {
			return false
		}
		if word == nil {
			slot.state = slotNull
			return true
		}
		if c.conv == jsBool {
			slot.i, slot.state = 0, slotTyped
			if word == true {
				slot.i = 1
			}
			return true
		}
		v = word
	default:
		return false // an object or an array for a column
	}
	x, err := fromJSON(v, c.t, j.f.isoTimestamps)
	if err != nil {
		return false
	}
	slot.x, slot.state = x, slotValue
	if x == nil {
		slot.state = slotNull
	}
	return true
}

// jsonDigits reads a JSON number of plain digits (no fraction, no
// exponent) that fits an INT (kind Int) or a BIGINT, as fromJSON does.
func jsonDigits(num []byte, kind types.Kind) (int64, bool) {
	neg := num[0] == '-'
	d := num
	if neg {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	limit := uint64(1<<63 - 1)
	if kind == types.Int {
		limit = 1<<31 - 1
	}
	if neg {
		limit++
	}
	if n > limit {
		return 0, false
	}
	if neg {
		return -int64(n), true //nolint:gosec // n <= 1<<63 checked above
	}
	return int64(n), true //nolint:gosec // n < 1<<63 checked above
}

// jsonTimestamp reads the canonical text yyyy-MM-dd HH:mm:ss[.fffffffff]
// (with a 'T' for ' ' when iso) of a TIMESTAMP column, as fromJSON reads
// it; ok is false for any other text, which fromJSON then reads.
func jsonTimestamp(b []byte, t *types.Type, iso bool) (time.Time, bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || b[13] != ':' || b[16] != ':' ||
		!(b[10] == ' ' || iso && b[10] == 'T') {
		return time.Time{}, false
	}
	two := func(i int) int {
		x, y := b[i], b[i+1]
		if x < '0' || x > '9' || y < '0' || y > '9' {
			return -1
		}
		return int(x-'0')*10 + int(y-'0')
	}
	hi, lo := two(0), two(2)
	month, day, hour, minute, second := two(5), two(8), two(11), two(14), two(17)
	if hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1 || day > 31 ||
		hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 {
		return time.Time{}, false
	}
	year := hi*100 + lo
	if year < 1 {
		return time.Time{}, false
	}
	nano := 0
	if len(b) > 19 {
		frac := b[20:]
		if b[19] != '.' || len(frac) == 0 || len(frac) > 9 {
			return time.Time{}, false
		}
		for _, c := range frac {
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			nano = nano*10 + int(c-'0')
		}
		for range 9 - len(frac) {
			nano *= 10
		}
	}
	// The day is clamped to the month's last, as the general way does.
	day = min(day, daysIn(time.Month(month), year))
	unit := 1
	for range 9 - min(max(t.Prec, 0), 9) {
		unit *= 10
	}
	nano -= nano % unit
	return time.Date(year, time.Month(month), day, hour, minute, second, nano, time.UTC), true
}

// daysIn returns the number of days of a month.
func daysIn(m time.Month, year int) int {
	switch m {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
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
	raw, escaped, ok := s.stringBytes()
	if !ok || escaped {
		return nil, false
	}
	return raw, true
}

// stringBytes reads a string at s and returns the bytes between its
// quotes; escaped is true when they hold an escape or invalid UTF-8 (which
// encoding/json reads as U+FFFD), and then they need encoding/json's
// unquoting. Control characters are refused.
func (s *jsonScanner) stringBytes() (raw []byte, escaped bool, ok bool) {
	start := s.i + 1
	ascii := true
	for i := start; i < len(s.b); i++ {
		// Runs of plain characters first: the common case.
		for i < len(s.b) && jsonPlain[s.b[i]] {
			i++
		}
		if i >= len(s.b) {
			break
		}
		switch c := s.b[i]; {
		case c == '\\':
			escaped = true
			i++
		case c == '"':
			s.i = i + 1
			raw = s.b[start:i]
			if !escaped && !ascii && !utf8.Valid(raw) {
				escaped = true
			}
			return raw, escaped, true
		case c < 0x20:
			return nil, false, false
		default: // not ASCII
			ascii = false
		}
	}
	return nil, false, false
}

// jsonPlain marks the bytes a string holds as they are: ASCII but for
// control characters, the quote and the backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipValue skips a value of a field no column reads, checking that it is
// valid JSON.
func (s *jsonScanner) skipValue() bool {
	switch c := s.b[s.i]; {
	case c == '"':
		raw, escaped, ok := s.stringBytes()
		if ok && escaped {
			var str string
			return json.Unmarshal(s.b[s.i-len(raw)-2:s.i], &str) == nil
		}
		return ok
	case c == '-' || c >= '0' && c <= '9':
		_, ok := s.number()
		return ok
	case c == 't' || c == 'f' || c == 'n':
		_, ok := s.word()
		return ok
	case c == '{' || c == '[':
		return s.skipNested()
	}
	return false
}

// number reads a number as JSON writes it and returns its text.
func (s *jsonScanner) number() ([]byte, bool) {
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
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return nil, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	text := b[s.i:i]
	s.i = i
	return text, true
}

// word reads true, false or null: the value as encoding/json gives it.
func (s *jsonScanner) word() (any, bool) {
	rest := s.b[s.i:]
	switch {
	case bytes.HasPrefix(rest, []byte("true")):
		s.i += 4
		return true, true
	case bytes.HasPrefix(rest, []byte("false")):
		s.i += 5
		return false, true
	case bytes.HasPrefix(rest, []byte("null")):
		s.i += 4
		return nil, true
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
