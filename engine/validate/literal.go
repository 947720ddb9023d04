package validate

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"eddy/engine/ast"
	"eddy/engine/types"
)

// Literal types follow Calcite's SqlLiteral rules, which Flink keeps:
// 'abc' is CHAR(3) NOT NULL, 1 is INT NOT NULL (BIGINT beyond 32 bits),
// 1.50 is DECIMAL(3, 2) NOT NULL (every written digit counts towards the
// precision), 1e3 is DOUBLE NOT NULL, NULL has the NULL type, and datetime
// literals take their precision from the fraction digits written.

// The literal formats are compiled on first use: most statements have no
// datetime or interval literal, and a process that runs one statement
// should not pay for them at start-up.
var (
	dateRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{1,4}-\d{1,2}-\d{1,2}$`) })
	timeRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{1,2}:\d{1,2}(:\d{1,2}(\.(\d*))?)?$`) })
	timestampRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\d{1,4}-\d{1,2}-\d{1,2} \d{1,2}:\d{1,2}(:\d{1,2}(\.(\d*))?)?$`)
	})
)

func (v *Validator) literal(l *ast.Literal, negative bool) (*Typed, error) {
	t, err := literalType(l, negative)
	if err != nil {
		return nil, err
	}
	return &Typed{Expr: l, Type: t}, nil
}

// literalType is the type of a literal (see literal).
func literalType(l *ast.Literal, negative bool) (*types.Type, error) {
	t := new(types.Type)
	if err := typeLiteral(l, negative, t); err != nil {
		return nil, err
	}
	return t, nil
}

// typeLiteral sets *t to the type of a literal (see literal).
func typeLiteral(l *ast.Literal, negative bool, t *types.Type) error {
	set := func(x *types.Type, notNull bool) error {
		*t = *x
		t.NotNull = notNull
		return nil
	}
	switch l.Kind {
	case ast.LitInteger:
		k, err := integerLiteralKind(l, l.Value, negative)
		if err != nil {
			return err
		}
		*t = types.Type{Kind: k, NotNull: true}
		return nil
	case ast.LitDecimal:
		s := l.Value
		dot := strings.IndexByte(s, '.')
		if dot == len(s)-1 {
			k, err := integerLiteralKind(l, s[:dot], negative)
			if err != nil {
				return err
			}
			*t = types.Type{Kind: k, NotNull: true}
			return nil
		}
		prec, scale := len(s)-1, len(s)-dot-1
		// Up to 18 digits fit a 64-bit integer whatever the sign.
		if prec > 18 && !unscaledFitsLong(s[:dot]+s[dot+1:], negative) {
			return errorf(l.Pos, ErrLiteral, "Numeric literal '%s' out of range", signed(s, negative))
		}
		return set(types.NewDecimal(prec, scale), true)
	case ast.LitFloat:
		if f, err := strconv.ParseFloat(l.Value, 64); err != nil && math.IsInf(f, 0) {
			text := strings.Replace(strings.ToUpper(l.Value), "E+", "E", 1)
			return errorf(l.Pos, ErrLiteral, "Numeric literal '%s' out of range", signed(text, negative))
		}
		return set(types.New(types.Double), true)
	case ast.LitString:
		return set(types.NewChar(utf8.RuneCountInString(l.Value)), true)
	case ast.LitBinary:
		if len(l.Value)%2 != 0 {
			return errorf(l.Pos, ErrLiteral, "Binary literal string must contain an even number of hexits")
		}
		return set(types.NewBinary(len(l.Value)/2), true)
	case ast.LitBool:
		return set(types.New(types.Boolean), true)
	case ast.LitNull:
		return set(types.New(types.Null), false)
	case ast.LitUnknown:
		return set(types.New(types.Boolean), false)
	case ast.LitDate:
		if !dateRe().MatchString(l.Value) {
			return illegalLiteral(l, "DATE", "yyyy-MM-dd")
		}
		return set(types.New(types.Date), true)
	case ast.LitTime:
		m := timeRe().FindStringSubmatch(l.Value)
		if m == nil {
			return illegalLiteral(l, "TIME", "HH:mm:ss")
		}
		return set(types.NewTime(fractionPrecision(m[3])), true)
	case ast.LitTimestamp, ast.LitTimestampLTZ:
		m := timestampRe().FindStringSubmatch(l.Value)
		if m == nil {
			return illegalLiteral(l, "TIMESTAMP", "yyyy-MM-dd HH:mm:ss")
		}
		p := fractionPrecision(m[3])
		if l.Kind == ast.LitTimestampLTZ {
			return set(types.NewTimestampLTZ(p), true)
		}
		return set(types.NewTimestamp(p), true)
	}
	return errorf(l.Pos, ErrNotSupported, "Unsupported literal %s", ast.String(l))
}

func fractionPrecision(digits string) int { return min(len(digits), types.MaxTimePrecision) }

func illegalLiteral(l *ast.Literal, typ, format string) *Error {
	return errorf(l.Pos, ErrLiteral, "Illegal %s literal '%s': not in format '%s'", typ, l.Value, format)
}

var (
	minInt32 = big.NewInt(-1 << 31)
	maxInt32 = big.NewInt(1<<31 - 1)
	minInt64 = new(big.Int).Lsh(big.NewInt(-1), 63)
	maxInt64 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 63), big.NewInt(1))
)

// unscaledFitsLong reports whether digits (negated when negative) fit a
// 64-bit integer: Calcite's validator takes an exact literal only when its
// unscaled value does, whatever its scale.
func unscaledFitsLong(digits string, negative bool) bool {
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return false
	}
	if negative {
		n.Neg(n)
	}
	return n.Cmp(minInt64) >= 0 && n.Cmp(maxInt64) <= 0
}

// signed is a literal's text as Flink quotes it, its sign folded in.
func signed(s string, negative bool) string {
	if negative {
		return "-" + s
	}
	return s
}

// integerLiteralKind types an integer literal (negated when it stands
// under a unary minus): INT when it fits 32 bits, BIGINT when it fits 64;
// a larger one is out of range, as in Calcite's validator.
func integerLiteralKind(l *ast.Literal, digits string, negative bool) (types.Kind, error) {
	if len(digits) <= 18 {
		// Fits an int64 whatever the sign: no big number needed.
		if n, err := strconv.ParseInt(digits, 10, 64); err == nil {
			if negative {
				n = -n
			}
			if n >= math.MinInt32 && n <= math.MaxInt32 {
				return types.Int, nil
			}
			return types.BigInt, nil
		}
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return 0, errorf(l.Pos, ErrLiteral, "Numeric literal '%s' out of range", signed(digits, negative))
	}
	if negative {
		n.Neg(n)
	}
	switch {
	case n.Cmp(minInt32) >= 0 && n.Cmp(maxInt32) <= 0:
		return types.Int, nil
	case n.Cmp(minInt64) >= 0 && n.Cmp(maxInt64) <= 0:
		return types.BigInt, nil
	}
	return 0, errorf(l.Pos, ErrLiteral, "Numeric literal '%s' out of range", signed(digits, negative))
}

// intValue returns the value of an integer literal expression (possibly
// negated), or nil.
func intValue(e ast.Expr) *int64 {
	neg := false
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == "-" || u.Op == "+") {
		neg = u.Op == "-"
		e = u.X
	}
	l, ok := e.(*ast.Literal)
	if !ok || l.Kind != ast.LitInteger {
		return nil
	}
	n, ok := new(big.Int).SetString(l.Value, 10)
	if !ok || !n.IsInt64() {
		return nil
	}
	x := n.Int64()
	if neg {
		x = -x
	}
	return &x
}

// intervalUnitOrder ranks the units of an interval qualifier.
var intervalUnitOrder = map[ast.TimeUnit]int{"YEAR": 1, "MONTH": 2, "DAY": 3, "HOUR": 4, "MINUTE": 5, "SECOND": 6}

// intervalFormats are the value formats of each qualifier (Calcite's
// SqlIntervalQualifier): digits per field, the separators between them.
var intervalFormats = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"YEAR":             regexp.MustCompile(`^[+-]?\d+$`),
		"MONTH":            regexp.MustCompile(`^[+-]?\d+$`),
		"DAY":              regexp.MustCompile(`^[+-]?\d+$`),
		"HOUR":             regexp.MustCompile(`^[+-]?\d+$`),
		"MINUTE":           regexp.MustCompile(`^[+-]?\d+$`),
		"SECOND":           regexp.MustCompile(`^[+-]?\d+(\.\d*)?$`),
		"YEAR TO MONTH":    regexp.MustCompile(`^[+-]?\d+-\d+$`),
		"DAY TO HOUR":      regexp.MustCompile(`^[+-]?\d+ \d+$`),
		"DAY TO MINUTE":    regexp.MustCompile(`^[+-]?\d+ \d+:\d+$`),
		"DAY TO SECOND":    regexp.MustCompile(`^[+-]?\d+ \d+:\d+:\d+(\.\d*)?$`),
		"HOUR TO MINUTE":   regexp.MustCompile(`^[+-]?\d+:\d+$`),
		"HOUR TO SECOND":   regexp.MustCompile(`^[+-]?\d+:\d+:\d+(\.\d*)?$`),
		"MINUTE TO SECOND": regexp.MustCompile(`^[+-]?\d+:\d+(\.\d*)?$`),
	}
})

// interval types an INTERVAL literal. Flink's planner keeps two interval
// types: year-month intervals are INTERVAL MONTH, day-time intervals
// INTERVAL SECOND(3) (FlinkTypeFactory), NOT NULL as every literal.
func (v *Validator) interval(l *ast.IntervalLit) (*Typed, error) {
	q := l.Qualifier
	key := string(q.Start)
	if q.End != "" {
		key += " TO " + string(q.End)
	}
	if err := checkInterval(l, key); err != nil {
		return nil, err
	}
	var t *types.Type
	if intervalUnitOrder[q.Start] <= intervalUnitOrder["MONTH"] {
		t = &types.Type{Kind: types.IntervalYearMonth, Res: types.ResMonth}
	} else {
		t = &types.Type{Kind: types.IntervalDayTime, Res: types.ResSecond, Prec: types.DefaultDayP, Scale: 3}
	}
	t.NotNull = true
	return &Typed{Expr: l, Type: t}, nil
}

// ErrIntervalPrecision is a day-time interval whose leading precision
// Flink's types cannot hold (more than 3 digits: FlinkTypeFactory fails
// when it converts the validated type).
var ErrIntervalPrecision = &Kind{"interval precision not supported", "TableException"}

// checkInterval applies Calcite's SqlIntervalQualifier checks to an
// INTERVAL literal, in its order: the leading precision within 1..10 and
// the fractional second precision within 1..9; the value's format; the
// leading field within its precision (2 digits unless written); the other
// fields within their ranges (months 0..11, hours 0..23, minutes and
// seconds 0..59) and the fraction within its precision (6 unless written).
// A day-time leading precision above 3 then fails as in Flink's type
// conversion.
func checkInterval(l *ast.IntervalLit, key string) error {
	q := l.Qualifier
	text := intervalQualifierText(q)
	if q.StartPrec >= 0 && (q.StartPrec < 1 || q.StartPrec > 10) {
		return errorf(l.Pos, ErrLiteral, "Interval leading field precision '%d' out of range for INTERVAL %s", q.StartPrec, text)
	}
	if q.FracPrec >= 0 && (q.FracPrec < 1 || q.FracPrec > 9) {
		return errorf(l.Pos, ErrLiteral, "Interval fractional second precision '%d' out of range for INTERVAL %s", q.FracPrec, text)
	}
	value := strings.TrimSpace(l.Value)
	illegal := errorf(l.Pos, ErrLiteral, "Illegal interval literal format '%s' for INTERVAL %s", l.Value, text)
	re := intervalFormats()[key]
	if re == nil || !re.MatchString(value) {
		return illegal
	}
	sign := ""
	if value[0] == '+' || value[0] == '-' {
		if value[0] == '-' {
			sign = "-"
		}
		value = value[1:]
	}
	fields := strings.FieldsFunc(value, func(r rune) bool { return r == ' ' || r == ':' || r == '-' })
	lead := strings.TrimLeft(fields[0], "0")
	if q.End == "" && q.Start == "SECOND" {
		lead, _, _ = strings.Cut(lead, ".")
	}
	prec := q.StartPrec
	if prec < 0 {
		prec = 2
	}
	if len(lead) > prec {
		n, _ := new(big.Int).SetString(sign+lead, 10)
		return errorf(l.Pos, ErrLiteral, "Interval field value %s exceeds precision of %s(%d) field", groupThousands(n.String()), q.Start, prec)
	}
	limits := map[ast.TimeUnit]int64{"MONTH": 11, "HOUR": 23, "MINUTE": 59, "SECOND": 59}
	unit := intervalUnitOrder[q.Start]
	units := []ast.TimeUnit{"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"}
	for i, f := range fields {
		u := units[unit-1+i]
		if u == "SECOND" {
			whole, frac, _ := strings.Cut(f, ".")
			fp := q.FracPrec
			if fp < 0 {
				fp = 6
			}
			if len(frac) > fp {
				return illegal
			}
			f = whole
		}
		if i == 0 {
			continue
		}
		if n, err := strconv.ParseInt(f, 10, 64); err != nil || n > limits[u] {
			return illegal
		}
	}
	if unit >= intervalUnitOrder["DAY"] && q.StartPrec > 3 {
		return errorf(l.Pos, ErrIntervalPrecision, "DAY_INTERVAL_TYPES precision is not supported: %d", q.StartPrec)
	}
	return nil
}

// intervalQualifierText is a qualifier as Calcite writes it in messages:
// DAY(4), SECOND(2, 3), DAY TO SECOND(9).
func intervalQualifierText(q ast.IntervalQualifier) string {
	s := string(q.Start)
	if q.StartPrec >= 0 {
		if q.End == "" && q.FracPrec >= 0 {
			s += "(" + strconv.Itoa(q.StartPrec) + ", " + strconv.Itoa(q.FracPrec) + ")"
		} else {
			s += "(" + strconv.Itoa(q.StartPrec) + ")"
		}
	}
	if q.End != "" {
		s += " TO " + string(q.End)
		if q.FracPrec >= 0 {
			s += "(" + strconv.Itoa(q.FracPrec) + ")"
		}
	}
	return s
}

// groupThousands writes an integer with a comma between groups of three
// digits, as Java's default number format does in Calcite's messages.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + b.String()
}

// LiteralType sets *t to the type of a literal (negative: it follows a
// unary minus, which the literal's range takes into account), by the
// rules the validator types literals with.
func LiteralType(l *ast.Literal, negative bool, t *types.Type) error {
	return typeLiteral(l, negative, t)
}
