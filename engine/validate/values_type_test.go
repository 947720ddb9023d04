package validate

import (
	"testing"

	"eddy/engine/functions"
	"eddy/engine/types"
)

// TestValuesTypeIsCommonType: the shortcut of a single row's VALUES column
// type gives exactly functions.CommonType's answer.
func TestValuesTypeIsCommonType(t *testing.T) {
	var ts []*types.Type
	for _, x := range []*types.Type{
		types.NewChar(3), types.NewVarChar(5), types.NewString(), types.NewBinary(2), types.NewVarBinary(4),
		types.New(types.TinyInt), types.New(types.SmallInt), types.New(types.Int), types.New(types.BigInt),
		types.New(types.Float), types.New(types.Double), types.NewDecimal(10, 3), types.NewDecimal(38, 0),
		types.New(types.Boolean), types.New(types.Date), types.NewTime(0), types.NewTime(3),
		types.NewTimestamp(3), types.NewTimestamp(9), types.NewTimestampLTZ(6),
	} {
		ts = append(ts, x, x.WithNullable(false))
	}
	for _, x := range ts {
		got, ok := valuesType([]*types.Type{x})
		want, wantOK := functions.CommonType(x)
		if ok != wantOK || !got.Equal(want) {
			t.Errorf("%s: valuesType %v %v, CommonType %v %v", x, got, ok, want, wantOK)
		}
	}
}
