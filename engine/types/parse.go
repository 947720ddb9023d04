package types

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// ParseError reports a malformed type string; Offset is the byte offset in
// the text given to Parse or ParsePrefix.
type ParseError struct {
	Offset int
	Msg    string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s (at offset %d)", e.Msg, e.Offset) }

// Parse reads a whole type string in Flink's syntax: the serializable form,
// the summary form and the SQL synonyms (STRING, INTEGER, DEC, NUMERIC,
// DOUBLE PRECISION, TIMESTAMP_LTZ(p), T ARRAY, ROW(a INT), ...).
func Parse(s string) (*Type, error) {
	t, n, err := ParsePrefix(s)
	if err != nil {
		return nil, err
	}
	if rest := strings.TrimSpace(s[n:]); rest != "" {
		return nil, &ParseError{Offset: n, Msg: fmt.Sprintf("unexpected %q after type", rest)}
	}
	return t, nil
}

// ParsePrefix reads one type from the start of s and returns it with the
// number of bytes consumed (trailing blanks not included). The SQL parser
// uses it for type names inside statements.
func ParsePrefix(s string) (*Type, int, error) {
	p := &typeParser{src: s}
	t, err := p.parseType(0)
	if err != nil {
		return nil, 0, err
	}
	return t, p.end, nil
}

const maxTypeDepth = 100

type typeParser struct {
	src string
	pos int // next byte to read
	end int // end of the last token consumed
}

func (p *typeParser) errorf(format string, args ...any) error {
	return &ParseError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *typeParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

// rawWord returns the word (ASCII letters, digits and '_') at the current
// position as written, and the offset past it, without consuming it.
func (p *typeParser) rawWord() (string, int) {
	p.skipSpace()
	i := p.pos
	for i < len(p.src) {
		c := p.src[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			i++
			continue
		}
		break
	}
	return p.src[p.pos:i], i
}

// acceptWord consumes the word w (given upper-case) in any case.
func (p *typeParser) acceptWord(w string) bool {
	got, end := p.rawWord()
	if len(got) != len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		// got holds only letters, digits and '_': setting bit 5 folds
		// the case of letters and leaves the others apart.
		if got[i]|0x20 != w[i]|0x20 {
			return false
		}
	}
	p.pos, p.end = end, end
	return true
}

// word consumes a word and returns it upper-cased.
func (p *typeParser) word() (string, error) {
	w, end := p.rawWord()
	if w == "" {
		return "", p.errorf("expected a type name")
	}
	p.pos, p.end = end, end
	return strings.ToUpper(w), nil
}

func (p *typeParser) acceptByte(c byte) bool {
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		p.end = p.pos
		return true
	}
	return false
}

func (p *typeParser) expectByte(c byte) error {
	if !p.acceptByte(c) {
		return p.errorf("expected %q", c)
	}
	return nil
}

func (p *typeParser) number() (int, error) {
	p.skipSpace()
	i := p.pos
	for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
		i++
	}
	if i == p.pos {
		return 0, p.errorf("expected a number")
	}
	n, err := strconv.Atoi(p.src[p.pos:i])
	if err != nil {
		return 0, p.errorf("number out of range")
	}
	p.pos, p.end = i, i
	return n, nil
}

// optParam reads "(n)" if present.
func (p *typeParser) optParam(def int) (int, error) {
	if !p.acceptByte('(') {
		return def, nil
	}
	n, err := p.number()
	if err != nil {
		return 0, err
	}
	return n, p.expectByte(')')
}

func (p *typeParser) quoted() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '\'' {
		return "", p.errorf("expected a string")
	}
	var b strings.Builder
	i := p.pos + 1
	for i < len(p.src) {
		if p.src[i] == '\'' {
			if i+1 < len(p.src) && p.src[i+1] == '\'' {
				b.WriteByte('\'')
				i += 2
				continue
			}
			p.pos, p.end = i+1, i+1
			return b.String(), nil
		}
		b.WriteByte(p.src[i])
		i++
	}
	return "", p.errorf("unterminated string")
}

func (p *typeParser) fieldName() (string, error) {
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '`' {
		var b strings.Builder
		i := p.pos + 1
		for i < len(p.src) {
			if p.src[i] == '`' {
				if i+1 < len(p.src) && p.src[i+1] == '`' {
					b.WriteByte('`')
					i += 2
					continue
				}
				p.pos, p.end = i+1, i+1
				return b.String(), nil
			}
			b.WriteByte(p.src[i])
			i++
		}
		return "", p.errorf("unterminated identifier")
	}
	start := p.pos
	for p.pos < len(p.src) {
		r := rune(p.src[p.pos])
		if r == '_' || r == '$' || r >= 128 || unicode.IsLetter(r) || unicode.IsDigit(r) {
			p.pos++
			continue
		}
		break
	}
	if p.pos == start {
		return "", p.errorf("expected a field name")
	}
	p.end = p.pos
	return p.src[start:p.pos], nil
}

func (p *typeParser) parseType(depth int) (*Type, error) {
	if depth > maxTypeDepth {
		return nil, p.errorf("type nested too deeply")
	}
	t, err := p.parseBase(depth)
	if err != nil {
		return nil, err
	}
	for {
		if err := p.nullability(t); err != nil {
			return nil, err
		}
		// Postfix collection syntax: INT ARRAY, INT MULTISET.
		save := p.pos
		if p.acceptWord("ARRAY") {
			t = NewArray(t)
			continue
		}
		if p.acceptWord("MULTISET") {
			t = NewMultiset(t)
			continue
		}
		p.pos = save
		return t, nil
	}
}

func (p *typeParser) nullability(t *Type) error {
	save, saveEnd := p.pos, p.end
	if p.acceptWord("NOT") {
		if !p.acceptWord("NULL") {
			p.pos, p.end = save, saveEnd
			return nil
		}
		t.NotNull = true
		return nil
	}
	if p.acceptWord("NULL") {
		t.NotNull = false
	}
	return nil
}

func (p *typeParser) parseBase(depth int) (*Type, error) {
	start := p.pos
	w, err := p.word()
	if err != nil {
		return nil, err
	}
	switch w {
	case "CHAR", "CHARACTER":
		if p.acceptWord("VARYING") {
			n, err := p.optParam(1)
			return NewVarChar(n), err
		}
		n, err := p.optParam(1)
		return NewChar(n), err
	case "VARCHAR":
		n, err := p.optParam(1)
		return NewVarChar(n), err
	case "STRING":
		return NewString(), nil
	case "BOOLEAN":
		return New(Boolean), nil
	case "BINARY":
		if p.acceptWord("VARYING") {
			n, err := p.optParam(1)
			return NewVarBinary(n), err
		}
		n, err := p.optParam(1)
		return NewBinary(n), err
	case "VARBINARY":
		n, err := p.optParam(1)
		return NewVarBinary(n), err
	case "BYTES":
		return NewVarBinary(MaxLength), nil
	case "DECIMAL", "DEC", "NUMERIC":
		prec, scale := DefaultDecimalPrec, 0
		if p.acceptByte('(') {
			if prec, err = p.number(); err != nil {
				return nil, err
			}
			if p.acceptByte(',') {
				if scale, err = p.number(); err != nil {
					return nil, err
				}
			}
			if err := p.expectByte(')'); err != nil {
				return nil, err
			}
		}
		return NewDecimal(prec, scale), nil
	case "TINYINT":
		return New(TinyInt), nil
	case "SMALLINT":
		return New(SmallInt), nil
	case "INT", "INTEGER":
		return New(Int), nil
	case "BIGINT":
		return New(BigInt), nil
	case "FLOAT", "REAL":
		return New(Float), nil
	case "DOUBLE":
		p.acceptWord("PRECISION")
		return New(Double), nil
	case "DATE":
		return New(Date), nil
	case "TIME":
		n, err := p.optParam(DefaultTimeP)
		if err != nil {
			return nil, err
		}
		save := p.pos
		if p.acceptWord("WITHOUT") {
			if !p.acceptWord("TIME") || !p.acceptWord("ZONE") {
				p.pos = save
				return nil, p.errorf("expected WITHOUT TIME ZONE")
			}
		}
		return NewTime(n), nil
	case "TIMESTAMP":
		n, err := p.optParam(DefaultTimestampP)
		if err != nil {
			return nil, err
		}
		save, saveEnd := p.pos, p.end
		switch {
		case p.acceptWord("WITHOUT"):
			if p.acceptWord("TIME") && p.acceptWord("ZONE") {
				return NewTimestamp(n), nil
			}
		case p.acceptWord("WITH"):
			if p.acceptWord("LOCAL") {
				if p.acceptWord("TIME") && p.acceptWord("ZONE") {
					return NewTimestampLTZ(n), nil
				}
			} else if p.acceptWord("TIME") && p.acceptWord("ZONE") {
				return &Type{Kind: TimestampTZ, Prec: n}, nil
			}
		default:
			return NewTimestamp(n), nil
		}
		p.pos, p.end = save, saveEnd
		return nil, p.errorf("expected WITH [LOCAL] TIME ZONE or WITHOUT TIME ZONE")
	case "TIMESTAMP_LTZ":
		n, err := p.optParam(DefaultTimestampP)
		return NewTimestampLTZ(n), err
	case "INTERVAL":
		return p.interval()
	case "ARRAY", "MULTISET":
		if err := p.expectByte('<'); err != nil {
			return nil, err
		}
		e, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectByte('>'); err != nil {
			return nil, err
		}
		if w == "ARRAY" {
			return NewArray(e), nil
		}
		return NewMultiset(e), nil
	case "MAP":
		if err := p.expectByte('<'); err != nil {
			return nil, err
		}
		k, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectByte(','); err != nil {
			return nil, err
		}
		v, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectByte('>'); err != nil {
			return nil, err
		}
		return NewMap(k, v), nil
	case "ROW", "STRUCT":
		var closer byte = '>'
		if !p.acceptByte('<') {
			if err := p.expectByte('('); err != nil {
				return nil, err
			}
			closer = ')'
		}
		var fields []Field
		if !p.acceptByte(closer) {
			for {
				name, err := p.fieldName()
				if err != nil {
					return nil, err
				}
				ft, err := p.parseType(depth + 1)
				if err != nil {
					return nil, err
				}
				f := Field{Name: name, Type: ft}
				p.skipSpace()
				if p.pos < len(p.src) && p.src[p.pos] == '\'' {
					if f.Description, err = p.quoted(); err != nil {
						return nil, err
					}
				}
				fields = append(fields, f)
				if p.acceptByte(closer) {
					break
				}
				if err := p.expectByte(','); err != nil {
					return nil, err
				}
			}
		}
		return NewRow(fields...), nil
	case "RAW":
		if err := p.expectByte('('); err != nil {
			return nil, err
		}
		class, err := p.quoted()
		if err != nil {
			return nil, err
		}
		t := &Type{Kind: Raw, RawClass: class}
		if p.acceptByte(',') {
			if t.RawSnap, err = p.quoted(); err != nil {
				return nil, err
			}
		}
		return t, p.expectByte(')')
	case "NULL":
		return New(Null), nil
	case "VARIANT":
		return New(Variant), nil
	}
	p.pos = start
	return nil, p.errorf("unknown type %q", w)
}

func (p *typeParser) interval() (*Type, error) {
	unit, err := p.word()
	if err != nil {
		return nil, err
	}
	ym := func(res IntervalRes, prec int) *Type {
		return &Type{Kind: IntervalYearMonth, Res: res, Prec: prec}
	}
	dt := func(res IntervalRes, prec, frac int) *Type {
		return &Type{Kind: IntervalDayTime, Res: res, Prec: prec, Scale: frac}
	}
	switch unit {
	case "YEAR":
		prec, err := p.optParam(DefaultYearP)
		if err != nil {
			return nil, err
		}
		if p.acceptWord("TO") {
			if !p.acceptWord("MONTH") {
				return nil, p.errorf("expected MONTH")
			}
			return ym(ResYearToMonth, prec), nil
		}
		return ym(ResYear, prec), nil
	case "MONTH":
		return ym(ResMonth, DefaultYearP), nil
	case "DAY":
		prec, err := p.optParam(DefaultDayP)
		if err != nil {
			return nil, err
		}
		if p.acceptWord("TO") {
			switch {
			case p.acceptWord("HOUR"):
				return dt(ResDayToHour, prec, DefaultFractionalP), nil
			case p.acceptWord("MINUTE"):
				return dt(ResDayToMinute, prec, DefaultFractionalP), nil
			case p.acceptWord("SECOND"):
				frac, err := p.optParam(DefaultFractionalP)
				return dt(ResDayToSecond, prec, frac), err
			}
			return nil, p.errorf("expected HOUR, MINUTE or SECOND")
		}
		return dt(ResDay, prec, DefaultFractionalP), nil
	case "HOUR":
		if p.acceptWord("TO") {
			switch {
			case p.acceptWord("MINUTE"):
				return dt(ResHourToMinute, DefaultDayP, DefaultFractionalP), nil
			case p.acceptWord("SECOND"):
				frac, err := p.optParam(DefaultFractionalP)
				return dt(ResHourToSecond, DefaultDayP, frac), err
			}
			return nil, p.errorf("expected MINUTE or SECOND")
		}
		return dt(ResHour, DefaultDayP, DefaultFractionalP), nil
	case "MINUTE":
		if p.acceptWord("TO") {
			if !p.acceptWord("SECOND") {
				return nil, p.errorf("expected SECOND")
			}
			frac, err := p.optParam(DefaultFractionalP)
			return dt(ResMinuteToSecond, DefaultDayP, frac), err
		}
		return dt(ResMinute, DefaultDayP, DefaultFractionalP), nil
	case "SECOND":
		frac, err := p.optParam(DefaultFractionalP)
		return dt(ResSecond, DefaultDayP, frac), err
	}
	return nil, p.errorf("unknown interval unit %q", unit)
}
