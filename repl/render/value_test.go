package render

import (
	"math"
	"strings"
	"testing"
	"time"

	"eddy/engine/types"
)

func TestFormatValue(t *testing.T) {
	ts := time.Date(2021, 4, 13, 20, 12, 11, 100000000, time.UTC)
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	tenth, fifth := 0.1, 0.2 // variables: constants would fold to exactly 0.3
	row := types.NewRow(types.Field{Name: "a", Type: types.New(types.Int)}, types.Field{Name: "b", Type: types.NewString()})
	tests := []struct {
		typ  *types.Type
		v    any
		loc  *time.Location
		want string
	}{
		{types.New(types.Boolean), true, nil, "TRUE"},
		{types.New(types.Boolean), false, nil, "FALSE"},
		{types.New(types.Int), int32(-7), nil, "-7"},
		{types.New(types.BigInt), int64(math.MinInt64), nil, "-9223372036854775808"},
		{types.New(types.Double), tenth + fifth, nil, "0.30000000000000004"},
		{types.New(types.Double), 1e7, nil, "1.0E7"},
		{types.New(types.Double), 9999999.0, nil, "9999999.0"},
		{types.New(types.Double), 0.001, nil, "0.001"},
		{types.New(types.Double), math.Inf(-1), nil, "-Infinity"},
		{types.New(types.Double), math.NaN(), nil, "NaN"},
		{types.New(types.Double), math.Copysign(0, -1), nil, "-0.0"},
		{types.New(types.Float), float32(0.1), nil, "0.1"},
		{types.New(types.Float), float32(3e38), nil, "3.0E38"},
		{types.NewVarBinary(10), []byte{0x0a, 0xff}, nil, "x'0aff'"},
		{types.NewTimestamp(0), ts, nil, "2021-04-13 20:12:11"},
		{types.NewTimestamp(3), ts, nil, "2021-04-13 20:12:11.100"},
		{types.NewTimestamp(9), ts, nil, "2021-04-13 20:12:11.100000000"},
		{types.NewTimestampLTZ(3), ts, shanghai, "2021-04-14 04:12:11.100"},
		{types.NewTimestampLTZ(0), ts, nil, "2021-04-13 20:12:11"},
		{types.New(types.Date), ts, nil, "2021-04-13"},
		{types.New(types.Date), int32(1), nil, "1970-01-02"},
		{types.NewTime(0), ts, nil, "20:12:11"},
		{types.NewTime(3), 20*time.Hour + 12*time.Minute + 11*time.Second + 5*time.Millisecond, nil, "20:12:11.005"},
		{&types.Type{Kind: types.IntervalYearMonth, Res: types.ResYearToMonth, Prec: 2}, int32(-18), nil, "-1-06"},
		{&types.Type{Kind: types.IntervalDayTime, Res: types.ResDayToSecond, Prec: 2, Scale: 3}, 90*time.Minute + 5*time.Millisecond, nil, "+0 01:30:00.005"},
		{&types.Type{Kind: types.IntervalDayTime, Res: types.ResDayToSecond, Prec: 2, Scale: 3}, int64(-86400001), nil, "-1 00:00:00.001"},
		{types.NewDecimal(10, 2), types.DecimalValue(400, -2), nil, "4.00"},
		{types.NewArray(types.New(types.Int)), []any{int32(1), nil, int32(3)}, nil, "[1, NULL, 3]"},
		{types.NewArray(types.New(types.Boolean)), []any{true}, nil, "[TRUE]"},
		{row, []any{int32(1), "abc"}, nil, "(1, abc)"},
		{types.NewMap(types.NewString(), types.New(types.Int)), map[any]any{"b": int32(2), "a": int32(1)}, nil, "{a=1, b=2}"},
		{nil, "plain", nil, "plain"},
		{nil, 42, nil, "42"},
		{types.NewString(), nil, nil, "NULL"},
	}
	for _, tc := range tests {
		if got := FormatValue(tc.typ, tc.v, tc.loc); got != tc.want {
			t.Errorf("FormatValue(%v, %#v) = %q, want %q", tc.typ, tc.v, got, tc.want)
		}
	}
}

func TestDisplayWidth(t *testing.T) {
	// TableauStyleTest.testGetStringDisplayWidth in Flink: Java length plus
	// one per wide code point.
	for s, want := range map[string]int{
		"abcdefg,12345,ABC":                     17,
		"to be or not to be that's a question.": 37,
		"这是一段中文":                                12,
		"这是一句话，用来验证宽字符":                         26,
		"":     0,
		"a\nb": 3,
		"😀":    3,
	} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in     string
		target int
		want   string
	}{
		{"abcdef", 3, "abc"},
		{"中文中文", 3, " 中"},
		{"中文中文", 4, "中文"},
		{"ab", 5, "   ab"},
		{"abc", -1, ""},
	} {
		if got := truncate(tc.in, tc.target); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.in, tc.target, got, tc.want)
		}
	}
}

func TestTagMax(t *testing.T) {
	if Max(TagInfo, TagError) != TagError || Max(TagWarning, TagOK) != TagWarning || Max(TagOK, TagOK) != TagOK {
		t.Error("Max does not order error > warning > info > ok")
	}
}

func TestInfoWarningQuit(t *testing.T) {
	var b strings.Builder
	tags := []Tag{
		Info(&b, "Complete execution of the SQL update statement.", Options{}),
		Warning(&b, "The view already exists.", Options{Color: true}),
		Quit(&b, Options{}),
	}
	want := "[INFO] Complete execution of the SQL update statement.\n" +
		"\x1b[1;33m[WARNING] The view already exists.\x1b[0m\n" +
		"[INFO] Exiting eddy...\n"
	if b.String() != want || tags[0] != TagInfo || tags[1] != TagWarning || tags[2] != TagInfo {
		t.Errorf("got %q %v, want %q", b.String(), tags, want)
	}
	if got := Banner("1.2.3", "http://gw:8083"); !strings.Contains(got, "Flink SQL Gateway at http://gw:8083") {
		t.Errorf("remote banner %q does not name the gateway", got)
	}
	if got := Banner("1.2.3", ""); !strings.HasPrefix(got, "eddy 1.2.3, ") || !strings.Contains(got, "HELP;") || strings.Contains(got, "\n") || strings.Contains(got, "Gateway") {
		t.Errorf("banner %q: want one line naming eddy, its version and HELP;", got)
	}
}
