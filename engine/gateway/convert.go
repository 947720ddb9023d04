package gateway

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"eddy/engine/types"
)

// logicalType is Flink's JSON form of a logical type, as the gateway's
// LogicalTypeJsonSerializer writes it in a result's column list.
type logicalType struct {
	Type                string         `json:"type"`
	Nullable            *bool          `json:"nullable"`
	Length              *int           `json:"length"`
	Precision           *int           `json:"precision"`
	Scale               *int           `json:"scale"`
	Resolution          string         `json:"resolution"`
	FractionalPrecision *int           `json:"fractionalPrecision"`
	ElementType         *logicalType   `json:"elementType"`
	KeyType             *logicalType   `json:"keyType"`
	ValueType           *logicalType   `json:"valueType"`
	Fields              []logicalField `json:"fields"`
	Class               string         `json:"class"`
	Serializer          string         `json:"specialSerializer"`
	Kind                string         `json:"kind"` // time attribute of a TIMESTAMP: REGULAR, ROWTIME, PROCTIME
}

type logicalField struct {
	Name        string       `json:"name"`
	FieldType   *logicalType `json:"fieldType"`
	Description string       `json:"description"`
}

// intervalResolution maps Flink's YearMonthResolution and DayTimeResolution
// names to eddy's.
func intervalResolution(name string) (types.IntervalRes, bool) {
	switch name {
	case "YEAR":
		return types.ResYear, true
	case "YEAR_TO_MONTH":
		return types.ResYearToMonth, true
	case "MONTH":
		return types.ResMonth, true
	case "DAY":
		return types.ResDay, true
	case "DAY_TO_HOUR":
		return types.ResDayToHour, true
	case "DAY_TO_MINUTE":
		return types.ResDayToMinute, true
	case "DAY_TO_SECOND":
		return types.ResDayToSecond, true
	case "HOUR":
		return types.ResHour, true
	case "HOUR_TO_MINUTE":
		return types.ResHourToMinute, true
	case "HOUR_TO_SECOND":
		return types.ResHourToSecond, true
	case "MINUTE":
		return types.ResMinute, true
	case "MINUTE_TO_SECOND":
		return types.ResMinuteToSecond, true
	case "SECOND":
		return types.ResSecond, true
	}
	return 0, false
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// toType converts a Flink JSON logical type. A type eddy has no kind for
// (STRUCTURED_TYPE, SYMBOL...) becomes STRING: its values are kept as the
// JSON text the gateway sent. VARIANT stays STRING too: Flink 2.2's
// gateway cannot write a VARIANT column at all (its LogicalTypeJsonSerializer
// has no form for it, and fetching such a result fails with "Could not map
// response to JSON"), so there is no payload whose encoding eddy could
// read back into a VARIANT value (key dictionary and number kinds) yet.
func (lt *logicalType) toType() (*types.Type, error) {
	if lt == nil {
		return nil, fmt.Errorf("missing logical type")
	}
	var t *types.Type
	switch lt.Type {
	case "CHAR":
		t = types.NewChar(intOr(lt.Length, 1))
	case "VARCHAR":
		t = types.NewVarChar(intOr(lt.Length, types.MaxLength))
	case "BOOLEAN":
		t = types.New(types.Boolean)
	case "BINARY":
		t = types.NewBinary(intOr(lt.Length, 1))
	case "VARBINARY":
		t = types.NewVarBinary(intOr(lt.Length, types.MaxLength))
	case "DECIMAL":
		t = types.NewDecimal(intOr(lt.Precision, types.DefaultDecimalPrec), intOr(lt.Scale, 0))
	case "TINYINT":
		t = types.New(types.TinyInt)
	case "SMALLINT":
		t = types.New(types.SmallInt)
	case "INTEGER":
		t = types.New(types.Int)
	case "BIGINT":
		t = types.New(types.BigInt)
	case "FLOAT":
		t = types.New(types.Float)
	case "DOUBLE":
		t = types.New(types.Double)
	case "DATE":
		t = types.New(types.Date)
	case "TIME_WITHOUT_TIME_ZONE":
		t = types.NewTime(intOr(lt.Precision, types.DefaultTimeP))
	case "TIMESTAMP_WITHOUT_TIME_ZONE":
		t = types.NewTimestamp(intOr(lt.Precision, types.DefaultTimestampP))
	case "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
		t = types.NewTimestampLTZ(intOr(lt.Precision, types.DefaultTimestampP))
	case "TIMESTAMP_WITH_TIME_ZONE":
		t = &types.Type{Kind: types.TimestampTZ, Prec: intOr(lt.Precision, types.DefaultTimestampP)}
	case "INTERVAL_YEAR_MONTH", "INTERVAL_DAY_TIME":
		res, ok := intervalResolution(lt.Resolution)
		if !ok {
			return nil, fmt.Errorf("unknown interval resolution %q", lt.Resolution)
		}
		kind := types.IntervalYearMonth
		if lt.Type == "INTERVAL_DAY_TIME" {
			kind = types.IntervalDayTime
		}
		t = &types.Type{Kind: kind, Res: res, Prec: intOr(lt.Precision, types.DefaultYearP),
			Scale: intOr(lt.FractionalPrecision, types.DefaultFractionalP)}
	case "ARRAY", "MULTISET":
		elem, err := lt.ElementType.toType()
		if err != nil {
			return nil, fmt.Errorf("%s element: %w", lt.Type, err)
		}
		if lt.Type == "ARRAY" {
			t = types.NewArray(elem)
		} else {
			t = types.NewMultiset(elem)
		}
	case "MAP":
		k, err := lt.KeyType.toType()
		if err != nil {
			return nil, fmt.Errorf("MAP key: %w", err)
		}
		v, err := lt.ValueType.toType()
		if err != nil {
			return nil, fmt.Errorf("MAP value: %w", err)
		}
		t = types.NewMap(k, v)
	case "ROW":
		fields := make([]types.Field, len(lt.Fields))
		for i, f := range lt.Fields {
			ft, err := f.FieldType.toType()
			if err != nil {
				return nil, fmt.Errorf("ROW field %s: %w", f.Name, err)
			}
			fields[i] = types.Field{Name: f.Name, Type: ft, Description: f.Description}
		}
		t = types.NewRow(fields...)
	case "RAW":
		t = &types.Type{Kind: types.Raw, RawClass: lt.Class, RawSnap: lt.Serializer}
	case "NULL":
		return types.New(types.Null), nil
	case "":
		return nil, fmt.Errorf("logical type without a type root")
	default:
		t = types.NewString()
	}
	switch lt.Kind {
	case "ROWTIME":
		t = t.WithTimeAttr(types.Rowtime)
	case "PROCTIME":
		t = t.WithTimeAttr(types.Proctime)
	}
	if lt.Nullable != nil && !*lt.Nullable {
		t = t.WithNullable(false)
	}
	return t, nil
}

// decodeJSON decodes with numbers kept as json.Number, so that DECIMAL
// and BIGINT values lose no digits.
func decodeJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// convertValue turns one field of a rowFormat=JSON row into eddy's Go value
// of type t (see package types): Flink's JSON format writes numbers as
// numbers, BINARY as base64, DATE/TIME/TIMESTAMP as ISO-8601 text,
// TIMESTAMP_LTZ as an instant ending in Z, intervals as a count of months or
// milliseconds, ARRAY as a list, MAP and ROW as objects (a ROW keyed by field
// name), MULTISET as an object from element to count. The gateway writes
// a TIMESTAMP_LTZ as its wall-clock reading in the session's time zone
// followed by a Z, so the reading is taken in loc (table.local-time-zone).
func convertValue(t *types.Type, v any, loc *time.Location) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return jsonText(v), nil
	case types.Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case types.Binary, types.VarBinary:
		if s, ok := v.(string); ok {
			return base64.StdEncoding.DecodeString(s)
		}
	case types.Decimal:
		if s, ok := numberText(v); ok {
			d, err := types.ParseDecimal(s)
			if err != nil {
				return nil, err
			}
			// The JSON number drops trailing zeros (1.50 arrives as 1.5);
			// DECIMAL(p, s) values carry exactly s fraction digits.
			if r := types.RoundDecimal(d, t.Prec, t.Scale); r != nil {
				return r, nil
			}
			return d, nil
		}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.IntervalYearMonth, types.IntervalDayTime:
		if s, ok := numberText(v); ok {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, err
			}
			if t.Kind == types.IntervalDayTime {
				return n, nil
			}
			return types.IntegerValue(t.Kind, n), nil
		}
	case types.Float, types.Double:
		f, ok := floatOf(v)
		if !ok {
			break
		}
		if t.Kind == types.Float {
			return float32(f), nil
		}
		return f, nil
	case types.Date:
		if s, ok := v.(string); ok {
			return types.ParseDate(s)
		}
	case types.Time:
		if s, ok := v.(string); ok {
			return types.ParseTime(s)
		}
	case types.Timestamp:
		if s, ok := v.(string); ok {
			return types.ParseTimestamp(s)
		}
	case types.TimestampLTZ:
		if s, ok := v.(string); ok {
			ts, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				return nil, err
			}
			if loc == nil {
				loc = time.UTC
			}
			wall := time.Date(ts.Year(), ts.Month(), ts.Day(), ts.Hour(), ts.Minute(), ts.Second(), ts.Nanosecond(), loc)
			return wall.UTC(), nil
		}
	case types.Array:
		if xs, ok := v.([]any); ok {
			out := make([]any, len(xs))
			for i, x := range xs {
				c, err := convertValue(t.Elem, x, loc)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
	case types.Multiset:
		if m, ok := v.(map[string]any); ok {
			var out []any
			for k, n := range m {
				e, err := convertKey(t.Elem, k, loc)
				if err != nil {
					return nil, err
				}
				count, ok := numberText(n)
				if !ok {
					return nil, fmt.Errorf("MULTISET count %v", n)
				}
				c, err := strconv.Atoi(count)
				if err != nil {
					return nil, err
				}
				for range c {
					out = append(out, e)
				}
			}
			return out, nil
		}
	case types.Map:
		if m, ok := v.(map[string]any); ok {
			out := make(map[any]any, len(m))
			for k, x := range m {
				ck, err := convertKey(t.Elem, k, loc)
				if err != nil {
					return nil, err
				}
				cv, err := convertValue(t.Val, x, loc)
				if err != nil {
					return nil, err
				}
				out[ck] = cv
			}
			return out, nil
		}
	case types.Row:
		switch x := v.(type) {
		case map[string]any:
			out := make([]any, len(t.Fields))
			for i, f := range t.Fields {
				c, err := convertValue(f.Type, x[f.Name], loc)
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", f.Name, err)
				}
				out[i] = c
			}
			return out, nil
		case []any:
			if len(x) == len(t.Fields) {
				out := make([]any, len(x))
				for i, e := range x {
					c, err := convertValue(t.Fields[i].Type, e, loc)
					if err != nil {
						return nil, err
					}
					out[i] = c
				}
				return out, nil
			}
		}
	case types.Null:
		return nil, nil
	default:
		// TIMESTAMP WITH TIME ZONE, RAW and types eddy has no kind for:
		// the text Flink sent.
		if s, ok := v.(string); ok {
			return s, nil
		}
		return jsonText(v), nil
	}
	return nil, fmt.Errorf("cannot read %s from JSON %s", t, jsonText(v))
}

// convertKey reads a MAP key or MULTISET element, which JSON writes as an
// object key: the string itself, or the JSON text of a non-string value.
func convertKey(t *types.Type, k string, loc *time.Location) (any, error) {
	if t.Kind == types.Char || t.Kind == types.VarChar {
		return k, nil
	}
	if k == "null" {
		return nil, nil
	}
	var v any
	if err := decodeJSON([]byte(k), &v); err != nil {
		v = k // a date or a timestamp key: its text
	}
	return convertValue(t, v, loc)
}

func numberText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return x.String(), true
	case string:
		return x, true
	}
	return "", false
}

// floatOf reads a FLOAT or DOUBLE: a number, or the strings Java writes for
// the values JSON has no number for.
func floatOf(v any) (float64, bool) {
	s, ok := numberText(v)
	if !ok {
		return 0, false
	}
	switch s {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// rowKindOf maps Flink's RowKind names to eddy's.
func rowKindOf(name string) (types.RowKind, bool) {
	switch name {
	case "INSERT":
		return types.Insert, true
	case "UPDATE_BEFORE":
		return types.UpdateBefore, true
	case "UPDATE_AFTER":
		return types.UpdateAfter, true
	case "DELETE":
		return types.Delete, true
	}
	return 0, false
}
