package functions

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// Family is a set of types an operand may have, named as Calcite names its
// SqlTypeFamily in signatures ("<NUMERIC>", "<CHARACTER>").
type Family uint8

// Operand families.
const (
	Any          Family = iota + 1
	Numeric             // TINYINT .. DOUBLE, DECIMAL
	ExactNumeric        // integers and DECIMAL
	Integer             // TINYINT, SMALLINT, INT, BIGINT
	Approx              // FLOAT, DOUBLE
	Character           // CHAR, VARCHAR
	Binary              // BINARY, VARBINARY
	String              // character or binary strings
	Boolean
	DateF
	TimeF
	TimestampF // TIMESTAMP and TIMESTAMP_LTZ
	Datetime   // DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ
	Interval   // any interval
	ArrayF
	MapF
	MultisetF
	RowF
	Comparable // any type with an order
	Collection // ARRAY, MAP or MULTISET
)

var familyNames = [...]string{
	Any: "ANY", Numeric: "NUMERIC", ExactNumeric: "EXACT_NUMERIC", Integer: "INTEGER",
	Approx: "APPROXIMATE_NUMERIC", Character: "CHARACTER", Binary: "BINARY", String: "STRING",
	Boolean: "BOOLEAN", DateF: "DATE", TimeF: "TIME", TimestampF: "TIMESTAMP", Datetime: "DATETIME",
	Interval: "DATETIME_INTERVAL", ArrayF: "ARRAY", MapF: "MAP", MultisetF: "MULTISET", RowF: "ROW",
	Comparable: "COMPARABLE_TYPE", Collection: "COLLECTION",
}

// String returns the family's name as Calcite prints it.
func (f Family) String() string {
	if int(f) < len(familyNames) && familyNames[f] != "" {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// Accepts reports whether a value of type t may stand where f is expected.
// The NULL type fits every family, as an untyped NULL does in Calcite.
func (f Family) Accepts(t *types.Type) bool {
	k := t.Kind
	if k == types.Null || f == Any {
		return true
	}
	switch f {
	case Numeric:
		return k.IsNumeric()
	case ExactNumeric:
		return IsInteger(k) || k == types.Decimal
	case Integer:
		return IsInteger(k)
	case Approx:
		return k == types.Float || k == types.Double
	case Character:
		return k.IsCharacterString()
	case Binary:
		return k == types.Binary || k == types.VarBinary
	case String:
		return k.IsCharacterString() || k == types.Binary || k == types.VarBinary
	case Boolean:
		return k == types.Boolean
	case DateF:
		return k == types.Date
	case TimeF:
		return k == types.Time
	case TimestampF:
		return k == types.Timestamp || k == types.TimestampLTZ
	case Datetime:
		return IsDatetime(k)
	case Interval:
		return IsInterval(k)
	case ArrayF:
		return k == types.Array
	case MapF:
		return k == types.Map
	case MultisetF:
		return k == types.Multiset
	case RowF:
		return k == types.Row
	case Comparable:
		return k != types.Map && k != types.Multiset && k != types.Raw
	case Collection:
		return k == types.Array || k == types.Map || k == types.Multiset
	}
	return false
}

// IsInteger reports whether k is an exact integer kind.
func IsInteger(k types.Kind) bool {
	return k == types.TinyInt || k == types.SmallInt || k == types.Int || k == types.BigInt
}

// IsDatetime reports whether k is DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ.
func IsDatetime(k types.Kind) bool {
	return k == types.Date || k == types.Time || k == types.Timestamp || k == types.TimestampLTZ
}

// IsInterval reports whether k is an interval kind.
func IsInterval(k types.Kind) bool {
	return k == types.IntervalYearMonth || k == types.IntervalDayTime
}

// CalciteFamily names t's type family as Calcite prints it in "No match
// found for function signature F(<NUMERIC>, <CHARACTER>)": the SqlTypeFamily
// of a simple type, the type itself for collections and rows.
func CalciteFamily(t *types.Type) string {
	switch k := t.Kind; {
	case k.IsNumeric():
		return "NUMERIC"
	case k.IsCharacterString():
		return "CHARACTER"
	case k == types.Binary || k == types.VarBinary:
		return "BINARY"
	case k == types.Boolean:
		return "BOOLEAN"
	case k == types.Date:
		return "DATE"
	case k == types.Time:
		return "TIME"
	case k == types.Timestamp || k == types.TimestampLTZ || k == types.TimestampTZ:
		return "TIMESTAMP"
	case k == types.IntervalYearMonth:
		return "INTERVAL_YEAR_MONTH"
	case k == types.IntervalDayTime:
		return "INTERVAL_DAY_TIME"
	case k == types.Null:
		return "NULL"
	case k == types.Raw:
		return "ANY"
	}
	return CalciteTypeString(t)
}

// CalciteTypeString prints t the way Calcite's RelDataType.toString does in
// validation messages ("INTEGER", "CHAR(3)", "DECIMAL(4, 3)",
// "TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)", "INTEGER ARRAY"): no nullability, no
// time attribute.
func CalciteTypeString(t *types.Type) string {
	switch t.Kind {
	case types.Int:
		return "INTEGER"
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		return fmt.Sprintf("%s(%d)", t.Kind, t.Length)
	case types.Decimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Prec, t.Scale)
	case types.Time, types.Timestamp:
		return fmt.Sprintf("%s(%d)", t.Kind, t.Prec)
	case types.TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)", t.Prec)
	case types.TimestampTZ:
		return fmt.Sprintf("TIMESTAMP_WITH_TIME_ZONE(%d)", t.Prec)
	case types.IntervalYearMonth:
		return "INTERVAL MONTH"
	case types.IntervalDayTime:
		return "INTERVAL SECOND"
	case types.Array, types.Multiset:
		return CalciteTypeString(t.Elem) + " " + t.Kind.String()
	case types.Map:
		return "(" + CalciteTypeString(t.Elem) + ", " + CalciteTypeString(t.Val) + ") MAP"
	case types.Row:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = CalciteTypeString(f.Type) + " " + f.Name
		}
		return "RecordType(" + strings.Join(parts, ", ") + ")"
	case types.Raw:
		return "ANY"
	}
	return t.Kind.String()
}
