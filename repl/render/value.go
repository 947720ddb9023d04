package render

import (
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"eddy/engine/types"
)

// FormatValue returns v as the Flink SQL client prints a non-null value of
// type t (Flink's CAST-to-STRING rules in printing mode,
// RowDataToStringConverterImpl): BOOLEAN as TRUE/FALSE, TIMESTAMP(p) with
// exactly p fraction digits, BYTES as x'0a0b', ARRAY as [1, 2], ROW as
// (1, abc). A nil t formats by the Go type alone. loc is
// table.local-time-zone, used for TIMESTAMP_LTZ values (nil keeps the
// value's own location). A nil v returns "NULL", the form nested values use.
//
// The Go representations are those of engine results: string, bool,
// int8..int64, float32/float64, []byte, time.Time (DATE, TIME, TIMESTAMP,
// TIMESTAMP_LTZ), time.Duration (TIME as the time of day, INTERVAL DAY TO
// SECOND), an integer count of months (INTERVAL YEAR TO MONTH) or of
// milliseconds (INTERVAL DAY TO SECOND), a decimal with Text('f') (such as
// *apd.Decimal), []any (ARRAY, MULTISET, ROW) and map[any]any (MAP).
func FormatValue(t *types.Type, v any, loc *time.Location) string {
	if v == nil {
		return "NULL"
	}
	kind := types.Kind(0)
	if t != nil {
		kind = t.Kind
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
	case float64:
		return javaFloat(x, 64)
	case float32:
		return javaFloat(float64(x), 32)
	case time.Time:
		return formatTime(t, x, loc)
	case time.Duration:
		switch kind {
		case types.Time:
			return formatTimeOfDay(x, precision(t))
		case types.IntervalDayTime:
			return intervalDayTime(x.Milliseconds())
		}
		return x.String()
	case []any:
		return formatList(t, x, loc)
	case map[any]any:
		return formatMap(t, x, loc)
	}
	if n, ok := asInt64(v); ok {
		switch kind {
		case types.IntervalYearMonth:
			return intervalYearMonth(n)
		case types.IntervalDayTime:
			return intervalDayTime(n)
		case types.Date:
			return time.Unix(n*86400, 0).UTC().Format("2006-01-02")
		}
		return strconv.FormatInt(n, 10)
	}
	if n, ok := v.(uint64); ok {
		return strconv.FormatUint(n, 10)
	}
	if d, ok := v.(interface{ Text(byte) string }); ok {
		return d.Text('f')
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprint(v)
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	}
	return 0, false
}

func precision(t *types.Type) int {
	if t == nil {
		return 0
	}
	return t.Prec
}

// formatTime prints DATE, TIME(p), TIMESTAMP(p) and TIMESTAMP_LTZ(p) values
// as Flink does: ISO date, a space, the time and exactly p fraction digits.
func formatTime(t *types.Type, x time.Time, loc *time.Location) string {
	if t == nil {
		return x.Format("2006-01-02 15:04:05.999999999")
	}
	switch t.Kind {
	case types.Date:
		return x.Format("2006-01-02")
	case types.Time:
		return x.Format("15:04:05") + fraction(x.Nanosecond(), t.Prec)
	case types.TimestampLTZ:
		if loc != nil {
			x = x.In(loc)
		}
	}
	return x.Format("2006-01-02 15:04:05") + fraction(x.Nanosecond(), t.Prec)
}

func formatTimeOfDay(d time.Duration, prec int) string {
	ns := int(d % time.Second)
	s := int(d / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60) + fraction(ns, prec)
}

// fraction returns "." and the first p digits of the nanoseconds, or "" for p = 0.
func fraction(nanos, p int) string {
	if p <= 0 {
		return ""
	}
	if p > 9 {
		p = 9
	}
	return "." + fmt.Sprintf("%09d", nanos)[:p]
}

// intervalYearMonth prints a month count as Flink does: "+1-00", "-0-06".
func intervalYearMonth(months int64) string {
	sign := "+"
	if months < 0 {
		sign, months = "-", -months
	}
	return fmt.Sprintf("%s%d-%02d", sign, months/12, months%12)
}

// intervalDayTime prints a millisecond count as Flink does: "+1 00:00:00.000".
func intervalDayTime(ms int64) string {
	sign := "+"
	if ms < 0 {
		sign, ms = "-", -ms
	}
	const day = 86400000
	d, rest := ms/day, ms%day
	return fmt.Sprintf("%s%d %02d:%02d:%02d.%03d", sign, d, rest/3600000, rest/60000%60, rest/1000%60, rest%1000)
}

// javaFloat prints a float as Java's Double.toString / Float.toString do:
// plain notation with at least one fraction digit between 10^-3 and 10^7,
// otherwise "1.0E10" style; the shortest digits that read back exactly.
func javaFloat(f float64, bits int) string {
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

func formatList(t *types.Type, xs []any, loc *time.Location) string {
	open, closing := "[", "]"
	if t != nil && t.Kind == types.Row {
		open, closing = "(", ")"
	}
	var b strings.Builder
	b.WriteString(open)
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(FormatValue(elemType(t, i), x, loc))
	}
	b.WriteString(closing)
	return b.String()
}

func elemType(t *types.Type, i int) *types.Type {
	switch {
	case t == nil:
		return nil
	case t.Kind == types.Row:
		if i < len(t.Fields) {
			return t.Fields[i].Type
		}
		return nil
	}
	return t.Elem
}

// formatMap prints {k1=v1, k2=v2}, keys in the order of their printed form
// (a Go map has no order of its own).
func formatMap(t *types.Type, m map[any]any, loc *time.Location) string {
	var kt, vt *types.Type
	if t != nil {
		kt, vt = t.Elem, t.Val
	}
	entries := make([]string, 0, len(m))
	for k, v := range m {
		entries = append(entries, FormatValue(kt, k, loc)+"="+FormatValue(vt, v, loc))
	}
	sort.Strings(entries)
	return "{" + strings.Join(entries, ", ") + "}"
}
