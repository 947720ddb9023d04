package iceberg

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/shopspring/decimal"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// checkFlat refuses column types whose values eddy does not yet move to
// and from Arrow (ARRAY, MAP, MULTISET, ROW, RAW).
func checkFlat(name string, t *types.Type) error {
	switch vector.ClassOf(t) {
	case vector.Any:
		return fmt.Errorf("column %s of type %s: eddy reads and writes Iceberg columns of atomic types only", name, t)
	}
	return nil
}

// fromArrow appends the values of an Arrow column to a vector of type t.
func fromArrow(dst *vector.Vec, col arrow.Array) error {
	n := col.Len()
	for i := 0; i < n; i++ {
		if col.IsNull(i) {
			dst.AppendNull()
			continue
		}
		switch a := col.(type) {
		case *array.Boolean:
			dst.Append(a.Value(i))
		case *array.Int32:
			dst.Append(int64(a.Value(i)))
		case *array.Int64:
			dst.Append(a.Value(i))
		case *array.Float32:
			dst.Append(float64(a.Value(i)))
		case *array.Float64:
			dst.Append(a.Value(i))
		case *array.String:
			dst.Append(a.Value(i))
		case *array.LargeString:
			dst.Append(a.Value(i))
		case *array.Binary:
			dst.Append(append([]byte(nil), a.Value(i)...))
		case *array.LargeBinary:
			dst.Append(append([]byte(nil), a.Value(i)...))
		case *array.FixedSizeBinary:
			dst.Append(append([]byte(nil), a.Value(i)...))
		case *array.Date32:
			dst.Append(int64(a.Value(i)))
		case *array.Time64:
			unit := a.DataType().(*arrow.Time64Type).Unit
			dst.Append(time.Duration(int64(a.Value(i)) * int64(unit.Multiplier())))
		case *array.Timestamp:
			unit := a.DataType().(*arrow.TimestampType).Unit
			dst.Append(a.Value(i).ToTime(unit).UTC())
		case *array.Decimal128:
			scale := a.DataType().(*arrow.Decimal128Type).Scale
			b := a.Value(i).BigInt()
			dst.Append(types.DecimalValueBig(b, -scale))
		default:
			return fmt.Errorf("Arrow type %s is not read by eddy", col.DataType())
		}
	}
	return nil
}

// appendArrow appends engine value v (non-NULL) of type t to an Arrow
// builder of the table's Arrow schema.
func appendArrow(b array.Builder, t *types.Type, v any) error {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	case *array.Int32Builder:
		n, _ := types.AsInt64(v)
		b.Append(int32(n))
	case *array.Int64Builder:
		n, _ := types.AsInt64(v)
		b.Append(n)
	case *array.Float32Builder:
		switch f := v.(type) {
		case float32:
			b.Append(f)
		case float64:
			b.Append(float32(f))
		}
	case *array.Float64Builder:
		switch f := v.(type) {
		case float32:
			b.Append(float64(f))
		case float64:
			b.Append(f)
		}
	case *array.StringBuilder:
		b.Append(v.(string))
	case *array.LargeStringBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder:
		b.Append(v.([]byte))
	case *array.FixedSizeBinaryBuilder:
		b.Append(v.([]byte))
	case *array.Date32Builder:
		n, _ := types.AsInt64(v)
		b.Append(arrow.Date32(n))
	case *array.Time64Builder:
		d := v.(time.Duration)
		unit := b.Type().(*arrow.Time64Type).Unit
		b.Append(arrow.Time64(int64(d) / int64(unit.Multiplier())))
	case *array.TimestampBuilder:
		ts := v.(time.Time)
		unit := b.Type().(*arrow.TimestampType).Unit
		x, err := arrow.TimestampFromTime(ts, unit)
		if err != nil {
			return err
		}
		b.Append(x)
	case *array.Decimal128Builder:
		d := v.(*decimal.Decimal)
		dt := b.Type().(*arrow.Decimal128Type)
		r := types.RoundDecimal(d, int(dt.Precision), int(dt.Scale))
		if r == nil {
			return fmt.Errorf("decimal %s does not fit in %s", types.DecimalText(d), t)
		}
		b.Append(decimal128.FromBigInt(types.DecimalCoefficient(r, int(dt.Scale))))
	default:
		return fmt.Errorf("column type %s is not written by eddy to Arrow %s", t, b.Type())
	}
	return nil
}

// toRecord converts rows of a batch (the positions sel, or every row when
// sel is nil) to an Arrow record of schema sc, whose fields are the
// batch's columns in order.
func toRecord(sc *arrow.Schema, colTypes []*types.Type, b *vector.Batch, sel []int) (arrow.RecordBatch, error) {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	rows := sel
	if rows == nil {
		rows = make([]int, b.N)
		for i := range rows {
			rows[i] = i
		}
	}
	for c := range sc.Fields() {
		fb := rb.Field(c)
		col := b.Cols[c]
		for _, i := range rows {
			v := col.Get(i)
			if v == nil {
				fb.AppendNull()
				continue
			}
			if err := appendArrow(fb, colTypes[c], v); err != nil {
				return nil, err
			}
		}
	}
	return rb.NewRecordBatch(), nil
}
