package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"eddy/engine/result"
	"eddy/engine/types"
)

// recorded reads a fetch response recorded from a Flink 2.2 gateway.
func recorded(t *testing.T, name string) *fetchBody {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "responses", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var body fetchBody
	if err := decodeJSON(data, &body); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &body
}

func recordedRows(t *testing.T, name string) ([]result.Column, []result.Row) {
	t.Helper()
	body := recorded(t, name)
	if body.Results == nil {
		t.Fatalf("%s: no results", name)
	}
	cols, err := body.Results.columns()
	if err != nil {
		t.Fatalf("%s: columns: %v", name, err)
	}
	rows, err := body.Results.rows(cols, time.UTC)
	if err != nil {
		t.Fatalf("%s: rows: %v", name, err)
	}
	return cols, rows
}

func TestRecordedTypes(t *testing.T) {
	cols, rows := recordedRows(t, "types.1")
	if len(rows) != 1 {
		t.Fatalf("got %d rows, want 1", len(rows))
	}
	wantTypes := []string{
		"TINYINT NOT NULL", "SMALLINT NOT NULL", "INT NOT NULL", "BIGINT NOT NULL", "FLOAT NOT NULL",
		"DOUBLE NOT NULL", "DECIMAL(10, 3) NOT NULL", "BOOLEAN NOT NULL", "CHAR(3) NOT NULL",
		"VARCHAR(5) NOT NULL", "BINARY(2) NOT NULL", "DATE NOT NULL", "TIME(0) NOT NULL",
		"TIMESTAMP(3) NOT NULL", "TIMESTAMP(6) NOT NULL", "TIMESTAMP_LTZ(3)",
		"INTERVAL MONTH NOT NULL", "INTERVAL SECOND(3) NOT NULL", "ARRAY<INT NOT NULL> NOT NULL",
		"MAP<CHAR(1) NOT NULL, INT NOT NULL> NOT NULL",
		"ROW<`EXPR$0` INT NOT NULL, `EXPR$1` CHAR(1) NOT NULL> NOT NULL", "INT", "DOUBLE NOT NULL",
		"TIME(0) NOT NULL", "DECIMAL(5, 2)", "ROW<`f1` INT, `f2` ARRAY<STRING>> NOT NULL",
	}
	if len(cols) != len(wantTypes) {
		t.Fatalf("got %d columns, want %d", len(cols), len(wantTypes))
	}
	for i, c := range cols {
		if got := c.Type.String(); got != wantTypes[i] {
			t.Errorf("column %s: type %s, want %s", c.Name, got, wantTypes[i])
		}
	}
	v := rows[0].Values
	dec := func(s string) *decimal.Decimal {
		d, err := types.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	day, _ := types.ParseDate("2024-01-02")
	want := []any{
		int8(1), int16(2), int32(3), int64(4), float32(1.5), 2.25, dec("12.345"), true, "str", "vc",
		[]byte{0x0a, 0x0b}, day, 12*time.Hour + 34*time.Minute + 56*time.Second,
		time.Date(2024, 1, 2, 3, 4, 5, 123000000, time.UTC),
		time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC),
		time.Unix(0, 0).UTC(), int32(24), int64(259200000), []any{int32(1), int32(2)},
		map[any]any{"k": int32(1)}, []any{int32(1), "x"}, nil, 1e300,
		12*time.Hour + 34*time.Minute + 56*time.Second, nil, []any{int32(1), []any{"a"}},
	}
	for i := range want {
		if !sameValue(v[i], want[i]) {
			t.Errorf("column %s: value %#v (%T), want %#v (%T)", cols[i].Name, v[i], v[i], want[i], want[i])
		}
	}
	// As the Flink SQL client prints them.
	printed := []string{"1", "2", "3", "4", "1.5", "2.25", "12.345", "TRUE", "str", "vc", "x'0a0b'",
		"2024-01-02", "12:34:56", "2024-01-02 03:04:05.123", "2024-01-02 03:04:05.123456",
		"1970-01-01 00:00:00.000", "+2-00", "+3 00:00:00.000", "[1, 2]", "{k=1}", "(1, x)", "NULL",
		"1.0E300", "12:34:56", "NULL", "(1, [a])"}
	for i, w := range printed {
		if got := types.ValueString(v[i], cols[i].Type); got != w {
			t.Errorf("column %s prints %q, want %q", cols[i].Name, got, w)
		}
	}
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *decimal.Decimal:
		y, ok := b.(*decimal.Decimal)
		return ok && x.Cmp(*y) == 0
	case []byte:
		y, ok := b.([]byte)
		return ok && string(x) == string(y)
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[any]any:
		y, ok := b.(map[any]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			if !sameValue(e, y[k]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func TestRecordedDecimalsKeepScale(t *testing.T) {
	cols, rows := recordedRows(t, "maps.1")
	got := map[string]string{}
	for i, c := range cols {
		got[c.Name] = types.ValueString(rows[0].Values[i], c.Type)
	}
	// The wire drops trailing zeros (1.50 arrives as 1.5); Flink prints
	// DECIMAL(5, 2) with two digits.
	want := map[string]string{"d": "1.50", "s": "NULL", "rn": "NULL", "dn": "-0.0010",
		"tiny": "1.0E-10", "big": "123456789012.5", "wide": "1.000000000000000000"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
}

func TestRecordedChangelog(t *testing.T) {
	_, rows := recordedRows(t, "agg.1")
	var got []string
	for _, r := range rows {
		got = append(got, r.Kind.String()+" "+types.ValueString(r.Values[0], nil)+" "+types.ValueString(r.Values[1], nil))
	}
	want := "+I a 1|-U a 1|+U a 2|+I b 1"
	if strings.Join(got, "|") != want {
		t.Errorf("got %s, want %s", strings.Join(got, "|"), want)
	}
}

func TestRecordedMetadata(t *testing.T) {
	cols, rows := recordedRows(t, "describe.0")
	if len(cols) != 6 || cols[2].Name != "null" || cols[2].Type.Kind != types.Boolean {
		t.Fatalf("DESCRIBE columns: %+v", cols)
	}
	if len(rows) != 1 || rows[0].Values[0] != "a" || rows[0].Values[1] != "INT" || rows[0].Values[2] != true || rows[0].Values[3] != nil {
		t.Errorf("DESCRIBE row: %#v", rows)
	}
}

func TestConvertErrors(t *testing.T) {
	cases := []struct {
		typ  *types.Type
		json string
	}{
		{types.New(types.Int), `"x"`},
		{types.New(types.Boolean), `1`},
		{types.New(types.Date), `"2024-13-01"`},
		{types.NewVarBinary(5), `"not base64!"`},
		{types.NewArray(types.New(types.Int)), `{"a": 1}`},
	}
	for _, c := range cases {
		var v any
		if err := decodeJSON([]byte(c.json), &v); err != nil {
			t.Fatal(err)
		}
		if got, err := convertValue(c.typ, v, time.UTC); err == nil {
			t.Errorf("%s from %s: got %#v, want an error", c.typ, c.json, got)
		}
	}
}

func TestConvertNested(t *testing.T) {
	mset := types.NewMultiset(types.NewString())
	var v any
	if err := decodeJSON([]byte(`{"a": 2, "b": 1}`), &v); err != nil {
		t.Fatal(err)
	}
	got, err := convertValue(mset, v, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if xs := got.([]any); len(xs) != 3 {
		t.Errorf("MULTISET: %v, want 3 elements", xs)
	}
	m := types.NewMap(types.New(types.Int), types.NewString())
	if err := decodeJSON([]byte(`{"1": "x", "null": "y"}`), &v); err != nil {
		t.Fatal(err)
	}
	got, err = convertValue(m, v, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if mm := got.(map[any]any); mm[int32(1)] != "x" || mm[nil] != "y" {
		t.Errorf("MAP<INT, STRING>: %#v", mm)
	}
	if err := decodeJSON([]byte(`"NaN"`), &v); err != nil {
		t.Fatal(err)
	}
	if f, err := convertValue(types.New(types.Double), v, time.UTC); err != nil || types.ValueString(f, nil) != "NaN" {
		t.Errorf("DOUBLE NaN: %v %v", f, err)
	}
}

func TestLogicalTypeErrors(t *testing.T) {
	for _, j := range []string{`{}`, `{"type":"ARRAY"}`, `{"type":"INTERVAL_DAY_TIME","resolution":"WEEK"}`,
		`{"type":"MAP","keyType":{"type":"INTEGER"}}`} {
		var lt logicalType
		if err := decodeJSON([]byte(j), &lt); err != nil {
			t.Fatal(err)
		}
		if typ, err := lt.toType(); err == nil {
			t.Errorf("%s: got %s, want an error", j, typ)
		}
	}
	var lt logicalType
	if err := decodeJSON([]byte(`{"type":"VARIANT","nullable":true}`), &lt); err != nil {
		t.Fatal(err)
	}
	if typ, err := lt.toType(); err != nil || typ.String() != "STRING" {
		t.Errorf("VARIANT: %v %v, want STRING", typ, err)
	}
}

// TestConvertLocalZonedTimestamp: the gateway writes a TIMESTAMP_LTZ as its
// wall-clock reading in the session's zone followed by a Z (Flink 2.2:
// TO_TIMESTAMP_LTZ(0, 3) under Asia/Shanghai arrives as
// "1970-01-01T08:00:00Z"); the value is the instant, shifted once.
func TestConvertLocalZonedTimestamp(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	ltz := types.NewTimestampLTZ(3)
	for _, c := range []struct {
		loc  *time.Location
		in   string
		want time.Time
	}{
		{shanghai, "1970-01-01T08:00:00Z", time.Unix(0, 0).UTC()},
		{time.UTC, "1970-01-01T08:00:00Z", time.Unix(8*3600, 0).UTC()},
		{shanghai, "2024-05-06T07:08:09.123Z", time.Date(2024, 5, 5, 23, 8, 9, 123000000, time.UTC)},
	} {
		got, err := convertValue(ltz, c.in, c.loc)
		if err != nil || !got.(time.Time).Equal(c.want) {
			t.Errorf("%s in %s: %v %v, want %v", c.in, c.loc, got, err, c.want)
		}
	}
	arr, err := convertValue(types.NewArray(ltz), []any{"1970-01-01T08:00:00Z"}, shanghai)
	if err != nil || !arr.([]any)[0].(time.Time).Equal(time.Unix(0, 0)) {
		t.Errorf("ARRAY<TIMESTAMP_LTZ>: %v %v", arr, err)
	}
}
