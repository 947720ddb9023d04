package types

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// The Go value of each type, as engine results, plan literals and
// connectors carry them (nil is SQL NULL for every type):
//
//	BOOLEAN                 bool
//	TINYINT SMALLINT        int8, int16
//	INT BIGINT              int32, int64
//	FLOAT DOUBLE            float32, float64
//	DECIMAL(p, s)           *decimal.Decimal, exactly s fraction digits; never mutated once built
//	CHAR VARCHAR STRING     string (UTF-8)
//	BINARY VARBINARY BYTES  []byte
//	DATE                    int32, days since 1970-01-01
//	TIME(p)                 time.Duration, the time of day (nanoseconds since midnight)
//	TIMESTAMP(p)            time.Time in UTC, the wall-clock value read as UTC
//	TIMESTAMP_LTZ(p)        time.Time, an instant (printed in table.local-time-zone)
//	INTERVAL YEAR TO MONTH  int32, months
//	INTERVAL DAY TO SECOND  int64, milliseconds
//	ARRAY MULTISET ROW      []any (MULTISET: elements repeated by count)
//	MAP                     map[any]any
//	VARIANT                 *VariantValue (variant.go)
//
// Casts between them follow Flink's CAST rules (Flink 1.15+, legacy cast
// behaviour off): narrowing integers wrap as Java does, floating point to
// integer truncates and saturates, DECIMAL rounds half up and an overflow
// gives NULL, strings parse by Flink's per-type rules (caststring.go).

// CastError reports a value that cannot be converted (CAST('x' AS INT)).
// TRY_CAST turns it into NULL.
type CastError struct {
	Value string
	From  *Type
	To    *Type
	Msg   string
	// Overflow marks a numeric string out of the target's range, which
	// Flink reports differently from a malformed one.
	Overflow bool
	// Exception, when set, is the Java exception class Flink reports
	// (NumberFormatException, DateTimeException, ...) with Msg.
	Exception string
}

func (e *CastError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	if e.numberFormat() {
		// BinaryStringDataUtil's messages for CAST('a' AS INT) and
		// CAST('2147483648' AS INT).
		if e.Overflow {
			return fmt.Sprintf("For input string: '%s'. Overflow.", e.Value)
		}
		return fmt.Sprintf("For input string: '%s'. Invalid character found.", e.Value)
	}
	return fmt.Sprintf("Cannot cast '%s' of type %s to %s", e.Value, e.From, e.To)
}

// Class returns Flink's exception class for a failed cast at run time:
// Java's NumberFormatException for a string that is not a number.
func (e *CastError) Class() string {
	if e.Exception != "" {
		return e.Exception
	}
	if e.numberFormat() {
		return "NumberFormatException"
	}
	return "TableRuntimeException"
}

func (e *CastError) numberFormat() bool {
	return e.Msg == "" && e.From != nil && e.To != nil && e.From.Kind.IsCharacterString() &&
		(e.To.Kind.IsNumeric() && e.To.Kind != Decimal)
}

// CastValue converts v, a value of type from, to type to. A nil v gives nil.
func CastValue(v any, from, to *Type) (any, error) {
	if v == nil {
		return nil, nil
	}
	if from.Kind == to.Kind && castIsIdentity(from, to) {
		return v, nil
	}
	switch to.Kind {
	case Boolean:
		return castToBool(v, from, to)
	case TinyInt, SmallInt, Int, BigInt:
		return castToInteger(v, from, to)
	case Float, Double:
		return castToFloat(v, from, to)
	case Decimal:
		return castToDecimal(v, from, to)
	case Char, VarChar:
		// CAST(BYTES AS STRING) decodes UTF-8 (BinaryToStringCastRule
		// outside printing mode); printing shows x'..' instead.
		if b, ok := v.([]byte); ok {
			if !utf8.Valid(b) {
				return nil, &CastError{Value: ValueString(v, from), From: from, To: to,
					Msg: "The binary value " + ValueString(v, from) + " is not a valid UTF-8 string."}
			}
			return fitString(string(b), to), nil
		}
		if s, ok := v.(string); ok && (from.Kind == Char || from.Kind == VarChar) {
			// A string's text is itself: one that fits the type as it is
			// keeps its value.
			if f := fitString(s, to); len(f) != len(s) {
				return f, nil
			}
			return v, nil
		}
		return fitString(ValueString(v, from), to), nil
	case Binary, VarBinary:
		return castToBinary(v, from, to)
	case Date:
		return castToDate(v, from, to)
	case Time:
		return castToTime(v, from, to)
	case Timestamp, TimestampLTZ:
		return castToTimestamp(v, from, to)
	case IntervalYearMonth, IntervalDayTime:
		if from.Kind == to.Kind {
			return v, nil
		}
		if n, ok := AsInt64(v); ok && from.Kind.IsNumeric() {
			if to.Kind == IntervalYearMonth {
				return int32(n), nil
			}
			return n, nil
		}
	case Array, Multiset:
		if xs, ok := v.([]any); ok && from.Elem != nil {
			out := make([]any, len(xs))
			for i, x := range xs {
				c, err := CastValue(x, from.Elem, to.Elem)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
	case Map:
		if m, ok := v.(map[any]any); ok {
			out := make(map[any]any, len(m))
			for k, x := range m {
				ck, err := CastValue(k, from.Elem, to.Elem)
				if err != nil {
					return nil, err
				}
				cv, err := CastValue(x, from.Val, to.Val)
				if err != nil {
					return nil, err
				}
				out[ck] = cv
			}
			return out, nil
		}
	case Row:
		if xs, ok := v.([]any); ok && len(from.Fields) == len(to.Fields) && len(xs) == len(to.Fields) {
			out := make([]any, len(xs))
			for i, x := range xs {
				c, err := CastValue(x, from.Fields[i].Type, to.Fields[i].Type)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
	case Null:
		return nil, nil
	}
	return nil, castError(v, from, to)
}

func castIsIdentity(from, to *Type) bool {
	switch to.Kind {
	case Char, VarChar, Binary, VarBinary:
		return to.Length >= from.Length && from.Kind == to.Kind && to.Kind != Char && to.Kind != Binary
	case Decimal:
		return from.Prec <= to.Prec && from.Scale == to.Scale
	case Time, Timestamp, TimestampLTZ:
		return from.Prec <= to.Prec
	case Array, Multiset, Map, Row:
		return from.Equal(to) || from.WithNullable(true).Equal(to.WithNullable(true))
	}
	return true
}

func castError(v any, from, to *Type) *CastError {
	return &CastError{Value: ValueString(v, from), From: from, To: to}
}

// AsInt64 returns an integer value (any Go integer type) as int64.
func AsInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	}
	return 0, false
}

// IntegerValue returns n as the Go value of an integer kind (TINYINT int8,
// ... BIGINT int64), wrapping as Java's narrowing conversion does.
func IntegerValue(k Kind, n int64) any {
	switch k {
	case TinyInt:
		return int8(n)
	case SmallInt:
		return int16(n)
	case Int, Date, IntervalYearMonth:
		return int32(n)
	}
	return n
}

func castToBool(v any, from, to *Type) (any, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		return stringToBool(x, from, to)
	case float32:
		return x != 0, nil
	case float64:
		return x != 0, nil
	case *decimal.Decimal:
		return !x.IsZero(), nil
	}
	if n, ok := AsInt64(v); ok && from.Kind.IsNumeric() {
		return n != 0, nil
	}
	return nil, castError(v, from, to)
}

// floatToInt64 converts as Java's (long) cast: truncation, NaN as 0,
// saturation at the limits.
func floatToInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func castToInteger(v any, from, to *Type) (any, error) {
	var n int64
	switch x := v.(type) {
	case bool:
		if x {
			n = 1
		}
	case float32:
		n = floatToInt64(float64(x))
		if to.Kind != BigInt {
			// Java's (int) cast of a float saturates at the int range.
			n = max(min(n, math.MaxInt32), math.MinInt32)
		}
	case float64:
		n = floatToInt64(x)
		if to.Kind != BigInt {
			n = max(min(n, math.MaxInt32), math.MinInt32)
		}
	case *decimal.Decimal:
		i, ok := DecimalInt64(x)
		if !ok {
			return nil, castError(v, from, to)
		}
		n = i
	case string:
		return stringToInteger(x, from, to)
	default:
		i, ok := AsInt64(v)
		if !ok {
			return nil, castError(v, from, to)
		}
		n = i
	}
	return IntegerValue(to.Kind, n), nil
}

func castToFloat(v any, from, to *Type) (any, error) {
	var f float64
	switch x := v.(type) {
	case bool:
		if x {
			f = 1
		}
	case float32:
		f = float64(x)
	case float64:
		f = x
	case *decimal.Decimal:
		f = DecimalFloat64(x)
	case string:
		return stringToFloat(x, from, to)
	default:
		n, ok := AsInt64(v)
		if !ok {
			return nil, castError(v, from, to)
		}
		f = float64(n)
	}
	if to.Kind == Float {
		return float32(f), nil
	}
	return f, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func castToDecimal(v any, from, to *Type) (any, error) {
	var d *decimal.Decimal
	switch x := v.(type) {
	case bool:
		if x {
			d = DecimalValue(1, 0)
		} else {
			d = DecimalValue(0, 0)
		}
	case *decimal.Decimal:
		d = x
	case float32, float64:
		f, _ := castToFloat(v, from, New(Double))
		ff := f.(float64)
		if math.IsNaN(ff) || math.IsInf(ff, 0) {
			return nil, nil
		}
		var err error
		d, err = ParseDecimal(strconv.FormatFloat(ff, 'g', -1, 64))
		if err != nil {
			return nil, castError(v, from, to)
		}
	case string:
		return stringToDecimal(x, from, to)
	default:
		n, ok := AsInt64(v)
		if !ok {
			return nil, castError(v, from, to)
		}
		d = DecimalValue(n, 0)
	}
	r := RoundDecimal(d, to.Prec, to.Scale)
	if r == nil {
		return nil, nil
	}
	return r, nil
}

// fitString applies a CHAR(n) / VARCHAR(n) length: CHAR pads with blanks,
// both truncate longer strings (counted in characters).
func fitString(s string, to *Type) string {
	n := to.Length
	if n < 0 || n >= MaxLength {
		return s
	}
	if n == 0 {
		return "" // the type of the empty literal
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	if to.Kind == Char && count < n {
		return s + strings.Repeat(" ", n-count)
	}
	return s
}

func castToBinary(v any, from, to *Type) (any, error) {
	var b []byte
	switch x := v.(type) {
	case []byte:
		b = x
	case string:
		b = []byte(x)
	default:
		return nil, castError(v, from, to)
	}
	n := to.Length
	if n >= 0 && n < MaxLength {
		if len(b) > n {
			b = b[:n]
		} else if to.Kind == Binary && len(b) < n {
			b = append(append([]byte(nil), b...), make([]byte, n-len(b))...)
		}
	}
	return b, nil
}

func castToDate(v any, from, to *Type) (any, error) {
	switch x := v.(type) {
	case time.Time:
		if from.Kind == TimestampLTZ {
			return nil, castError(v, from, to)
		}
		return DateOf(x), nil
	case string:
		return stringToDate(x, from, to)
	case int32:
		if from.Kind == Date {
			return x, nil
		}
	}
	return nil, castError(v, from, to)
}

func castToTime(v any, from, to *Type) (any, error) {
	switch x := v.(type) {
	case time.Duration:
		return truncDuration(x, to.Prec), nil
	case time.Time:
		y, m, d := x.Date()
		mid := time.Date(y, m, d, 0, 0, 0, 0, x.Location())
		return truncDuration(x.Sub(mid), to.Prec), nil
	case string:
		return stringToTime(x, from, to)
	}
	return nil, castError(v, from, to)
}

func truncDuration(d time.Duration, prec int) time.Duration {
	unit := time.Duration(math.Pow10(9 - min(max(prec, 0), 9)))
	return d / unit * unit
}

// TruncateTime drops the fraction digits beyond precision p.
func TruncateTime(t time.Time, p int) time.Time {
	return t.Truncate(time.Duration(math.Pow10(9 - min(max(p, 0), 9))))
}

func castToTimestamp(v any, from, to *Type) (any, error) {
	switch x := v.(type) {
	case time.Time:
		return TruncateTime(x, to.Prec), nil
	case int32:
		if from.Kind == Date {
			return DateTime(x), nil
		}
	case string:
		return stringToTimestamp(x, from, to)
	}
	if n, ok := AsInt64(v); ok && from.Kind.IsNumeric() {
		// Numeric to TIMESTAMP_LTZ reads seconds since the epoch.
		return time.Unix(n, 0).UTC(), nil
	}
	return nil, castError(v, from, to)
}

// DateOf returns the DATE value (days since the epoch) of a timestamp's
// wall-clock date.
func DateOf(t time.Time) int32 {
	y, m, d := t.Date()
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// DateTime returns midnight of a DATE value as a TIMESTAMP value.
func DateTime(days int32) time.Time { return time.Unix(int64(days)*86400, 0).UTC() }

// ParseDate reads yyyy-mm-dd (one-digit month and day accepted, as Flink does).
func ParseDate(s string) (int32, error) {
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return 0, fmt.Errorf("invalid date %q", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || p == "" {
			return 0, fmt.Errorf("invalid date %q", s)
		}
		n[i] = v
	}
	if n[1] < 1 || n[1] > 12 || n[2] < 1 || n[2] > 31 {
		return 0, fmt.Errorf("invalid date %q", s)
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], 0, 0, 0, 0, time.UTC)
	if t.Day() != n[2] {
		return 0, fmt.Errorf("invalid date %q", s)
	}
	return int32(t.Unix() / 86400), nil
}

// ParseTime reads hh:mm[:ss[.fffffffff]].
func ParseTime(s string) (time.Duration, error) {
	main, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(main, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, fmt.Errorf("invalid time %q", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || p == "" {
			return 0, fmt.Errorf("invalid time %q", s)
		}
		n[i] = v
	}
	if n[0] > 23 || n[1] > 59 || n[2] > 59 {
		return 0, fmt.Errorf("invalid time %q", s)
	}
	d := time.Duration(n[0])*time.Hour + time.Duration(n[1])*time.Minute + time.Duration(n[2])*time.Second
	if frac != "" {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		f, err := strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
		if err != nil {
			return 0, fmt.Errorf("invalid time %q", s)
		}
		d += time.Duration(f)
	}
	return d, nil
}

// ParseTimestamp reads yyyy-mm-dd[ hh:mm[:ss[.f...]]] (a 'T' may separate
// date and time) as a UTC wall-clock value.
func ParseTimestamp(s string) (time.Time, error) {
	date, clock, found := strings.Cut(s, " ")
	if !found {
		date, clock, found = strings.Cut(s, "T")
	}
	days, err := ParseDate(date)
	if err != nil {
		return time.Time{}, err
	}
	t := DateTime(days)
	if found {
		d, err := ParseTime(strings.TrimSpace(clock))
		if err != nil {
			return time.Time{}, err
		}
		t = t.Add(d)
	}
	return t, nil
}

// ValueString returns v (of type t) as CAST(v AS STRING) gives it; see
// FormatValue. TIMESTAMP_LTZ values keep their own location.
func ValueString(v any, t *Type) string { return FormatValue(v, t, nil) }

// FormatValue returns v (of type t) as CAST(v AS STRING) gives it, which is
// also how the Flink SQL client prints it (RowDataToStringConverterImpl,
// CAST-to-STRING rules in printing mode): TRUE/FALSE, Java's float forms,
// TIME(p) and TIMESTAMP(p) with exactly p fraction digits, BYTES as x'..',
// intervals as +1-00 and +1 00:00:00.000, ARRAY as [1, 2], ROW as (1, a),
// MAP as {k=v}. loc is table.local-time-zone, in which TIMESTAMP_LTZ
// values are shown (nil keeps the value's own location). A nil t formats
// by the Go type alone; a nil v returns "NULL", the form nested values use.
func FormatValue(v any, t *Type, loc *time.Location) string {
	if v == nil {
		return "NULL"
	}
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case []byte:
		return "x'" + hex.EncodeToString(x) + "'"
	case *VariantValue:
		return x.String()
	case float64:
		return JavaFloat(x, 64)
	case float32:
		return JavaFloat(float64(x), 32)
	case *decimal.Decimal:
		return DecimalText(x)
	case time.Time:
		switch {
		case t == nil:
			return x.Format("2006-01-02 15:04:05.999999999")
		case t.Kind == Date:
			return x.Format("2006-01-02")
		case t.Kind == Time:
			return x.Format("15:04:05") + fraction(x.Nanosecond(), t.Prec)
		case t.Kind == TimestampLTZ && loc != nil:
			x = x.In(loc)
		}
		return x.Format("2006-01-02 15:04:05") + fraction(x.Nanosecond(), t.Prec)
	case time.Duration:
		if t != nil && t.Kind == IntervalDayTime {
			return intervalDayTime(x.Milliseconds())
		}
		ns := int(x % time.Second)
		s := int(x / time.Second)
		return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60) + fraction(ns, precOf(t))
	case []any:
		if t != nil && t.Kind == Multiset {
			return formatMultiset(x, t, loc)
		}
		open, closing := "[", "]"
		if t != nil && t.Kind == Row {
			open, closing = "(", ")"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e, elemTypeOf(t, i), loc)
		}
		return open + strings.Join(parts, ", ") + closing
	case map[any]any:
		var kt, vt *Type
		if t != nil {
			kt, vt = t.Elem, t.Val
		}
		parts := make([]string, 0, len(x))
		for k, e := range x {
			parts = append(parts, FormatValue(k, kt, loc)+"="+FormatValue(e, vt, loc))
		}
		sortStrings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	if n, ok := AsInt64(v); ok {
		if t != nil {
			switch t.Kind {
			case Date:
				return DateTime(int32(n)).Format("2006-01-02")
			case IntervalYearMonth:
				sign := "+"
				if n < 0 {
					sign, n = "-", -n
				}
				return fmt.Sprintf("%s%d-%02d", sign, n/12, n%12)
			case IntervalDayTime:
				return intervalDayTime(n)
			}
		}
		return strconv.FormatInt(n, 10)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprint(v)
}

// formatMultiset prints a MULTISET as Flink does (MapToStringCastRule: a
// multiset is a map of element to count): {a=2, b=1}, entries sorted as
// eddy sorts MAP entries.
func formatMultiset(x []any, t *Type, loc *time.Location) string {
	counts := map[string]int{}
	var order []string
	for _, e := range x {
		k := FormatValue(e, t.Elem, loc)
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = k + "=" + strconv.Itoa(counts[k])
	}
	sortStrings(parts)
	return "{" + strings.Join(parts, ", ") + "}"
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func precOf(t *Type) int {
	if t == nil {
		return 0
	}
	return t.Prec
}

func elemTypeOf(t *Type, i int) *Type {
	switch {
	case t == nil:
		return nil
	case t.Kind == Row:
		if i < len(t.Fields) {
			return t.Fields[i].Type
		}
		return nil
	}
	return t.Elem
}

func fraction(nanos, p int) string {
	if p <= 0 {
		return ""
	}
	return "." + fmt.Sprintf("%09d", nanos)[:min(p, 9)]
}

func intervalDayTime(ms int64) string {
	sign := "+"
	if ms < 0 {
		sign, ms = "-", -ms
	}
	const day = 86400000
	d, rest := ms/day, ms%day
	return fmt.Sprintf("%s%d %02d:%02d:%02d.%03d", sign, d, rest/3600000, rest/60000%60, rest/1000%60, rest%1000)
}

// JavaFloat prints a float as Java's Double.toString / Float.toString do.
func JavaFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, bits)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// CompareValues orders two non-null values of the same type: negative, 0
// or positive. Strings compare by bytes (UTF-8 code points), booleans
// FALSE < TRUE.
func CompareValues(a, b any) int {
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case *VariantValue:
		// VARIANT is not orderable; equal encodings are equal values and
		// the rest are ordered by encoding, consistently with equality.
		y := b.(*VariantValue)
		if x.Equal(y) {
			return 0
		}
		return bytes.Compare(x.Encode(), y.Encode())
	case float32:
		return cmpFloat(float64(x), float64(b.(float32)))
	case float64:
		return cmpFloat(x, b.(float64))
	case *decimal.Decimal:
		return x.Cmp(*b.(*decimal.Decimal))
	case time.Time:
		return x.Compare(b.(time.Time))
	case time.Duration:
		return cmpInt(int64(x), int64(b.(time.Duration)))
	case []any:
		y := b.([]any)
		for i := 0; i < len(x) && i < len(y); i++ {
			if x[i] == nil || y[i] == nil {
				if x[i] == nil && y[i] == nil {
					continue
				}
				if x[i] == nil {
					return -1
				}
				return 1
			}
			if c := CompareValues(x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmpInt(int64(len(x)), int64(len(y)))
	}
	if n, ok := AsInt64(a); ok {
		m, _ := AsInt64(b)
		return cmpInt(n, m)
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpFloat orders floats as Java's Double.compare: NaN above +Infinity.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	}
	return -1
}
