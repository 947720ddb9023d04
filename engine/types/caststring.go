package types

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// This file holds the rules of CAST from a character string, as Flink's
// runtime applies them (BinaryStringDataUtil, DateTimeUtils and the
// string cast rules of the planner): each target type has its own
// tolerance of blanks, fractions and partial values, and its own
// exception class and message.

// stringCastError is the error of a failed CAST from a string: class is
// the Java exception Flink reports, msg its message.
func stringCastError(v string, from, to *Type, class, msg string) *CastError {
	return &CastError{Value: v, From: from, To: to, Msg: msg, Exception: class}
}

// trimBlanks removes leading and trailing spaces (only U+0020, as
// BinaryStringData.trim does).
func trimBlanks(s string) string { return strings.Trim(s, " ") }

// javaTrim removes leading and trailing characters up to U+0020, as
// java.lang.String.trim does.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// stringToInteger parses s as Flink's CAST(string AS TINYINT/SMALLINT/INT/
// BIGINT) does (BinaryStringDataUtil.toByte/toShort/toInt/toLong over the
// blank-trimmed string): an optional sign, decimal digits, and an
// optional fraction of digits that is dropped ('1.5' is 1, '-.5' is 0);
// anything else fails with Java's NumberFormatException.
func stringToInteger(x string, from, to *Type) (any, error) {
	s := trimBlanks(x)
	fail := func(reason string) error {
		return stringCastError(s, from, to, "NumberFormatException",
			fmt.Sprintf("For input string: '%s'. %s", s, reason))
	}
	if s == "" {
		return nil, fail("Input is empty.")
	}
	i := 0
	negative := s[0] == '-'
	if negative || s[0] == '+' {
		i++
		if len(s) == 1 {
			return nil, fail("Input has only positive or negative symbol.")
		}
	}
	// Java accumulates negatively: the minimum has one more magnitude
	// than the maximum. INT, SMALLINT and TINYINT parse as INT first.
	lo := int64(math.MinInt64)
	if to.Kind != BigInt {
		lo = math.MinInt32
	}
	stop := lo / 10
	var n int64
	for ; i < len(s); i++ {
		b := s[i]
		if b == '.' {
			i++
			break
		}
		if b < '0' || b > '9' {
			return nil, fail("Invalid character found.")
		}
		if n < stop {
			return nil, fail("Overflow.")
		}
		n = n*10 - int64(b-'0')
		if n < lo || n > 0 {
			return nil, fail("Overflow.")
		}
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return nil, fail("Invalid character found.")
		}
	}
	if !negative {
		if n == lo {
			return nil, fail("Overflow.")
		}
		n = -n
	}
	switch to.Kind {
	case TinyInt:
		if n != int64(int8(n)) {
			return nil, fail("Overflow.")
		}
	case SmallInt:
		if n != int64(int16(n)) {
			return nil, fail("Overflow.")
		}
	}
	return IntegerValue(to.Kind, n), nil
}

// stringToFloat parses s as Java's Double.parseDouble / Float.parseFloat
// (Flink's CAST(string AS DOUBLE/FLOAT)): surrounding control characters
// and blanks are ignored, "NaN", "Infinity", a trailing f/F/d/D and hex
// floats with a binary exponent are accepted, out-of-range values become
// infinities or zero, and a failure carries Java's message.
func stringToFloat(x string, from, to *Type) (any, error) {
	s := javaTrim(x)
	fail := func(msg string) error {
		return stringCastError(s, from, to, "NumberFormatException", msg)
	}
	if s == "" {
		return nil, fail("empty String")
	}
	body := s
	sign := ""
	if body[0] == '+' || body[0] == '-' {
		sign, body = body[:1], body[1:]
	}
	var f float64
	switch {
	case body == "NaN":
		f = math.NaN()
	case body == "Infinity":
		f = math.Inf(1)
	default:
		if n := len(body); n > 0 && strings.IndexByte("fFdD", body[n-1]) >= 0 {
			body = body[:n-1]
		}
		if !javaFloatSyntax(body) {
			if points := leadingPoints(body); points > 1 {
				return nil, fail("multiple points")
			}
			return nil, fail(`For input string: "` + s + `"`)
		}
		g, err := strconv.ParseFloat(body, 64)
		if err != nil && !isRangeErr(err) {
			return nil, fail(`For input string: "` + s + `"`)
		}
		if to.Kind == Float {
			// Java rounds the decimal digits to a float directly.
			g32, err := strconv.ParseFloat(body, 32)
			if err != nil && !isRangeErr(err) {
				return nil, fail(`For input string: "` + s + `"`)
			}
			g = g32
		}
		f = g
	}
	if sign == "-" {
		f = -f
	}
	if to.Kind == Float {
		return float32(f), nil
	}
	return f, nil
}

// leadingPoints counts the decimal points in the leading run of digits and
// points (Java reports "multiple points" for '1.5.1').
func leadingPoints(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.':
			n++
		case s[i] >= '0' && s[i] <= '9':
		default:
			return n
		}
	}
	return n
}

// javaFloatSyntax reports whether s (without sign and type suffix) is a
// decimal floating-point literal (digits with an optional point and
// exponent) or a hexadecimal one with its mandatory binary exponent.
func javaFloatSyntax(s string) bool {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		mant, exp, ok := strings.Cut(s[2:], "p")
		if !ok {
			mant, exp, ok = strings.Cut(s[2:], "P")
		}
		return ok && digitsWithPoint(mant, isHexDigit) && signedDigits(exp)
	}
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	if !digitsWithPoint(mant, isDigit) {
		return false
	}
	return !hasExp || signedDigits(exp)
}

func isDigit(b byte) bool    { return b >= '0' && b <= '9' }
func isHexDigit(b byte) bool { return isDigit(b) || (b|0x20) >= 'a' && (b|0x20) <= 'f' }

// digitsWithPoint reports whether s is digits with at most one point and
// at least one digit.
func digitsWithPoint(s string, digit func(byte) bool) bool {
	digits, points := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.':
			points++
		case digit(s[i]):
			digits++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

func signedDigits(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// maxLongDigits is the largest DECIMAL precision Flink keeps in a long
// (DecimalData.MAX_LONG_DIGITS); wider values and longer strings are
// parsed by java.math.BigDecimal instead.
const maxLongDigits = 18

// stringToDecimal parses s as BinaryStringDataUtil.toDecimal does. For
// precisions and strings of up to 18 characters Flink scans the bytes
// leniently: blanks around, an optional sign, digits with one point, an
// optional exponent, and the scan stops at the first other character,
// which may only be followed by blanks (so 'x' reads as 0 and '1x' as 1,
// but 'xy' fails). Longer input goes through java.math.BigDecimal, which is
// strict. A value too wide for the precision fails with "Overflow.", as
// every failure of the lenient scan does.
func stringToDecimal(x string, from, to *Type) (any, error) {
	overflow := func() error {
		return stringCastError(x, from, to, "NumberFormatException",
			fmt.Sprintf("For input string: '%s'. Overflow.", x))
	}
	if to.Prec > maxLongDigits || len(x) > maxLongDigits {
		s := strings.Trim(x, " \n\t")
		d, msg := parseJavaBigDecimal(s)
		if msg != "" {
			return nil, stringCastError(x, from, to, "NumberFormatException", msg)
		}
		r := RoundDecimal(d, to.Prec, to.Scale)
		if r == nil {
			return nil, overflow()
		}
		return r, nil
	}
	d, ok := scanLongDecimal(x, to.Prec, to.Scale)
	if !ok {
		return nil, overflow()
	}
	return d, nil
}

// scanLongDecimal is the lenient scan of BinaryStringDataUtil for short
// input; see stringToDecimal.
func scanLongDecimal(s string, prec, scale int) (*decimal.Decimal, bool) {
	blank := func(b byte) bool { return b == ' ' || b == '\n' || b == '\t' }
	i, n := 0, len(s)
	var b byte
	for i < n {
		b = s[i]
		if !blank(b) {
			break
		}
		i++
	}
	if i == n {
		return nil, false
	}
	negative := b == '-'
	if negative || b == '+' {
		i++
		if i == n {
			return nil, false
		}
	}
	var significand int64
	exp, sigLen, point := 0, 0, -1
	for i < n {
		b = s[i]
		i++
		if b >= '0' && b <= '9' {
			significand = significand*10 + int64(b-'0')
			sigLen++
		} else if b == '.' {
			if point >= 0 {
				return nil, false
			}
			point = sigLen
		} else {
			break
		}
	}
	if point < 0 {
		point = sigLen
	}
	if negative {
		significand = -significand
	}
	if (b == 'e' || b == 'E') && i < n {
		b = s[i]
		expNegative := b == '-'
		if expNegative || b == '+' {
			i++
			if i == n {
				return nil, false
			}
		}
		digits := 0
		for i < n {
			b = s[i]
			i++
			if b < '0' || b > '9' {
				break
			}
			if digits < 40 {
				digits = digits*10 + int(b-'0')
			}
		}
		if expNegative {
			digits = -digits
		}
		exp += digits
	}
	exp -= sigLen - point
	for i < n {
		b = s[i]
		i++
		if !blank(b) {
			return nil, false
		}
	}
	change := exp + scale
	if sigLen+change > prec {
		return nil, false
	}
	switch {
	case change >= 0:
		significand *= pow10(change)
	case -change > maxLongDigits:
		significand = 0
	default:
		k := int64(5)
		if negative {
			k = -5
		}
		significand = (significand + k*pow10(-change-1)) / pow10(-change)
	}
	return DecimalValue(significand, int32(-scale)), true
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// parseJavaBigDecimal reads s as new java.math.BigDecimal(s) does: an
// optional sign, digits with at most one point, an optional exponent. It
// returns Java's message on failure.
func parseJavaBigDecimal(s string) (*decimal.Decimal, string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, points := 0, 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			continue
		case c == '.':
			points++
			if points > 1 {
				return nil, "Character array contains more than one decimal point."
			}
			continue
		case c == 'e' || c == 'E':
		default:
			return nil, fmt.Sprintf("Character %s is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark.", javaChar(s[i:]))
		}
		break
	}
	if digits == 0 {
		return nil, "No digits found."
	}
	if i < len(s) {
		exp := s[i+1:]
		if !signedDigits(exp) {
			return nil, "No exponent digits."
		}
	}
	d, err := ParseDecimal(s)
	if err != nil {
		return nil, "No digits found."
	}
	return d, ""
}

// javaChar returns the first character of s.
func javaChar(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

// stringToBool parses s as BinaryStringDataUtil.toBoolean: one of t, true,
// y, yes, 1 or f, false, n, no, 0 in any case, with no blanks around.
func stringToBool(x string, from, to *Type) (any, error) {
	switch strings.ToLower(x) {
	case "t", "true", "y", "yes", "1":
		return true, nil
	case "f", "false", "n", "no", "0":
		return false, nil
	}
	return nil, stringCastError(x, from, to, "TableException", fmt.Sprintf("Cannot parse '%s' as BOOLEAN.", x))
}

// stringToDate parses s as DateTimeUtils.parseDate: the part before the
// first blank (when it is not the first character), then year[-month[-day]]
// with blanks allowed around each unsigned number; month and day default to
// 1 ('10' is 0010-01-01), the year must be 0..9999 and the day exist.
func stringToDate(x string, from, to *Type) (any, error) {
	d, ok := flinkParseDate(x)
	if !ok {
		return nil, stringCastError(x, from, to, "DateTimeException", fmt.Sprintf("For input string: '%s'.", x))
	}
	return d, nil
}

// flinkInt reads an unsigned decimal number with blanks around, as
// DateTimeUtils does (isInteger of the trimmed part, then parseInt).
func flinkInt(s string) (int, bool) {
	s = javaTrim(s)
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func flinkParseDate(s string) (int32, bool) {
	if ws := strings.IndexByte(s, ' '); ws > 0 {
		s = s[:ws]
	}
	y, m, d := 0, 1, 1
	var ok bool
	h1 := strings.IndexByte(s, '-')
	if h1 < 0 {
		if y, ok = flinkInt(s); !ok {
			return 0, false
		}
	} else {
		if y, ok = flinkInt(s[:h1]); !ok {
			return 0, false
		}
		rest := s[h1+1:]
		h2 := strings.IndexByte(rest, '-')
		if h2 < 0 {
			if m, ok = flinkInt(rest); !ok {
				return 0, false
			}
		} else {
			if m, ok = flinkInt(rest[:h2]); !ok {
				return 0, false
			}
			if d, ok = flinkInt(rest[h2+1:]); !ok {
				return 0, false
			}
		}
	}
	if y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return 0, false
	}
	return int32(t.Unix() / 86400), true
}

// stringToTime parses s as DateTimeUtils.parseTime: hour[:minute[:second
// [.fraction]]] with blanks allowed around each number, an optional zone
// offset after a '+' or '-' added to the clock, and the fraction read to
// milliseconds (rounded on the fourth digit). Hours beyond 23, minutes or
// seconds beyond 59 fail.
func stringToTime(x string, from, to *Type) (any, error) {
	ms, ok := flinkParseTime(x)
	if !ok {
		return nil, stringCastError(x, from, to, "DateTimeException",
			fmt.Sprintf("Invalid time format: '%s'. Expected format: HH:mm:ss[.fff] where HH is 00-23, mm is 00-59, ss is 00-59", x))
	}
	return truncDuration(time.Duration(ms)*time.Millisecond, to.Prec), nil
}

func flinkParseTime(v string) (int, bool) {
	end := len(v)
	operator := -1
	tz := strings.IndexByte(v, '-')
	if tz < 0 {
		tz = strings.IndexByte(v, '+')
		operator = 1
	}
	tzHour, tzMinute := 0, 0
	var ok bool
	if tz >= 0 {
		end = tz
		if c3 := strings.IndexByte(v[tz:], ':'); c3 < 0 {
			if tzHour, ok = flinkInt(v[tz+1:]); !ok {
				return 0, false
			}
		} else {
			c3 += tz
			if tzHour, ok = flinkInt(v[tz+1 : c3]); !ok {
				return 0, false
			}
			if tzMinute, ok = flinkInt(v[c3+1:]); !ok {
				return 0, false
			}
		}
	}
	hour, minute, second, milli := 0, 0, 0, 0
	c1 := strings.IndexByte(v, ':')
	if c1 < 0 {
		if hour, ok = flinkInt(v[:end]); !ok {
			return 0, false
		}
	} else {
		if c1 > end {
			return 0, false
		}
		if hour, ok = flinkInt(v[:c1]); !ok {
			return 0, false
		}
		c2 := strings.IndexByte(v[c1+1:], ':')
		if c2 < 0 {
			if c1+1 > end {
				return 0, false
			}
			if minute, ok = flinkInt(v[c1+1 : end]); !ok {
				return 0, false
			}
		} else {
			c2 += c1 + 1
			if minute, ok = flinkInt(v[c1+1 : c2]); !ok {
				return 0, false
			}
			dot := strings.IndexByte(v[c2:], '.')
			if dot < 0 {
				if c2+1 > end {
					return 0, false
				}
				if second, ok = flinkInt(v[c2+1 : end]); !ok {
					return 0, false
				}
			} else {
				dot += c2
				if dot > end {
					return 0, false
				}
				if second, ok = flinkInt(v[c2+1 : dot]); !ok {
					return 0, false
				}
				milli = flinkFraction(javaTrim(v[dot+1 : end]))
			}
		}
	}
	if hour > 23 || minute > 59 || second > 59 {
		return 0, false
	}
	hour += operator * tzHour
	minute += operator * tzMinute
	return hour*3600000 + minute*60000 + second*1000 + milli, true
}

// flinkFraction reads a fraction of a second to milliseconds, a non-digit
// counting as 0 and the fourth digit rounding (DateTimeUtils.parseFraction).
func flinkFraction(v string) int {
	mult, r := 100, 0
	for i := 0; i < len(v); i++ {
		x := 0
		if isDigit(v[i]) {
			x = int(v[i] - '0')
		}
		r += mult * x
		if mult < 10 {
			if i+1 < len(v) && v[i+1] >= '5' {
				r++
			}
			break
		}
		mult /= 10
	}
	return r
}

// stringToTimestamp parses s as Flink's CAST(string AS TIMESTAMP) does
// (DateTimeUtils.parseTimestampData with the formatter
// "yyyy-[MM][M]-[dd][d][ [HH][H]:[mm][m]:[ss][s][.fffffffff]]" in Java's
// smart resolver style): no blanks around, a four-digit year, one- or
// two-digit fields, the time part complete with seconds or absent, no 'T'
// and no zone. A day beyond the month's end is clamped to it and 24:00:00
// is the next midnight. Failures carry java.time's messages.
func stringToTimestamp(x string, from, to *Type) (any, error) {
	t, class, msg := flinkParseTimestamp(x)
	if msg != "" {
		return nil, stringCastError(x, from, to, class, msg)
	}
	return TruncateTime(t, to.Prec), nil
}

// tsScanner walks the text as java.time's parser does: each step either
// advances or reports the index where it failed.
type tsScanner struct {
	s   string
	pos int
}

// digits reads between lo and hi digits; it fails (leaving pos alone)
// when fewer than lo are there.
func (p *tsScanner) digits(lo, hi int) (int, bool) {
	i, n := p.pos, 0
	for i < len(p.s) && i-p.pos < hi && isDigit(p.s[i]) {
		if n < 1e9 {
			n = n*10 + int(p.s[i]-'0')
		}
		i++
	}
	if i-p.pos < lo {
		return 0, false
	}
	p.pos = i
	return n, true
}

func (p *tsScanner) char(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// field reads "[XX][X]": two digits, then optionally any number more as
// a second reading of the same field; absent fields give -1.
func (p *tsScanner) field() (int, bool) {
	v := -1
	if n, ok := p.digits(2, 2); ok {
		v = n
	}
	if n, ok := p.digits(1, 19); ok {
		if v >= 0 && v != n {
			return 0, false // the two readings conflict
		}
		v = n
	}
	return v, true
}

// flinkParseTimestamp returns the value, or the exception class and
// message of the failure: DateTimeParseException for text the formatter
// does not take, DateTimeException for a field out of its range.
func flinkParseTimestamp(s string) (time.Time, string, string) {
	const parseErr = "DateTimeParseException"
	atIndex := func(i int) (time.Time, string, string) {
		return time.Time{}, parseErr, fmt.Sprintf("Text '%s' could not be parsed at index %d", s, i)
	}
	p := &tsScanner{s: s}
	// yyyy: four digits; more only with a sign, which is not accepted here.
	year, ok := p.digits(4, 19)
	if !ok || p.pos > 4 {
		return atIndex(0)
	}
	if !p.char('-') {
		return atIndex(p.pos)
	}
	month, ok := p.field()
	if !ok {
		return time.Time{}, parseErr, "Text '" + s + "' could not be parsed: conflicting month"
	}
	if !p.char('-') {
		return atIndex(p.pos)
	}
	day, ok := p.field()
	if !ok {
		return time.Time{}, parseErr, "Text '" + s + "' could not be parsed: conflicting day"
	}
	hour, minute, second, nano := -1, -1, -1, 0
	mark := p.pos
	func() {
		if !p.char(' ') {
			return
		}
		h, ok := p.field()
		if !ok || h < 0 || !p.char(':') {
			return
		}
		m, ok := p.field()
		if !ok || m < 0 || !p.char(':') {
			return
		}
		sec, ok := p.field()
		if !ok || sec < 0 {
			return
		}
		frac := 0
		if p.char('.') {
			start := p.pos
			n, _ := p.digits(0, 9)
			for range 9 - (p.pos - start) {
				n *= 10
			}
			frac = n
		}
		hour, minute, second, nano, mark = h, m, sec, frac, p.pos
	}()
	p.pos = mark
	if p.pos < len(s) {
		return time.Time{}, parseErr, fmt.Sprintf("Text '%s' could not be parsed, unparsed text found at index %d", s, p.pos)
	}
	invalid := func(field, rng string, v int) (time.Time, string, string) {
		return time.Time{}, "DateTimeException", fmt.Sprintf("Invalid value for %s (valid values %s): %d", field, rng, v)
	}
	if year < 1 {
		return invalid("YearOfEra", "1 - 999999999/1000000000", year)
	}
	if month == 0 || month > 12 {
		return invalid("MonthOfYear", "1 - 12", month)
	}
	if day == 0 || day > 31 {
		return invalid("DayOfMonth", "1 - 28/31", day)
	}
	if month < 0 {
		month = 1
	}
	if day < 0 {
		day = 1
	}
	extraDay := 0
	if hour >= 0 {
		switch {
		case hour == 24 && minute == 0 && second == 0 && nano == 0:
			hour, extraDay = 0, 1
		case hour > 23:
			return invalid("HourOfDay", "0 - 23", hour)
		case minute > 59:
			return invalid("MinuteOfHour", "0 - 59", minute)
		case second > 59:
			return invalid("SecondOfMinute", "0 - 59", second)
		}
	} else {
		hour, minute, second = 0, 0, 0
	}
	// The smart resolver clamps the day to the month's last day.
	last := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	day = min(day, last)
	t := time.Date(year, time.Month(month), day+extraDay, hour, minute, second, nano, time.UTC)
	return t, "", ""
}
