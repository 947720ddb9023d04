package types

import (
	"fmt"
	"strings"
)

// Kind is the root of a logical type (Flink's LogicalTypeRoot).
type Kind uint8

// The kinds, in the order of Flink's LogicalTypeRoot.
const (
	Char Kind = iota + 1
	VarChar
	Boolean
	Binary
	VarBinary
	Decimal
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Date
	Time
	Timestamp    // TIMESTAMP(p) WITHOUT TIME ZONE
	TimestampLTZ // TIMESTAMP(p) WITH LOCAL TIME ZONE
	TimestampTZ  // TIMESTAMP(p) WITH TIME ZONE (parsed and printed; not executable)
	IntervalYearMonth
	IntervalDayTime
	Array
	Multiset
	Map
	Row
	Raw
	Null
	// Variant is VARIANT (Flink 2.1+): semi-structured values, the JSON
	// data model. It follows Null so that the numbers of the other kinds
	// stay what they were.
	Variant
)

var kindNames = [...]string{
	Char: "CHAR", VarChar: "VARCHAR", Boolean: "BOOLEAN", Binary: "BINARY", VarBinary: "VARBINARY",
	Decimal: "DECIMAL", TinyInt: "TINYINT", SmallInt: "SMALLINT", Int: "INT", BigInt: "BIGINT",
	Float: "FLOAT", Double: "DOUBLE", Date: "DATE", Time: "TIME", Timestamp: "TIMESTAMP",
	TimestampLTZ: "TIMESTAMP_LTZ", TimestampTZ: "TIMESTAMP_TZ", IntervalYearMonth: "INTERVAL_YEAR_MONTH",
	IntervalDayTime: "INTERVAL_DAY_TIME", Array: "ARRAY", Multiset: "MULTISET", Map: "MAP", Row: "ROW",
	Raw: "RAW", Null: "NULL", Variant: "VARIANT",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Limits and defaults of the parameterised types (Flink's *Type classes).
const (
	MaxLength           = 2147483647 // CHAR, VARCHAR, BINARY, VARBINARY
	MaxDecimalPrecision = 38
	DefaultDecimalPrec  = 10
	MaxTimePrecision    = 9
	DefaultTimestampP   = 6
	DefaultTimeP        = 0
	DefaultYearP        = 2
	DefaultDayP         = 2
	DefaultFractionalP  = 6
)

// IntervalRes is the resolution of an interval type.
type IntervalRes uint8

// Interval resolutions (Flink's YearMonthResolution and DayTimeResolution).
const (
	ResYear IntervalRes = iota + 1
	ResYearToMonth
	ResMonth
	ResDay
	ResDayToHour
	ResDayToMinute
	ResDayToSecond
	ResHour
	ResHourToMinute
	ResHourToSecond
	ResMinute
	ResMinuteToSecond
	ResSecond
)

// TimeAttr marks a TIMESTAMP column as an event-time or processing-time attribute.
type TimeAttr uint8

// Time attribute kinds; the summary string shows them as *ROWTIME* and *PROCTIME*.
const (
	Regular TimeAttr = iota
	Rowtime
	Proctime
)

// Field is one field of a ROW type.
type Field struct {
	Name        string
	Type        *Type
	Description string // or ""
}

// Type is a Flink logical type. The zero value is not a valid type; use the
// constructors or Parse. Types are immutable once built: methods that change
// a property return a copy.
type Type struct {
	Kind     Kind
	NotNull  bool        // Flink types are nullable unless declared NOT NULL
	Length   int         // CHAR, VARCHAR, BINARY, VARBINARY
	Prec     int         // DECIMAL precision; TIME/TIMESTAMP fractional precision; interval leading precision
	Scale    int         // DECIMAL scale; interval fractional (second) precision
	Res      IntervalRes // interval resolution
	TimeAttr TimeAttr    // TIMESTAMP and TIMESTAMP_LTZ only
	Elem     *Type       // ARRAY and MULTISET element, MAP key
	Val      *Type       // MAP value
	Fields   []Field     // ROW
	RawClass string      // RAW
	RawSnap  string      // RAW serializer snapshot
}

// New returns a nullable type of a kind that takes no parameters.
func New(k Kind) *Type { return &Type{Kind: k} }

// NewChar returns CHAR(n).
func NewChar(n int) *Type { return &Type{Kind: Char, Length: n} }

// NewVarChar returns VARCHAR(n).
func NewVarChar(n int) *Type { return &Type{Kind: VarChar, Length: n} }

// NewString returns STRING, that is VARCHAR(2147483647).
func NewString() *Type { return NewVarChar(MaxLength) }

// NewBinary returns BINARY(n).
func NewBinary(n int) *Type { return &Type{Kind: Binary, Length: n} }

// NewVarBinary returns VARBINARY(n).
func NewVarBinary(n int) *Type { return &Type{Kind: VarBinary, Length: n} }

// NewDecimal returns DECIMAL(p, s).
func NewDecimal(p, s int) *Type { return &Type{Kind: Decimal, Prec: p, Scale: s} }

// NewTime returns TIME(p).
func NewTime(p int) *Type { return &Type{Kind: Time, Prec: p} }

// NewTimestamp returns TIMESTAMP(p).
func NewTimestamp(p int) *Type { return &Type{Kind: Timestamp, Prec: p} }

// NewTimestampLTZ returns TIMESTAMP_LTZ(p).
func NewTimestampLTZ(p int) *Type { return &Type{Kind: TimestampLTZ, Prec: p} }

// NewArray returns ARRAY<elem>.
func NewArray(elem *Type) *Type { return &Type{Kind: Array, Elem: elem} }

// NewMultiset returns MULTISET<elem>.
func NewMultiset(elem *Type) *Type { return &Type{Kind: Multiset, Elem: elem} }

// NewMap returns MAP<key, val>.
func NewMap(key, val *Type) *Type { return &Type{Kind: Map, Elem: key, Val: val} }

// NewRow returns ROW<fields...>.
func NewRow(fields ...Field) *Type { return &Type{Kind: Row, Fields: fields} }

// Nullable reports whether the type admits NULL.
func (t *Type) Nullable() bool { return !t.NotNull }

// WithNullable returns a copy of t with the given nullability.
func (t *Type) WithNullable(nullable bool) *Type {
	c := *t
	c.NotNull = !nullable
	return &c
}

// WithTimeAttr returns a copy of t marked as a time attribute.
func (t *Type) WithTimeAttr(a TimeAttr) *Type {
	c := *t
	c.TimeAttr = a
	return &c
}

// Equal reports whether two types are the same, nullability and time
// attribute included.
func (t *Type) Equal(u *Type) bool {
	if t == nil || u == nil {
		return t == u
	}
	if t.Kind != u.Kind || t.NotNull != u.NotNull || t.Length != u.Length || t.Prec != u.Prec ||
		t.Scale != u.Scale || t.Res != u.Res || t.TimeAttr != u.TimeAttr ||
		t.RawClass != u.RawClass || t.RawSnap != u.RawSnap || len(t.Fields) != len(u.Fields) {
		return false
	}
	if !t.Elem.Equal(u.Elem) || !t.Val.Equal(u.Val) {
		return false
	}
	for i := range t.Fields {
		f, g := t.Fields[i], u.Fields[i]
		if f.Name != g.Name || f.Description != g.Description || !f.Type.Equal(g.Type) {
			return false
		}
	}
	return true
}

// String returns the summary string (Flink's asSummaryString), the form
// DESCRIBE, SHOW COLUMNS and TYPEOF print: STRING, BYTES, TIMESTAMP_LTZ(3),
// TIMESTAMP(3) *ROWTIME*, INT NOT NULL.
func (t *Type) String() string { return t.format(true) }

// SerializableString returns Flink's asSerializableString form, the one SHOW
// CREATE TABLE prints and Parse reads back: VARCHAR(2147483647),
// TIMESTAMP(3) WITH LOCAL TIME ZONE, ROW<`a` INT>.
func (t *Type) SerializableString() string { return t.format(false) }

func (t *Type) format(summary bool) string {
	var b strings.Builder
	t.write(&b, summary)
	return b.String()
}

func (t *Type) write(b *strings.Builder, summary bool) {
	switch t.Kind {
	case Char:
		fmt.Fprintf(b, "CHAR(%d)", t.Length)
	case VarChar:
		if summary && t.Length == MaxLength {
			b.WriteString("STRING")
		} else {
			fmt.Fprintf(b, "VARCHAR(%d)", t.Length)
		}
	case Binary:
		fmt.Fprintf(b, "BINARY(%d)", t.Length)
	case VarBinary:
		if summary && t.Length == MaxLength {
			b.WriteString("BYTES")
		} else {
			fmt.Fprintf(b, "VARBINARY(%d)", t.Length)
		}
	case Decimal:
		fmt.Fprintf(b, "DECIMAL(%d, %d)", t.Prec, t.Scale)
	case Time:
		fmt.Fprintf(b, "TIME(%d)", t.Prec)
	case Timestamp:
		fmt.Fprintf(b, "TIMESTAMP(%d)", t.Prec)
	case TimestampLTZ:
		if summary {
			fmt.Fprintf(b, "TIMESTAMP_LTZ(%d)", t.Prec)
		} else {
			fmt.Fprintf(b, "TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Prec)
		}
	case TimestampTZ:
		fmt.Fprintf(b, "TIMESTAMP(%d) WITH TIME ZONE", t.Prec)
	case IntervalYearMonth, IntervalDayTime:
		b.WriteString(t.intervalString())
	case Array, Multiset:
		b.WriteString(t.Kind.String())
		b.WriteByte('<')
		t.Elem.write(b, summary)
		b.WriteByte('>')
	case Map:
		b.WriteString("MAP<")
		t.Elem.write(b, summary)
		b.WriteString(", ")
		t.Val.write(b, summary)
		b.WriteByte('>')
	case Row:
		b.WriteString("ROW<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(f.Name))
			b.WriteByte(' ')
			f.Type.write(b, summary)
			if f.Description != "" {
				b.WriteString(" '")
				b.WriteString(strings.ReplaceAll(f.Description, "'", "''"))
				b.WriteByte('\'')
			}
		}
		b.WriteByte('>')
	case Raw:
		if summary {
			fmt.Fprintf(b, "RAW('%s', '...')", t.RawClass)
		} else {
			fmt.Fprintf(b, "RAW('%s', '%s')", t.RawClass, t.RawSnap)
		}
	default:
		b.WriteString(t.Kind.String())
	}
	if t.NotNull {
		b.WriteString(" NOT NULL")
	}
	if summary {
		switch t.TimeAttr {
		case Rowtime:
			b.WriteString(" *ROWTIME*")
		case Proctime:
			b.WriteString(" *PROCTIME*")
		}
	}
}

func (t *Type) intervalString() string {
	switch t.Res {
	case ResYear:
		return fmt.Sprintf("INTERVAL YEAR(%d)", t.Prec)
	case ResYearToMonth:
		return fmt.Sprintf("INTERVAL YEAR(%d) TO MONTH", t.Prec)
	case ResMonth:
		return "INTERVAL MONTH"
	case ResDay:
		return fmt.Sprintf("INTERVAL DAY(%d)", t.Prec)
	case ResDayToHour:
		return fmt.Sprintf("INTERVAL DAY(%d) TO HOUR", t.Prec)
	case ResDayToMinute:
		return fmt.Sprintf("INTERVAL DAY(%d) TO MINUTE", t.Prec)
	case ResDayToSecond:
		return fmt.Sprintf("INTERVAL DAY(%d) TO SECOND(%d)", t.Prec, t.Scale)
	case ResHour:
		return "INTERVAL HOUR"
	case ResHourToMinute:
		return "INTERVAL HOUR TO MINUTE"
	case ResHourToSecond:
		return fmt.Sprintf("INTERVAL HOUR TO SECOND(%d)", t.Scale)
	case ResMinute:
		return "INTERVAL MINUTE"
	case ResMinuteToSecond:
		return fmt.Sprintf("INTERVAL MINUTE TO SECOND(%d)", t.Scale)
	case ResSecond:
		return fmt.Sprintf("INTERVAL SECOND(%d)", t.Scale)
	}
	return "INTERVAL"
}

// QuoteIdent quotes a name with backticks, doubling any backtick inside, as
// Flink's EncodingUtils.escapeIdentifier does.
func QuoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// IsNumeric reports whether the kind is an exact or approximate number.
func (k Kind) IsNumeric() bool {
	switch k {
	case TinyInt, SmallInt, Int, BigInt, Decimal, Float, Double:
		return true
	}
	return false
}

// IsCharacterString reports whether the kind is CHAR or VARCHAR.
func (k Kind) IsCharacterString() bool { return k == Char || k == VarChar }
