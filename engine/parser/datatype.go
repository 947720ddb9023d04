package parser

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// parseDataType reads a data type at the current token. The type grammar
// lives in engine/types (types.ParsePrefix, the same reader that reads type
// strings back from catalogs); the parser hands it the text at the current
// token and moves past the tokens it consumed. Parameters out of Flink's
// ranges are errors with the messages of Flink's logical type classes.
func (p *Parser) parseDataType() *types.Type {
	t := p.tok()
	if t.Kind != Ident || !isTypeWord(t.Upper) {
		// Flink's parser would read a user-defined type name here and fail
		// later; an unknown word is reported where it stands.
		p.fail()
	}
	start := t.Pos.Offset
	typ, n, err := types.ParsePrefix(p.src[start:])
	stop := start + n
	if err != nil {
		stop = start
		if pe, ok := err.(*types.ParseError); ok {
			stop += pe.Offset
		}
	}
	if p.commentBefore(stop) {
		// The type reader knows no comments: hand it the text with the
		// comments blanked out, offsets unchanged.
		typ, n, err = types.ParsePrefix(p.blankComments(start))
	}
	if err != nil {
		off := start
		if pe, ok := err.(*types.ParseError); ok {
			off += pe.Offset
		}
		p.failAtOffset(off)
	}
	end := start + n
	for p.tok().Kind != EOF && p.tok().Pos.Offset < end {
		if p.tok().End > end {
			p.fail()
		}
		p.next()
	}
	if msg := checkType(typ); msg != "" {
		panic(bailout{&Error{Pos: t.Pos, Msg: msg, Validation: true}})
	}
	return typ
}

// failAtOffset fails at the first token starting at or after off.
func (p *Parser) failAtOffset(off int) {
	for p.tok().Kind != EOF && p.tok().End <= off {
		p.next()
	}
	p.fail()
}

// isTypeWord reports whether a word can start a data type.
func isTypeWord(w string) bool {
	switch w {
	case "CHAR", "CHARACTER", "VARCHAR", "STRING", "BOOLEAN", "BINARY", "VARBINARY", "BYTES", "DECIMAL",
		"DEC", "NUMERIC", "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "REAL", "DOUBLE", "DATE",
		"TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "INTERVAL", "ARRAY", "MULTISET", "MAP", "ROW", "RAW", "NULL", "VARIANT":
		return true
	}
	return false
}

// checkType returns Flink's message for a parameter out of range, or "".
// A DECIMAL precision above 38 becomes 38, as Flink's type factory caps it.
func checkType(t *types.Type) string {
	if t == nil {
		return ""
	}
	between := func(what string, v, lo, hi int) string {
		if v < lo || v > hi {
			return fmt.Sprintf("%s must be between %d and %d (both inclusive).", what, lo, hi)
		}
		return ""
	}
	var msg string
	// A string or binary type of length 0 is Flink's type of the empty
	// literal (CharType.ofEmptyLiteral): legal in a CAST and a column.
	switch t.Kind {
	case types.Char:
		msg = between("Character string length", t.Length, 0, types.MaxLength)
	case types.VarChar:
		msg = between("Variable character string length", t.Length, 0, types.MaxLength)
	case types.Binary:
		msg = between("Binary string length", t.Length, 0, types.MaxLength)
	case types.VarBinary:
		msg = between("Variable binary string length", t.Length, 0, types.MaxLength)
	case types.Decimal:
		t.Prec = min(t.Prec, types.MaxDecimalPrecision)
		msg = between("Decimal precision", t.Prec, 1, types.MaxDecimalPrecision)
		if msg == "" && (t.Scale < 0 || t.Scale > t.Prec) {
			msg = fmt.Sprintf("Decimal scale must be between 0 and the precision %d (both inclusive).", t.Prec)
		}
	case types.Time:
		msg = between("Time precision", t.Prec, 0, types.MaxTimePrecision)
	case types.Timestamp:
		msg = between("Timestamp precision", t.Prec, 0, types.MaxTimePrecision)
	case types.TimestampLTZ:
		msg = between("Timestamp with local time zone precision", t.Prec, 0, types.MaxTimePrecision)
	case types.TimestampTZ:
		msg = between("Timestamp with time zone precision", t.Prec, 0, types.MaxTimePrecision)
	case types.IntervalYearMonth:
		msg = between("Year precision of year-month intervals", t.Prec, 1, 4)
	case types.IntervalDayTime:
		msg = between("Day precision of day-time intervals", t.Prec, 1, 6)
		if msg == "" {
			msg = between("Fractional precision of day-time intervals", t.Scale, 0, 9)
		}
	case types.Raw:
		// Class names and Base64 snapshots hold no quotes; the type's
		// printed form would not escape them.
		if strings.ContainsRune(t.RawClass, '\'') || strings.ContainsRune(t.RawSnap, '\'') {
			msg = "RAW type class and snapshot must not contain quotes"
		}
	case types.Array, types.Multiset:
		msg = checkType(t.Elem)
	case types.Map:
		if msg = checkType(t.Elem); msg == "" {
			msg = checkType(t.Val)
		}
	case types.Row:
		for _, f := range t.Fields {
			if msg = checkType(f.Type); msg != "" {
				break
			}
		}
	}
	return msg
}

// commentBefore reports whether a comment stands between two tokens from
// the current one up to the first token at or after offset stop (where
// the type reader stopped or failed); only then does a data type need its
// comments blanked out.
func (p *Parser) commentBefore(stop int) bool {
	for i := p.i; i+1 < len(p.toks); i++ {
		if gapHasComment(p.src[p.toks[i].End:p.toks[i+1].Pos.Offset]) {
			return true
		}
		if p.toks[i+1].Pos.Offset >= stop {
			return false
		}
	}
	return false
}

// gapHasComment reports whether the text between two tokens holds more
// than white space.
func gapHasComment(gap string) bool {
	for i := 0; i < len(gap); i++ {
		switch gap[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return true
		}
	}
	return false
}

// blankComments returns the source from offset start on with the text
// between tokens (white space and comments) replaced by spaces; line
// breaks are kept.
func (p *Parser) blankComments(start int) string {
	b := []byte(p.src[start:])
	for i := p.i; i+1 < len(p.toks); i++ {
		from, to := p.toks[i].End-start, p.toks[i+1].Pos.Offset-start
		for j := from; j < to && j < len(b); j++ {
			if b[j] != '\n' {
				b[j] = ' '
			}
		}
	}
	return string(b)
}
