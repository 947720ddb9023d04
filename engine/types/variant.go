package types

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// VariantKind is the kind of one VARIANT value (a node of its tree).
type VariantKind uint8

// The kinds PARSE_JSON produces, after Flink's variant encoding: a JSON
// integer that fits a BIGINT is an integer, another number without an
// exponent whose precision and scale fit 38 digits is a DECIMAL, every
// other number is a DOUBLE.
const (
	VariantNull    VariantKind = iota + 1 // JSON null: a value, not SQL NULL
	VariantBool                           // true, false
	VariantInt                            // integers of BIGINT's range
	VariantDecimal                        // exact numbers, scale kept
	VariantDouble                         // numbers with an exponent or beyond DECIMAL(38)
	VariantString                         // strings
	VariantArray                          // arrays
	VariantObject                         // objects: keys sorted, each once
)

// maxVariantDecimal is the largest precision and scale of a decimal in a
// variant (Flink's DECIMAL16, 38 digits); a number beyond it is a DOUBLE.
const maxVariantDecimal = 38

// VariantValue is the Go value of a VARIANT: the tree of a JSON document plus
// the dictionary of its object keys in the order they first appeared,
// which Flink's binary encoding (metadata and values, after Spark's and
// Parquet's variant format) keeps and its equality compares. Two variants
// are equal when their encodings are: the same tree, the same numbers in
// the same kinds (1, 1.0 and 1E0 differ; 1.5 and 1.50 differ), and the
// same dictionary ({"a":1,"b":2} and {"b":2,"a":1} differ, as in Flink).
// A VariantValue is immutable once built.
type VariantValue struct {
	root *variantNode
	dict []string
}

type variantNode struct {
	kind  VariantKind
	b     bool
	i     int64
	f     float64
	d     *decimal.Decimal
	s     string
	elems []*variantNode // array elements; object values in key order
	keys  []string       // object keys, sorted
}

// Kind returns the kind of the variant's top-level value.
func (v *VariantValue) Kind() VariantKind { return v.root.kind }

// IsJSONNull reports whether the variant holds a JSON null.
func (v *VariantValue) IsJSONNull() bool { return v.root.kind == VariantNull }

// String returns the variant's JSON text, as Flink prints a VARIANT
// (Variant.toJson): no blanks, object keys sorted, strings with JSON's
// escapes, decimals without trailing zeros, doubles in Java's form
// (1000.0, 1.5E-7, Infinity).
func (v *VariantValue) String() string {
	var b strings.Builder
	v.root.writeJSON(&b)
	return b.String()
}

func (n *variantNode) writeJSON(b *strings.Builder) {
	switch n.kind {
	case VariantNull:
		b.WriteString("null")
	case VariantBool:
		b.WriteString(strconv.FormatBool(n.b))
	case VariantInt:
		b.WriteString(strconv.FormatInt(n.i, 10))
	case VariantDecimal:
		b.WriteString(plainStripped(n.d))
	case VariantDouble:
		b.WriteString(JavaFloat(n.f, 64))
	case VariantString:
		writeJSONString(b, n.s)
	case VariantArray:
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.writeJSON(b)
		}
		b.WriteByte(']')
	case VariantObject:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			n.elems[i].writeJSON(b)
		}
		b.WriteByte('}')
	}
}

// writeJSONString writes s quoted with Jackson's escapes: the quote, the
// backslash, \b \t \n \f \r, other control characters as \u00XX.
func writeJSONString(b *strings.Builder, s string) {
	const hexDigits = "0123456789ABCDEF"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&15])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// plainStripped prints d as Java's stripTrailingZeros().toPlainString().
func plainStripped(d *decimal.Decimal) string {
	coef := new(big.Int).Set(d.Coefficient())
	exp := int(d.Exponent())
	if coef.Sign() == 0 {
		return "0"
	}
	ten := big.NewInt(10)
	for exp < 0 {
		q, r := new(big.Int).QuoRem(coef, ten, new(big.Int))
		if r.Sign() != 0 {
			break
		}
		coef, exp = q, exp+1
	}
	neg := coef.Sign() < 0
	digits := new(big.Int).Abs(coef).String()
	var s string
	switch {
	case exp >= 0:
		s = digits + strings.Repeat("0", exp)
	case -exp >= len(digits):
		s = "0." + strings.Repeat("0", -exp-len(digits)) + digits
	default:
		s = digits[:len(digits)+exp] + "." + digits[len(digits)+exp:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Equal reports whether two variants have the same encoding (see VariantValue).
func (v *VariantValue) Equal(w *VariantValue) bool {
	if len(v.dict) != len(w.dict) {
		return false
	}
	for i := range v.dict {
		if v.dict[i] != w.dict[i] {
			return false
		}
	}
	return v.root.equal(w.root)
}

func (n *variantNode) equal(m *variantNode) bool {
	if n.kind != m.kind {
		return false
	}
	switch n.kind {
	case VariantBool:
		return n.b == m.b
	case VariantInt:
		return n.i == m.i
	case VariantDecimal:
		return n.d.Exponent() == m.d.Exponent() && n.d.Coefficient().Cmp(m.d.Coefficient()) == 0
	case VariantDouble:
		return math.Float64bits(n.f) == math.Float64bits(m.f)
	case VariantString:
		return n.s == m.s
	case VariantArray, VariantObject:
		if len(n.elems) != len(m.elems) {
			return false
		}
		for i := range n.keys {
			if n.keys[i] != m.keys[i] {
				return false
			}
		}
		for i := range n.elems {
			if !n.elems[i].equal(m.elems[i]) {
				return false
			}
		}
	}
	return true
}

// Hash returns a hash of the variant consistent with Equal.
func (v *VariantValue) Hash() uint64 {
	h := uint64(14695981039346656037)
	for _, c := range v.Encode() {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// JSONParseError is a document PARSE_JSON cannot read: Jackson's
// JsonParseException (with its " at [Source: ...]" location) or Flink's
// VariantTypeException for a duplicate key.
type JSONParseError struct {
	Exception string
	Msg       string
}

func (e *JSONParseError) Error() string { return e.Msg }

// Class returns the exception class Flink reports.
func (e *JSONParseError) Class() string { return e.Exception }

// ParseVariant reads a JSON document into a VARIANT as Flink's PARSE_JSON
// does (Jackson's parser): the first value of the text is read and what
// follows it is ignored; a key repeated in one object is an error unless
// allowDuplicateKeys, when its last value wins.
func ParseVariant(text string, allowDuplicateKeys bool) (*VariantValue, error) {
	p := &variantParser{src: text, allowDup: allowDuplicateKeys, ids: map[string]bool{}}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, p.fail("Unexpected null token")
	}
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	if root.kind == VariantInt || root.kind == VariantDecimal || root.kind == VariantDouble {
		if p.pos < len(p.src) && !isSpace(p.src[p.pos]) {
			return nil, p.unexpected("Expected space separating root-level values")
		}
	}
	return &VariantValue{root: root, dict: p.dict}, nil
}

type variantParser struct {
	src      string
	pos      int
	allowDup bool
	dict     []string
	ids      map[string]bool
}

// fail builds Jackson's JsonParseException with the location at pos.
func (p *variantParser) fail(msg string) error { return p.failClass("JsonParseException", msg) }

// eof is Jackson's JsonEOFException at the end of the text.
func (p *variantParser) eof(msg string) error {
	p.pos = len(p.src)
	return p.failClass("JsonEOFException", msg)
}

func (p *variantParser) failClass(class, msg string) error {
	return &JSONParseError{Exception: class,
		Msg: fmt.Sprintf("%s\n at [Source: UNKNOWN; line: 1, column: %d]", msg, p.column(p.pos))}
}

// column is Jackson's 1-based column of byte offset off.
func (p *variantParser) column(off int) int {
	return utf8.RuneCountInString(p.src[:min(off, len(p.src))]) + 1
}

// unexpected reports the character at pos.
func (p *variantParser) unexpected(what string) error {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return p.fail(fmt.Sprintf("Unexpected character ('%c' (code %d)): %s", r, r, what))
}

// closeMarker is the end of the text inside an array or object.
func (p *variantParser) closeMarker(what string, start int) error {
	return p.eof(fmt.Sprintf("Unexpected end-of-input: expected close marker for %s (start marker at "+
		"[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: %d])",
		what, p.column(start)))
}

func (p *variantParser) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

const validValues = "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')"

func (p *variantParser) value() (*variantNode, error) {
	switch c := p.src[p.pos]; {
	case c == '{':
		p.pos++
		return p.object(p.pos - 1)
	case c == '[':
		p.pos++
		return p.array(p.pos - 1)
	case c == '"':
		p.pos++
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &variantNode{kind: VariantString, s: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		start := p.pos
		for p.pos < len(p.src) && isTokenChar(p.src[p.pos]) {
			p.pos++
		}
		switch word := p.src[start:p.pos]; word {
		case "true", "false":
			return &variantNode{kind: VariantBool, b: word == "true"}, nil
		case "null":
			return &variantNode{kind: VariantNull}, nil
		default:
			return nil, p.fail(fmt.Sprintf("Unrecognized token '%s': was expecting %s", word, validValues))
		}
	default:
		return nil, p.unexpected("expected a valid value " + validValues)
	}
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func (p *variantParser) addKey(k string) {
	if !p.ids[k] {
		p.ids[k] = true
		p.dict = append(p.dict, k)
	}
}

func (p *variantParser) object(start int) (*variantNode, error) {
	vals := map[string]*variantNode{}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return &variantNode{kind: VariantObject}, nil
	}
	dup := false
	for first := true; ; first = false {
		p.skipSpace()
		if p.pos >= len(p.src) {
			if first {
				return nil, p.closeMarker("Object", start)
			}
			return nil, p.eof("Unexpected end-of-input within/between Object entries")
		}
		if p.src[p.pos] != '"' {
			return nil, p.unexpected("was expecting double-quote to start field name")
		}
		p.pos++
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.addKey(k)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.eof("Unexpected end-of-input within/between Object entries")
		}
		if p.src[p.pos] != ':' {
			return nil, p.unexpected("was expecting a colon to separate field name and value")
		}
		p.pos++
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.eof("Unexpected end-of-input within/between Object entries")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if _, seen := vals[k]; seen {
			dup = true
		}
		vals[k] = v
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.closeMarker("Object", start)
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			continue
		case '}':
			p.pos++
		default:
			return nil, p.unexpected("was expecting comma to separate Object entries")
		}
		break
	}
	if dup && !p.allowDup {
		return nil, &JSONParseError{Exception: "VariantTypeException", Msg: "VARIANT_DUPLICATE_KEY"}
	}
	n := &variantNode{kind: VariantObject, keys: make([]string, 0, len(vals))}
	for k := range vals {
		n.keys = append(n.keys, k)
	}
	sort.Strings(n.keys)
	n.elems = make([]*variantNode, len(n.keys))
	for i, k := range n.keys {
		n.elems[i] = vals[k]
	}
	return n, nil
}

func (p *variantParser) array(start int) (*variantNode, error) {
	n := &variantNode{kind: VariantArray}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return n, nil
	}
	for first := true; ; first = false {
		p.skipSpace()
		if p.pos >= len(p.src) {
			if first {
				return nil, p.closeMarker("Array", start)
			}
			return nil, p.fail("Unexpected end-of-input within/between Array entries")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.closeMarker("Array", start)
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			continue
		case ']':
			p.pos++
			return n, nil
		default:
			return nil, p.unexpected("was expecting comma to separate Array entries")
		}
	}
}

// str reads a string after its opening quote.
func (p *variantParser) str() (string, error) {
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.eof("Unexpected end-of-input: was expecting closing quote for a string value")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			p.pos++
			if p.pos >= len(p.src) {
				return "", p.fail("Unexpected end-of-input in character escape sequence")
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(p.src[p.pos:], `\u`) {
					save := p.pos
					p.pos += 2
					lo, err := p.hex4()
					if err == nil && lo >= 0xDC00 && lo < 0xE000 {
						r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					} else {
						p.pos = save
					}
				}
				b.WriteRune(r)
			default:
				p.pos--
				r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
				p.pos += utf8.RuneLen(r)
				return "", p.fail(fmt.Sprintf("Unrecognized character escape '%c' (code %d)", r, r))
			}
		case c < 0x20:
			p.pos++
			return "", p.fail(fmt.Sprintf("Illegal unquoted character ((CTRL-CHAR, code %d)): has to be escaped using backslash to be included in string value", c))
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

func (p *variantParser) hex4() (rune, error) {
	if p.pos+4 > len(p.src) {
		p.pos = len(p.src)
		return 0, p.fail("Unexpected end-of-input in character escape sequence")
	}
	n, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, p.fail("Unexpected character in character escape sequence: expected a hex-digit for character escape sequence")
	}
	p.pos += 4
	return rune(n), nil
}

// number reads a JSON number: an integer of BIGINT's range, else a
// decimal when it has no exponent and fits DECIMAL(38), else a double.
func (p *variantParser) number() (*variantNode, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		s := p.pos
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		return p.pos - s
	}
	intStart := p.pos
	if digits() == 0 {
		if p.pos >= len(p.src) {
			return nil, p.eof("Unexpected end-of-inputNo digit following sign")
		}
		r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
		return nil, p.fail(fmt.Sprintf("Unexpected character ('%c' (code %d)) in numeric value: expected digit (0-9) to follow minus sign, for valid numeric value", r, r))
	}
	if p.pos-intStart > 1 && p.src[intStart] == '0' {
		p.pos = intStart + 1
		return nil, p.fail("Invalid numeric value: Leading zeroes not allowed")
	}
	integral := true
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		integral = false
		p.pos++
		if digits() == 0 {
			return nil, p.fail("Unexpected end-of-input in a Number value")
		}
	}
	exponent := false
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		integral, exponent = false, true
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("Unexpected end-of-input in exponent indicator")
		}
	}
	text := p.src[start:p.pos]
	if integral {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &variantNode{kind: VariantInt, i: i}, nil
		}
	}
	if !exponent {
		if d, err := decimal.NewFromString(text); err == nil {
			prec := len(strings.TrimLeft(new(big.Int).Abs(d.Coefficient()).String(), "0"))
			scale := -int(d.Exponent())
			if prec == 0 {
				prec = 1
			}
			if scale < 0 {
				prec -= scale
				scale = 0
			}
			if prec <= maxVariantDecimal && scale <= maxVariantDecimal {
				return &variantNode{kind: VariantDecimal, d: &d}, nil
			}
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(f, 0) {
		return nil, p.fail("Invalid numeric value")
	}
	return &variantNode{kind: VariantDouble, f: f}, nil
}

// Encode returns the variant in eddy's storage encoding (version byte 1,
// the key dictionary, then the tree); DecodeVariant reads it back. It
// keeps everything Equal compares.
func (v *VariantValue) Encode() []byte {
	b := []byte{1}
	b = binary.AppendUvarint(b, uint64(len(v.dict)))
	for _, k := range v.dict {
		b = appendVariantString(b, k)
	}
	return v.root.encode(b)
}

func appendVariantString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func (n *variantNode) encode(b []byte) []byte {
	b = append(b, byte(n.kind))
	switch n.kind {
	case VariantBool:
		if n.b {
			return append(b, 1)
		}
		return append(b, 0)
	case VariantInt:
		return binary.AppendVarint(b, n.i)
	case VariantDecimal:
		b = binary.AppendVarint(b, int64(n.d.Exponent()))
		sign := byte(0)
		if n.d.Coefficient().Sign() < 0 {
			sign = 1
		}
		b = append(b, sign)
		mag := new(big.Int).Abs(n.d.Coefficient()).Bytes()
		b = binary.AppendUvarint(b, uint64(len(mag)))
		return append(b, mag...)
	case VariantDouble:
		return binary.BigEndian.AppendUint64(b, math.Float64bits(n.f))
	case VariantString:
		return appendVariantString(b, n.s)
	case VariantArray, VariantObject:
		b = binary.AppendUvarint(b, uint64(len(n.elems)))
		for i, e := range n.elems {
			if n.kind == VariantObject {
				b = appendVariantString(b, n.keys[i])
			}
			b = e.encode(b)
		}
	}
	return b
}

// errVariantEncoding is a stored variant that cannot be read.
var errVariantEncoding = errors.New("invalid VARIANT encoding")

// DecodeVariant reads a variant written by Encode.
func DecodeVariant(b []byte) (*VariantValue, error) {
	if len(b) == 0 || b[0] != 1 {
		return nil, errVariantEncoding
	}
	d := &variantDecoder{b: b[1:]}
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		return nil, errVariantEncoding
	}
	v := &VariantValue{dict: make([]string, 0, n)}
	for i := uint64(0); i < n && d.err == nil; i++ {
		v.dict = append(v.dict, d.str())
	}
	v.root = d.node(0)
	if d.err != nil || len(d.b) != 0 {
		return nil, errVariantEncoding
	}
	return v, nil
}

type variantDecoder struct {
	b   []byte
	err error
}

func (d *variantDecoder) uvarint() uint64 {
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errVariantEncoding
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *variantDecoder) take(n uint64) []byte {
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errVariantEncoding
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *variantDecoder) str() string { return string(d.take(d.uvarint())) }

func (d *variantDecoder) node(depth int) *variantNode {
	k := d.take(1)
	if d.err != nil || depth > 10000 {
		d.err = errVariantEncoding
		return nil
	}
	n := &variantNode{kind: VariantKind(k[0])}
	switch n.kind {
	case VariantNull:
	case VariantBool:
		if x := d.take(1); x != nil {
			n.b = x[0] == 1
		}
	case VariantInt:
		x, m := binary.Varint(d.b)
		if m <= 0 {
			d.err = errVariantEncoding
			return nil
		}
		d.b, n.i = d.b[m:], x
	case VariantDecimal:
		exp, m := binary.Varint(d.b)
		if m <= 0 {
			d.err = errVariantEncoding
			return nil
		}
		d.b = d.b[m:]
		sign := d.take(1)
		mag := new(big.Int).SetBytes(d.take(d.uvarint()))
		if sign != nil && sign[0] == 1 {
			mag.Neg(mag)
		}
		dec := decimal.NewFromBigInt(mag, int32(exp))
		n.d = &dec
	case VariantDouble:
		if x := d.take(8); x != nil {
			n.f = math.Float64frombits(binary.BigEndian.Uint64(x))
		}
	case VariantString:
		n.s = d.str()
	case VariantArray, VariantObject:
		cnt := d.uvarint()
		if cnt > uint64(len(d.b)) {
			d.err = errVariantEncoding
			return nil
		}
		for i := uint64(0); i < cnt && d.err == nil; i++ {
			if n.kind == VariantObject {
				n.keys = append(n.keys, d.str())
			}
			n.elems = append(n.elems, d.node(depth+1))
		}
	default:
		d.err = errVariantEncoding
	}
	return n
}
