package functions

import (
	"eddy/engine/types"
)

// AnyNullable reports whether any of the types admits NULL.
func AnyNullable(ts ...*types.Type) bool {
	for _, t := range ts {
		if t.Nullable() {
			return true
		}
	}
	return false
}

// Plain returns t without a time attribute: any expression computed from a
// time attribute is a regular timestamp (Flink materializes it).
func Plain(t *types.Type) *types.Type {
	if t.TimeAttr == types.Regular {
		return t
	}
	return t.WithTimeAttr(types.Regular)
}

// integerRank orders the exact integer kinds by width.
func integerRank(k types.Kind) int {
	switch k {
	case types.TinyInt:
		return 1
	case types.SmallInt:
		return 2
	case types.Int:
		return 3
	case types.BigInt:
		return 4
	}
	return 0
}

// AsDecimal returns the DECIMAL that holds every value of an exact numeric
// type: TINYINT is DECIMAL(3, 0), SMALLINT (5, 0), INT (10, 0), BIGINT
// (19, 0) (Flink's LogicalTypeMerging).
func AsDecimal(t *types.Type) (p, s int) {
	switch t.Kind {
	case types.TinyInt:
		return 3, 0
	case types.SmallInt:
		return 5, 0
	case types.Int:
		return 10, 0
	case types.BigInt:
		return 19, 0
	case types.Decimal:
		return t.Prec, t.Scale
	}
	return types.MaxDecimalPrecision, 0
}

// adjustDecimal bounds a derived precision at 38; the scale then shrinks to
// keep the integer digits, but keeps at least min(s, 6) digits
// (LogicalTypeMerging.adjustPrecisionScale).
func adjustDecimal(p, s int) *types.Type {
	if p <= types.MaxDecimalPrecision {
		return types.NewDecimal(p, s)
	}
	digits := p - s
	s = max(types.MaxDecimalPrecision-digits, min(s, 6))
	return types.NewDecimal(types.MaxDecimalPrecision, s)
}

// DecimalArithmetic returns the result type of a DECIMAL operation (op is
// + - * / or %), following LogicalTypeMerging ("adopted from SQL Server").
func DecimalArithmetic(op string, p1, s1, p2, s2 int) *types.Type {
	switch op {
	case "+", "-":
		s := max(s1, s2)
		return adjustDecimal(max(p1-s1, p2-s2)+s+1, s)
	case "*":
		return adjustDecimal(p1+p2+1, s1+s2)
	case "/":
		s := max(6, s1+p2+1)
		return adjustDecimal(p1-s1+s2+s, s)
	case "%":
		s := max(s1, s2)
		return adjustDecimal(min(p1-s1, p2-s2)+s, s)
	}
	return types.NewDecimal(p1, s1)
}

// RoundDecimal returns the type of ROUND(DECIMAL(p, s), r)
// (LogicalTypeMerging.findRoundDecimalType).
func RoundDecimal(p, s, r int) *types.Type {
	switch {
	case r >= s:
		return types.NewDecimal(p, s)
	case r < 0:
		return types.NewDecimal(min(types.MaxDecimalPrecision, 1+p-s), 0)
	}
	return types.NewDecimal(1+p-s+r, r)
}

// NumericArithmetic returns the type of l op r for numeric operands (op is
// + - * / or %), or false when an operand is not numeric. Exact operands
// widen (INT / INT is INT); DECIMAL follows DecimalArithmetic; an
// approximate operand makes the result approximate, DOUBLE when a DECIMAL
// or DOUBLE is involved. % takes the type of the divisor, as Calcite's MOD.
func NumericArithmetic(op string, l, r *types.Type) (*types.Type, bool) {
	lk, rk := l.Kind, r.Kind
	if lk == types.Null {
		lk = rk
	}
	if rk == types.Null {
		rk = lk
	}
	if !lk.IsNumeric() || !rk.IsNumeric() {
		return nil, false
	}
	nullable := AnyNullable(l, r)
	var out *types.Type
	switch {
	case lk == types.Double || rk == types.Double:
		out = types.New(types.Double)
	case lk == types.Float || rk == types.Float:
		if lk == types.Decimal || rk == types.Decimal {
			out = types.New(types.Double)
		} else {
			out = types.New(types.Float)
		}
	case lk == types.Decimal || rk == types.Decimal:
		lt, rt := l, r
		if l.Kind == types.Null {
			lt = r
		}
		if r.Kind == types.Null {
			rt = l
		}
		p1, s1 := AsDecimal(lt)
		p2, s2 := AsDecimal(rt)
		out = DecimalArithmetic(op, p1, s1, p2, s2)
	case op == "%":
		out = types.New(rk)
	default:
		k := lk
		if integerRank(rk) > integerRank(lk) {
			k = rk
		}
		out = types.New(k)
	}
	return out.WithNullable(nullable), true
}

// CommonType returns the type that values of all the given types convert to
// without loss, as LogicalTypeMerging.findCommonType finds it for CASE,
// COALESCE, IF, IN lists, VALUES and UNION: NULL-typed inputs are ignored;
// character strings merge to the longest, VARCHAR unless all are CHAR of one
// length; numbers widen; timestamps take the larger precision; ARRAY, MAP
// and ROW merge element by element. The result is nullable when any input
// is. It reports false when there is no common type.
func CommonType(ts ...*types.Type) (*types.Type, bool) {
	var nonNull []*types.Type
	nullable := false
	for _, t := range ts {
		if t.Nullable() {
			nullable = true
		}
		if t.Kind != types.Null {
			nonNull = append(nonNull, Plain(t))
		}
	}
	if len(nonNull) == 0 {
		if len(ts) == 0 {
			return nil, false
		}
		return types.New(types.Null), true
	}
	out, ok := commonOf(nonNull)
	if !ok {
		return nil, false
	}
	return out.WithNullable(nullable), true
}

func commonOf(ts []*types.Type) (*types.Type, bool) {
	first := ts[0]
	all := func(pred func(types.Kind) bool) bool {
		for _, t := range ts {
			if !pred(t.Kind) {
				return false
			}
		}
		return true
	}
	switch {
	case all(types.Kind.IsCharacterString), all(func(k types.Kind) bool { return k == types.Binary || k == types.VarBinary }):
		fixed, sameLen, n := true, true, 0
		for _, t := range ts {
			if t.Kind == types.VarChar || t.Kind == types.VarBinary {
				fixed = false
			}
			if t.Length != first.Length {
				sameLen = false
			}
			n = max(n, t.Length)
		}
		binary := first.Kind == types.Binary || first.Kind == types.VarBinary
		switch {
		case fixed && sameLen && binary:
			return types.NewBinary(n), true
		case fixed && sameLen:
			return types.NewChar(n), true
		case binary:
			return types.NewVarBinary(n), true
		}
		return types.NewVarChar(n), true
	case all(types.Kind.IsNumeric):
		out := first
		for _, t := range ts[1:] {
			out = widerNumber(out, t)
		}
		return out.WithNullable(true), true
	case all(func(k types.Kind) bool { return k == types.Boolean }):
		return types.New(types.Boolean), true
	case all(func(k types.Kind) bool { return k == types.Variant }):
		return types.New(types.Variant), true
	case all(func(k types.Kind) bool { return k == types.Date }):
		return types.New(types.Date), true
	case all(func(k types.Kind) bool { return k == types.Time }):
		p := 0
		for _, t := range ts {
			p = max(p, t.Prec)
		}
		return types.NewTime(p), true
	case all(func(k types.Kind) bool { return k == types.Date || k == types.Timestamp || k == types.TimestampLTZ }):
		p, ltz, ts0 := 0, false, false
		for _, t := range ts {
			switch t.Kind {
			case types.TimestampLTZ:
				ltz = true
				p = max(p, t.Prec)
			case types.Timestamp:
				ts0 = true
				p = max(p, t.Prec)
			}
		}
		switch {
		case ltz:
			return types.NewTimestampLTZ(p), true
		case ts0:
			return types.NewTimestamp(p), true
		}
		return types.New(types.Date), true
	case all(func(k types.Kind) bool { return k == types.IntervalYearMonth }),
		all(func(k types.Kind) bool { return k == types.IntervalDayTime }):
		return first.WithNullable(true), true
	case all(func(k types.Kind) bool { return k == types.Array }), all(func(k types.Kind) bool { return k == types.Multiset }):
		elems := make([]*types.Type, len(ts))
		for i, t := range ts {
			elems[i] = t.Elem
		}
		e, ok := CommonType(elems...)
		if !ok {
			return nil, false
		}
		if first.Kind == types.Multiset {
			return types.NewMultiset(e), true
		}
		return types.NewArray(e), true
	case all(func(k types.Kind) bool { return k == types.Map }):
		keys := make([]*types.Type, len(ts))
		vals := make([]*types.Type, len(ts))
		for i, t := range ts {
			keys[i], vals[i] = t.Elem, t.Val
		}
		k, ok1 := CommonType(keys...)
		v, ok2 := CommonType(vals...)
		if !ok1 || !ok2 {
			return nil, false
		}
		return types.NewMap(k, v), true
	case all(func(k types.Kind) bool { return k == types.Row }):
		fields := make([]types.Field, len(first.Fields))
		for i, f := range first.Fields {
			col := make([]*types.Type, len(ts))
			for j, t := range ts {
				if len(t.Fields) != len(first.Fields) {
					return nil, false
				}
				col[j] = t.Fields[i].Type
			}
			ft, ok := CommonType(col...)
			if !ok {
				return nil, false
			}
			fields[i] = types.Field{Name: f.Name, Type: ft}
		}
		return types.NewRow(fields...), true
	}
	return nil, false
}

// widerNumber merges two numeric types for CommonType.
func widerNumber(a, b *types.Type) *types.Type {
	ak, bk := a.Kind, b.Kind
	switch {
	case ak == types.Double || bk == types.Double:
		return types.New(types.Double)
	case ak == types.Float || bk == types.Float:
		if ak == types.Decimal || bk == types.Decimal {
			return types.New(types.Double)
		}
		return types.New(types.Float)
	case ak == types.Decimal || bk == types.Decimal:
		p1, s1 := AsDecimal(a)
		p2, s2 := AsDecimal(b)
		s := max(s1, s2)
		digits := max(p1-s1, p2-s2)
		return types.NewDecimal(min(digits+s, types.MaxDecimalPrecision), s)
	case integerRank(bk) > integerRank(ak):
		return types.New(bk)
	}
	return types.New(ak)
}

// CanCompare reports whether Calcite lets values of the two types meet in a
// comparison with implicit coercion disabled (SqlTypeUtil.isComparable): the
// same family, NULL with anything, and a character string with a number,
// BOOLEAN, date, time, timestamp or interval. Rows compare field by field.
func CanCompare(a, b *types.Type) bool {
	if (a.Kind == types.Row) != (b.Kind == types.Row) {
		return a.Kind == types.Null || b.Kind == types.Null
	}
	if a.Kind == types.Row {
		if len(a.Fields) != len(b.Fields) {
			return false
		}
		for i := range a.Fields {
			if !CanCompare(a.Fields[i].Type, b.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	fa, fb := CalciteFamily(a), CalciteFamily(b)
	if fa == fb || fa == "NULL" || fb == "NULL" || fa == "ANY" || fb == "ANY" {
		return true
	}
	stringCompare := func(f string) bool {
		switch f {
		case "DATE", "TIME", "TIMESTAMP", "INTERVAL_DAY_TIME", "INTERVAL_YEAR_MONTH", "NUMERIC", "BOOLEAN":
			return true
		}
		return false
	}
	return fa == "CHARACTER" && stringCompare(fb) || fb == "CHARACTER" && stringCompare(fa)
}

// CanCast reports whether CAST(from AS to) is valid, following Flink's
// LogicalTypeCasts.supportsExplicitCast: every predefined type and every
// collection converts to a character string; strings convert to every
// predefined type; numbers convert among themselves and to and from BOOLEAN
// and TIMESTAMP_LTZ, but never to or from TIMESTAMP; exact numbers convert
// to and from single-field intervals; collections convert only to the same
// kind, element by element.
func CanCast(from, to *types.Type) bool {
	f, t := from.Kind, to.Kind
	if f == types.Null {
		return true
	}
	if f == types.Variant || t == types.Variant {
		// A VARIANT converts to nothing else (see CanCastExplicit).
		return f == t
	}
	if f == t && !isConstructed(f) {
		return true
	}
	if isConstructed(f) || isConstructed(t) {
		if t.IsCharacterString() {
			return true
		}
		if f != t {
			return false
		}
		switch f {
		case types.Array, types.Multiset:
			return CanCast(from.Elem, to.Elem)
		case types.Map:
			return CanCast(from.Elem, to.Elem) && CanCast(from.Val, to.Val)
		case types.Row:
			if len(from.Fields) != len(to.Fields) {
				return false
			}
			for i := range from.Fields {
				if !CanCast(from.Fields[i].Type, to.Fields[i].Type) {
					return false
				}
			}
			return true
		}
		return false
	}
	if f == types.Raw || t == types.Raw {
		return false
	}
	switch {
	case t.IsCharacterString():
		return true
	case f.IsCharacterString():
		return t != types.TimestampTZ
	}
	isBin := func(k types.Kind) bool { return k == types.Binary || k == types.VarBinary }
	switch {
	case isBin(t):
		return isBin(f)
	case t == types.Boolean:
		return f.IsNumeric()
	case t.IsNumeric():
		return f.IsNumeric() || f == types.Boolean || f == types.TimestampLTZ ||
			IsInterval(f) && IsInteger(t) && singleField(from)
	case t == types.Date:
		return f == types.Timestamp || f == types.TimestampLTZ
	case t == types.Time:
		return f == types.Timestamp || f == types.TimestampLTZ
	case t == types.Timestamp:
		return IsDatetime(f)
	case t == types.TimestampLTZ:
		return IsDatetime(f) || f.IsNumeric()
	case IsInterval(t):
		return IsInteger(f) && singleField(to)
	}
	return false
}

// CanCastExplicit reports whether CAST(from AS to) is valid as written in a
// query: CanCast, except that Flink 2.2 has no cast rule for VARIANT at
// all, not even to VARIANT (only an untyped NULL becomes one).
func CanCastExplicit(from, to *types.Type) bool {
	if from.Kind == types.Variant || to.Kind == types.Variant && from.Kind != types.Null {
		return false
	}
	return CanCast(from, to)
}

func isConstructed(k types.Kind) bool {
	return k == types.Array || k == types.Map || k == types.Multiset || k == types.Row
}

// singleField reports whether an interval type has one field (YEAR, MONTH,
// DAY, HOUR, MINUTE or SECOND).
func singleField(t *types.Type) bool {
	switch t.Res {
	case types.ResYear, types.ResMonth, types.ResDay, types.ResHour, types.ResMinute, types.ResSecond:
		return true
	}
	return false
}
