package validate

import "eddy/engine/types"

// implicitCast reports whether a value of type from may be written into a
// column of type to without an explicit CAST: Flink's implicit casts
// (LogicalTypeCasts), which an INSERT's query must keep to. Nullability
// does not matter (a NULL in a NOT NULL column is the sink's runtime
// check); NULL goes anywhere; numbers widen (any number into DECIMAL and
// DOUBLE, exact numbers and DECIMAL into FLOAT), strings and binary
// strings go into any length of their family, a TIMESTAMP into DATE and
// TIME, TIMESTAMP and TIMESTAMP_LTZ into each other; constructed types
// when their parts do.
func implicitCast(from, to *types.Type) bool {
	if from.Kind == types.Null {
		return true
	}
	f, t := from.Kind, to.Kind
	switch t {
	case types.TinyInt:
		return f == types.TinyInt
	case types.SmallInt:
		return f == types.TinyInt || f == types.SmallInt
	case types.Int:
		return f == types.TinyInt || f == types.SmallInt || f == types.Int
	case types.BigInt:
		return f == types.TinyInt || f == types.SmallInt || f == types.Int || f == types.BigInt
	case types.Float:
		return isExactNumeric(f) || f == types.Float
	case types.Decimal, types.Double:
		return isExactNumeric(f) || f == types.Float || f == types.Double
	case types.Char, types.VarChar:
		return f == types.Char || f == types.VarChar
	case types.Binary, types.VarBinary:
		return f == types.Binary || f == types.VarBinary
	case types.Date:
		return f == types.Date || f == types.Timestamp
	case types.Time:
		return f == types.Time || f == types.Timestamp
	case types.Timestamp, types.TimestampLTZ:
		return f == types.Timestamp || f == types.TimestampLTZ
	case types.Array, types.Multiset:
		return f == t && implicitCast(from.Elem, to.Elem)
	case types.Map:
		return f == t && implicitCast(from.Elem, to.Elem) && implicitCast(from.Val, to.Val)
	case types.Row:
		if f != t || len(from.Fields) != len(to.Fields) {
			return false
		}
		for i := range from.Fields {
			if !implicitCast(from.Fields[i].Type, to.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	a, b := *from, *to
	a.NotNull, b.NotNull = false, false
	return a.Equal(&b)
}

func isExactNumeric(k types.Kind) bool {
	return k == types.TinyInt || k == types.SmallInt || k == types.Int || k == types.BigInt || k == types.Decimal
}
