package jdbc

import (
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"eddy/engine/types"
)

// PostgreSQL type OIDs read as raw text rather than decoded.
const (
	oidJSON  = 114
	oidJSONB = 3802
)

// rawText returns the text of a json or jsonb value as the server sent it
// (binary jsonb starts with a version byte).
func rawText(fd pgconn.FieldDescription, raw []byte) string {
	if fd.DataTypeOID == oidJSONB && fd.Format == pgtype.BinaryFormatCode && len(raw) > 0 {
		return string(raw[1:])
	}
	return string(raw)
}

// toEngine converts a value pgx decoded into the engine value of type t
// (Flink's PostgresDialectConverter).
func toEngine(v any, t *types.Type) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Kind {
	case types.Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		if n, ok := types.AsInt64(v); ok {
			return types.IntegerValue(t.Kind, n), nil
		}
		if n, ok := v.(pgtype.Numeric); ok {
			i, err := n.Int64Value()
			if err == nil && i.Valid {
				return types.IntegerValue(t.Kind, i.Int64), nil
			}
		}
	case types.Float:
		switch f := v.(type) {
		case float32:
			return f, nil
		case float64:
			return float32(f), nil
		}
	case types.Double:
		switch f := v.(type) {
		case float32:
			return float64(f), nil
		case float64:
			return f, nil
		}
	case types.Decimal:
		d, err := decimalOf(v)
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		return types.RoundDecimal(d, t.Prec, t.Scale), nil
	case types.Char, types.VarChar:
		switch s := v.(type) {
		case string:
			return s, nil
		case [16]byte:
			return fmt.Sprintf("%x-%x-%x-%x-%x", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16]), nil
		case []byte:
			return string(s), nil
		case pgtype.Numeric:
			d, err := decimalOf(s)
			if err == nil && d != nil {
				return types.DecimalText(d), nil
			}
		}
		return fmt.Sprint(v), nil
	case types.Binary, types.VarBinary:
		if b, ok := v.([]byte); ok {
			return b, nil
		}
	case types.Date:
		if tm, ok := v.(time.Time); ok {
			return types.DateOf(time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)), nil
		}
	case types.Time:
		if tm, ok := v.(pgtype.Time); ok {
			return truncDuration(time.Duration(tm.Microseconds)*time.Microsecond, t.Prec), nil
		}
	case types.Timestamp:
		if tm, ok := v.(time.Time); ok {
			wall := time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
			return types.TruncateTime(wall, t.Prec), nil
		}
	case types.TimestampLTZ:
		if tm, ok := v.(time.Time); ok {
			return types.TruncateTime(tm.UTC(), t.Prec), nil
		}
	case types.Array:
		if xs, ok := v.([]any); ok {
			out := make([]any, len(xs))
			for i, x := range xs {
				e, err := toEngine(x, t.Elem)
				if err != nil {
					return nil, err
				}
				out[i] = e
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("cannot read a %T value as %s", v, t)
}

func truncDuration(d time.Duration, p int) time.Duration {
	unit := time.Duration(1)
	for i := p; i < 9; i++ {
		unit *= 10
	}
	return d - d%unit
}

// decimalOf converts a numeric value to a decimal (nil for NaN and
// infinities, which no DECIMAL holds).
func decimalOf(v any) (*decimal.Decimal, error) {
	switch n := v.(type) {
	case pgtype.Numeric:
		if !n.Valid || n.NaN || n.InfinityModifier != pgtype.Finite || n.Int == nil {
			return nil, nil
		}
		return types.DecimalValueBig(n.Int, n.Exp), nil
	case float64:
		return types.ParseDecimal(strconv.FormatFloat(n, 'g', -1, 64))
	case float32:
		return types.ParseDecimal(strconv.FormatFloat(float64(n), 'g', -1, 64))
	}
	if i, ok := types.AsInt64(v); ok {
		return types.DecimalValue(i, 0), nil
	}
	return nil, fmt.Errorf("cannot read a %T value as DECIMAL", v)
}

// toParam converts an engine value of type t into a value pgx encodes
// for the column.
func toParam(v any, t *types.Type) any {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case types.TinyInt:
		if n, ok := types.AsInt64(v); ok {
			return int16(n)
		}
	case types.Decimal:
		if d, ok := v.(*decimal.Decimal); ok {
			return pgtype.Numeric{Int: d.Coefficient(), Exp: d.Exponent(), Valid: true}
		}
	case types.Date:
		if n, ok := types.AsInt64(v); ok {
			return pgtype.Date{Time: types.DateTime(int32(n)), Valid: true}
		}
	case types.Time:
		if d, ok := v.(time.Duration); ok {
			return pgtype.Time{Microseconds: int64(d / time.Microsecond), Valid: true}
		}
	case types.Timestamp:
		if tm, ok := v.(time.Time); ok {
			return pgtype.Timestamp{Time: tm, Valid: true}
		}
	case types.TimestampLTZ:
		if tm, ok := v.(time.Time); ok {
			return pgtype.Timestamptz{Time: tm, Valid: true}
		}
	case types.Array:
		if xs, ok := v.([]any); ok {
			out := make([]any, len(xs))
			for i, x := range xs {
				out[i] = toParam(x, t.Elem)
			}
			return out
		}
	}
	return v
}
