package render

import (
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
// milliseconds (INTERVAL DAY TO SECOND), *decimal.Decimal (DECIMAL), []any (ARRAY, MULTISET, ROW) and map[any]any (MAP).
func FormatValue(t *types.Type, v any, loc *time.Location) string {
	return types.FormatValue(v, t, loc)
}
