package functions

import (
	"errors"
	"strings"
	"testing"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

var (
	tInt    = types.New(types.Int)
	tBig    = types.New(types.BigInt)
	tTiny   = types.New(types.TinyInt)
	tDouble = types.New(types.Double)
	tBool   = types.New(types.Boolean)
	tStr    = types.NewString()
	tDec    = types.NewDecimal(10, 2)
	tDate   = types.New(types.Date)
	tTs     = types.NewTimestamp(3)
	tMonths = &types.Type{Kind: types.IntervalYearMonth, Res: types.ResMonth}
	tMillis = &types.Type{Kind: types.IntervalDayTime, Res: types.ResDayToSecond}
)

func dec(s string) any {
	d, err := types.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

// kernelCase evaluates name over columns of rows; want lists the printed
// results, one per row, or holds "error: <text>".
type kernelCase struct {
	name string
	args []*types.Type
	ret  *types.Type
	rows [][]any
	want []string
}

func runKernel(t *testing.T, c kernelCase) ([]string, error) {
	t.Helper()
	k, err := KernelFor(c.name, c.args, c.ret)
	if err != nil {
		return nil, err
	}
	vecs := make([]*vector.Vec, len(c.args))
	for j, at := range c.args {
		vecs[j] = vector.New(at, len(c.rows))
		for _, r := range c.rows {
			vecs[j].Append(r[j])
		}
	}
	n := len(c.rows)
	out, err := k(&Env{Loc: time.UTC, Now: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, vecs, n)
	if err != nil {
		return nil, err
	}
	got := make([]string, n)
	for i := range n {
		got[i] = types.ValueString(out.Get(i), c.ret)
	}
	return got, nil
}

func TestScalarKernels(t *testing.T) {
	cases := []kernelCase{
		{"+", []*types.Type{tInt, tInt}, tInt, [][]any{{int32(1), int32(2)}, {int32(2147483647), int32(1)}, {nil, int32(1)}},
			[]string{"3", "-2147483648", "NULL"}},
		{"*", []*types.Type{tTiny, tTiny}, tTiny, [][]any{{int8(100), int8(2)}}, []string{"-56"}},
		{"/", []*types.Type{tInt, tInt}, tInt, [][]any{{int32(7), int32(2)}, {int32(-7), int32(2)}, {int32(1), nil}},
			[]string{"3", "-3", "NULL"}},
		{"/", []*types.Type{tInt, tInt}, tInt, [][]any{{int32(1), int32(0)}}, []string{"error: / by zero"}},
		{"%", []*types.Type{tInt, tInt}, tInt, [][]any{{int32(-7), int32(3)}, {int32(7), int32(-3)}}, []string{"-1", "1"}},
		{"/", []*types.Type{tDouble, tDouble}, tDouble, [][]any{{1.0, 0.0}, {0.0, 0.0}}, []string{"Infinity", "NaN"}},
		{"+", []*types.Type{tDec, tDec}, types.NewDecimal(11, 2), [][]any{{dec("1.25"), dec("2.50")}}, []string{"3.75"}},
		{"/", []*types.Type{tDec, tInt}, types.NewDecimal(21, 12), [][]any{{dec("1.00"), int32(3)}}, []string{"0.333333333333"}},
		{"*", []*types.Type{tInt, tDouble}, tDouble, [][]any{{int32(3), 0.5}}, []string{"1.5"}},
		{"u-", []*types.Type{tInt}, tInt, [][]any{{int32(5)}, {nil}}, []string{"-5", "NULL"}},
		{"=", []*types.Type{tInt, tBig}, tBool, [][]any{{int32(1), int64(1)}, {int32(1), nil}}, []string{"TRUE", "NULL"}},
		{"<", []*types.Type{tInt, tDouble}, tBool, [][]any{{int32(1), 1.5}}, []string{"TRUE"}},
		{">=", []*types.Type{tStr, tStr}, tBool, [][]any{{"b", "a"}, {"a", "b"}}, []string{"TRUE", "FALSE"}},
		{"<>", []*types.Type{tDec, tDec}, tBool, [][]any{{dec("1.0"), dec("1.00")}}, []string{"FALSE"}},
		{"IS DISTINCT FROM", []*types.Type{tInt, tInt}, tBool, [][]any{{nil, nil}, {int32(1), nil}, {int32(1), int32(1)}},
			[]string{"FALSE", "TRUE", "FALSE"}},
		{"IS NOT TRUE", []*types.Type{tBool}, tBool, [][]any{{true}, {false}, {nil}}, []string{"FALSE", "TRUE", "TRUE"}},
		{"IN", []*types.Type{tInt, tInt, tInt}, tBool, [][]any{{int32(1), int32(1), nil}, {int32(2), int32(1), nil}, {int32(2), int32(1), int32(3)}},
			[]string{"TRUE", "NULL", "FALSE"}},
		{"||", []*types.Type{tStr, tStr}, tStr, [][]any{{"a", "b"}, {"a", nil}}, []string{"ab", "NULL"}},
		{"LIKE", []*types.Type{tStr, tStr}, tBool, [][]any{{"Hello", "H_l%"}, {"Hello", "h%"}, {"50%", "50!%"}, {nil, "%"}},
			[]string{"TRUE", "FALSE", "FALSE", "NULL"}},
		{"LIKE", []*types.Type{tStr, tStr, tStr}, tBool, [][]any{{"50%", "50!%", "!"}}, []string{"TRUE"}},
		{"UPPER", []*types.Type{tStr}, tStr, [][]any{{"abc"}, {nil}}, []string{"ABC", "NULL"}},
		{"CHAR_LENGTH", []*types.Type{tStr}, tInt, [][]any{{"héllo"}}, []string{"5"}},
		{"SUBSTRING", []*types.Type{tStr, tInt, tInt}, tStr, [][]any{{"Hello World", int32(7), int32(5)}, {"abc", int32(0), int32(2)}},
			[]string{"World", "ab"}},
		{"TRIM", []*types.Type{tStr}, tStr, [][]any{{"  a b  "}}, []string{"a b"}},
		{"REPLACE", []*types.Type{tStr, tStr, tStr}, tStr, [][]any{{"aXbX", "X", "-"}}, []string{"a-b-"}},
		{"LPAD", []*types.Type{tStr, tInt, tStr}, tStr, [][]any{{"7", int32(3), "0"}, {"hello", int32(2), "x"}}, []string{"007", "he"}},
		{"CONCAT_WS", []*types.Type{tStr, tStr, tStr}, tStr, [][]any{{"-", "a", nil}, {nil, "a", "b"}}, []string{"a", "NULL"}},
		{"REGEXP_EXTRACT", []*types.Type{tStr, tStr, tInt}, tStr, [][]any{{"foo123bar", "([a-z]+)([0-9]+)", int32(2)}}, []string{"123"}},
		{"MD5", []*types.Type{tStr}, types.NewChar(32), [][]any{{"abc"}}, []string{"900150983cd24fb0d6963f7d28e17f72"}},
		{"ABS", []*types.Type{tInt}, tInt, [][]any{{int32(-3)}}, []string{"3"}},
		{"ROUND", []*types.Type{tDec, tInt}, types.NewDecimal(10, 1), [][]any{{dec("2.45"), int32(1)}}, []string{"2.5"}},
		{"ROUND", []*types.Type{tDouble, tInt}, tDouble, [][]any{{2.675, int32(2)}}, []string{"2.68"}},
		{"FLOOR", []*types.Type{tDec}, types.NewDecimal(9, 0), [][]any{{dec("-1.50")}}, []string{"-2"}},
		{"POWER", []*types.Type{tInt, tInt}, tDouble, [][]any{{int32(2), int32(10)}}, []string{"1024.0"}},
		{"COALESCE", []*types.Type{tInt, tInt}, tInt, [][]any{{nil, int32(2)}, {nil, nil}}, []string{"2", "NULL"}},
		{"NULLIF", []*types.Type{tInt, tInt}, tInt, [][]any{{int32(1), int32(1)}, {int32(1), int32(2)}}, []string{"NULL", "1"}},
		{"IF", []*types.Type{tBool, tStr, tStr}, tStr, [][]any{{true, "a", "b"}, {nil, "a", "b"}}, []string{"a", "b"}},
		{"GREATEST", []*types.Type{tInt, tInt, tInt}, tInt, [][]any{{int32(1), int32(5), int32(3)}, {int32(1), nil, int32(3)}},
			[]string{"5", "NULL"}},
		{"+", []*types.Type{tDate, tMillis}, tDate, [][]any{{int32(0), int64(2 * 86400000)}}, []string{"1970-01-03"}},
		{"+", []*types.Type{tTs, tMonths}, tTs, [][]any{{time.Date(2021, 1, 31, 0, 0, 0, 0, time.UTC), int32(1)}},
			[]string{"2021-02-28 00:00:00.000"}},
		{"YEAR", []*types.Type{tDate}, tBig, [][]any{{int32(18730)}}, []string{"2021"}},
		{"DATE_FORMAT", []*types.Type{tTs, tStr}, tStr, [][]any{{time.Date(2021, 4, 13, 20, 12, 11, 0, time.UTC), "yyyy/MM/dd HH:mm"}},
			[]string{"2021/04/13 20:12"}},
		{"CURRENT_DATE", nil, tDate, [][]any{{}}, []string{"2024-01-02"}},
		{"JSON_VALUE", []*types.Type{tStr, tStr, tStr, tStr, tStr, tStr}, tStr, [][]any{{`{"a":{"b":[1,"x"]}}`, "$.a.b[1]", "NULL", nil, "NULL", nil},
			{`{"a":1}`, "$.b", "NULL", nil, "DEFAULT", "d"}, {`{"a":1}`, "lax $.b", "DEFAULT", "e", "NULL", nil}, {"not json", "$", "NULL", nil, "NULL", nil}},
			[]string{"x", "d", "e", "NULL"}},
		{"JSON_VALUE", []*types.Type{tStr, tStr, tStr, tInt, tStr, tInt}, tInt, [][]any{{`{"a":13.89}`, "$.a", "NULL", nil, "NULL", nil},
			{`{"a":-13.89}`, "$.a", "NULL", nil, "NULL", nil}, {`{"a":9999999999}`, "$.a", "NULL", nil, "DEFAULT", int32(7)}, {`{"a":"42"}`, "$.a", "NULL", nil, "NULL", nil}},
			[]string{"13", "-13", "7", "42"}},
		{"JSON_QUERY", []*types.Type{tStr, tStr, tStr, tStr, tStr}, tStr, [][]any{{`{"a":{"b":[1,2]}}`, "$.a", "WITHOUT ARRAY", "NULL", "NULL"},
			{`{"a":1}`, "$.a", "WITH CONDITIONAL ARRAY", "NULL", "NULL"}, {`[1]`, "$", "WITH UNCONDITIONAL ARRAY", "NULL", "NULL"},
			{`{"a":1}`, "$.a", "WITHOUT ARRAY", "NULL", "EMPTY OBJECT"}, {`{}`, "lax $.x", "WITHOUT ARRAY", "EMPTY ARRAY", "NULL"}},
			[]string{`{"b":[1,2]}`, `[1]`, `[[1]]`, `{}`, `[]`}},
		{"JSON_EXISTS", []*types.Type{tStr, tStr, tStr}, tBool, [][]any{{`{"a":1}`, "$.a", "FALSE"}, {`{"a":1}`, "lax $.b", "TRUE"},
			{`{"a":1}`, "strict $.b", "TRUE"}, {`{"a":1}`, "strict $.b", "UNKNOWN"}}, []string{"TRUE", "FALSE", "TRUE", "NULL"}},
		{"IS_JSON", []*types.Type{tStr}, tBool, [][]any{{`[1, 2]`}, {`{`}, {nil}}, []string{"TRUE", "FALSE", "NULL"}},
		{"JSON_OBJECT", []*types.Type{tStr, tStr, tStr, tInt, tStr, tStr, tStr, tStr}, tStr,
			[][]any{{"NULL", "001", "s", int32(1), "k", "v", "j", `{"x": [1]}`}}, []string{`{"j":{"x":[1]},"k":"v","s":1}`}},
		{"SHA2", []*types.Type{tStr, tInt}, tStr, [][]any{{"abc", int32(224)}}, []string{"23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"}},
		{"SPLIT", []*types.Type{tStr, tStr}, types.NewArray(tStr), [][]any{{"a,b,,c", ","}}, []string{"[a, b, , c]"}},
		{"STR_TO_MAP", []*types.Type{tStr}, types.NewMap(tStr, tStr), [][]any{{"a=1,b=2"}}, []string{"{a=1, b=2}"}},
		{"HEX", []*types.Type{tInt}, tStr, [][]any{{int32(255)}}, []string{"FF"}},
		{"REGEXP_COUNT", []*types.Type{tStr, tStr}, tInt, [][]any{{"abab", "b"}}, []string{"2"}},
		{"TIMESTAMPDIFF", []*types.Type{tStr, tTs, tTs}, tInt, [][]any{{"MONTH", time.Date(2021, 1, 31, 0, 0, 0, 0, time.UTC), time.Date(2021, 2, 28, 0, 0, 0, 0, time.UTC)},
			{"DAY", time.Date(2021, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)}}, []string{"1", "-1"}}, // Feb 28 ends February: a whole month
		{"TIMESTAMPADD", []*types.Type{tStr, tInt, tTs}, tTs, [][]any{{"WEEK", int32(1), time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)}}, []string{"2021-01-08 00:00:00.000"}},
		{"PARSE_URL", []*types.Type{tStr, tStr, tStr}, tStr, [][]any{{"http://h.com/p?k=v&x=1", "QUERY", "x"}}, []string{"1"}},
		{"CARDINALITY", []*types.Type{types.NewArray(tInt)}, tInt, [][]any{{[]any{int32(1), nil}}, {nil}}, []string{"2", "NULL"}},
		{"ARRAY_CONTAINS", []*types.Type{types.NewArray(tInt), tInt}, tBool, [][]any{{[]any{int32(1), nil}, int32(1)}, {[]any{int32(2)}, int32(1)}},
			[]string{"TRUE", "FALSE"}},
		{"ARRAY_SORT", []*types.Type{types.NewArray(tInt)}, types.NewArray(tInt), [][]any{{[]any{int32(3), nil, int32(1)}}}, []string{"[NULL, 1, 3]"}},
		{"EXTRACT", []*types.Type{tStr, tTs}, tBig, [][]any{{"DOW", time.Date(2024, 1, 7, 0, 0, 0, 0, time.UTC)}}, []string{"1"}},
		{"FLOOR", []*types.Type{tStr, tTs}, tTs, [][]any{{"MONTH", time.Date(2024, 3, 7, 5, 0, 0, 0, time.UTC)}}, []string{"2024-03-01 00:00:00.000"}},
		{"CEIL", []*types.Type{tStr, tDate}, tDate, [][]any{{"YEAR", int32(1)}, {"YEAR", int32(0)}}, []string{"1971-01-01", "1970-01-01"}},
		{"TO_TIMESTAMP_LTZ", []*types.Type{tInt, tInt}, types.NewTimestampLTZ(3), [][]any{{int32(1), int32(0)}, {int32(1), int32(3)}},
			[]string{"1970-01-01 00:00:01.000", "1970-01-01 00:00:00.001"}},
		// Cases found by the golden files (engine/functions/testdata/golden).
		{"IS_JSON", []*types.Type{tStr, tStr}, tBool, [][]any{{`[1, 2]`, "OBJECT"}, {`[1, 2]`, "ARRAY"}, {`{"a":1}`, "OBJECT"},
			{`1`, "SCALAR"}, {`{"a":1}`, "SCALAR"}, {`1`, "VALUE"}, {`{`, "VALUE"}},
			[]string{"FALSE", "TRUE", "TRUE", "TRUE", "FALSE", "TRUE", "FALSE"}},
		{"ARRAY_SORT", []*types.Type{types.NewArray(tInt), tBool, tBool}, types.NewArray(tInt),
			[][]any{{[]any{int32(3), nil, int32(1)}, true, false}, {[]any{int32(3), nil, int32(1)}, false, true}, {[]any{int32(3), nil, int32(1)}, false, false}},
			[]string{"[1, 3, NULL]", "[NULL, 3, 1]", "[3, 1, NULL]"}},
		{"ARRAY_PREPEND", []*types.Type{types.NewArray(tInt), tInt}, types.NewArray(tInt), [][]any{{[]any{int32(1), int32(2)}, int32(0)}, {nil, int32(0)}},
			[]string{"[0, 1, 2]", "NULL"}},
		{"REGEXP_EXTRACT", []*types.Type{tStr, tStr}, tStr, [][]any{{"foo123bar45", "[0-9]+"}}, []string{"123"}},
		{"REGEXP_EXTRACT_ALL", []*types.Type{tStr, tStr}, types.NewArray(tStr), [][]any{{"a1b22", "[0-9]+"}},
			[]string{"NULL"}},
		{"REGEXP_EXTRACT_ALL", []*types.Type{tStr, tStr, tInt}, types.NewArray(tStr), [][]any{{"a1b22", "[0-9]+", int32(0)}, {"a1b22", "([a-z])([0-9]+)", int32(3)}},
			[]string{"[1, 22]", "NULL"}},
		{"UNHEX", []*types.Type{tStr}, types.NewVarBinary(types.MaxLength), [][]any{{"414a"}, {"123"}, {"4"}, {"0g"}, {""}},
			[]string{"x'414a'", "x'0023'", "x'00'", "NULL", "x''"}},
		{"STARTSWITH", []*types.Type{tStr, tStr}, tBool, [][]any{{"abc", "ab"}, {"abc", "b"}, {"abc", ""}}, []string{"TRUE", "FALSE", "TRUE"}},
		{"ENDSWITH", []*types.Type{types.NewVarBinary(9), types.NewVarBinary(9)}, tBool, [][]any{{[]byte{1, 2}, []byte{2}}, {[]byte{1, 2}, []byte{1}}},
			[]string{"TRUE", "FALSE"}},
		{"JSON_QUOTE", []*types.Type{tStr}, tStr, [][]any{{"a\"b"}, {"a\\b/c"}, {"é\t"}, {"😀"}},
			[]string{`"a\"b"`, `"a\\b\/c"`, `"\u00e9\t"`, `"\ud83d\ude00"`}},
		{"JSON_UNQUOTE", []*types.Type{tStr}, tStr, [][]any{{`"a\"b"`}, {"abc"}, {`"\u00e9"`}, {`"bad`}, {` "a" `}},
			[]string{`a"b`, "abc", "é", `"bad`, ` "a" `}},
		{"DATE_FORMAT", []*types.Type{tStr, tStr}, tStr, [][]any{{"2024-05-06 17:08:09", "EEE, d MMM yyyy 'at' h a"}, {"2024-05-06 17:08:09", "EEEE MMMM QQQQ"}},
			[]string{"Mon, 6 May 2024 at 5 PM", "Monday May 2nd quarter"}},
		{"DATE_FORMAT", []*types.Type{tStr, tStr}, tStr, [][]any{{"2024-05-06 17:08:09", "yyyy J"}}, []string{"error: Unknown pattern letter: J"}},
		{"TO_TIMESTAMP", []*types.Type{tStr, tStr}, tTs, [][]any{{"Mon, 06 May 2024 07:08:09", "EEE, dd MMM yyyy HH:mm:ss"}, {"Tue 06 May 2024", "EEE dd MMM yyyy"}, {"06-may-2024", "dd-MMM-yyyy"}},
			[]string{"2024-05-06 07:08:09.000", "NULL", "NULL"}},
		{"UNIX_TIMESTAMP", []*types.Type{tStr, tStr}, tBig, [][]any{{"06 may 2024", "dd MMM yyyy"}, {"Tue 06 May 2024", "EEE dd MMM yyyy"}},
			[]string{"1714953600", "1714953600"}},
		{"LPAD", []*types.Type{tStr, tInt, tStr}, tStr, [][]any{{"hi", int32(5), ""}, {"hi", int32(0), "x"}, {"hi", int32(-1), "x"}}, []string{"NULL", "", "NULL"}},
		{"RPAD", []*types.Type{tStr, tInt, tStr}, tStr, [][]any{{"hi", int32(5), ""}}, []string{"NULL"}},
		{"UPPER", []*types.Type{tStr}, tStr, [][]any{{"straße"}}, []string{"STRASSE"}},
		{"UNIX_TIMESTAMP", []*types.Type{tStr}, tBig, [][]any{{"not a date"}, {"1970-01-01 00:01:00"}}, []string{"-9223372036854775808", "60"}},
		{"ELEMENT", []*types.Type{types.NewArray(tInt)}, tInt, [][]any{{[]any{int32(1), int32(2)}}}, []string{"error: Array has more than one element."}},
		{"OVERLAY", []*types.Type{tStr, tStr, tInt}, tStr, [][]any{{"abc", "XYZ", int32(5)}, {"abc", "X", int32(0)}, {"abc", "X", int32(3)}},
			[]string{"abc", "abc", "abX"}},
		{"SPLIT_INDEX", []*types.Type{tStr, tStr, tInt}, tStr, [][]any{{"", ",", int32(0)}, {"a,,b", ",", int32(1)}}, []string{"NULL", ""}},
		{"SUBSTRING", []*types.Type{tStr, tInt, tInt}, tStr, [][]any{{"hello", int32(2), int32(-1)}}, []string{"NULL"}},
		{"REGEXP_EXTRACT", []*types.Type{tStr, tStr, tInt}, tStr, [][]any{{"abc", "(a)(x)?", int32(2)}, {"abc", "(a)(x)?", int32(1)}}, []string{"NULL", "a"}},
		{"EXTRACT", []*types.Type{tStr, tMillis}, tBig, [][]any{{"DAY", int64(-(3*86400000 + 4*3600000))}, {"HOUR", int64(3*86400000 + 4*3600000)}},
			[]string{"-3", "4"}},
		{"EXTRACT", []*types.Type{tStr, tMonths}, tBig, [][]any{{"YEAR", int32(31)}, {"MONTH", int32(31)}}, []string{"2", "7"}},
		{"MAP_FROM_ARRAYS", []*types.Type{types.NewArray(tStr), types.NewArray(tInt)}, types.NewMap(tStr, tInt), [][]any{{[]any{"a", "b"}, []any{int32(1)}}},
			[]string{"error: The length of the keys array 2 is not equal to the length of the values array 1"}},
	}
	for _, c := range cases {
		got, err := runKernel(t, c)
		if len(c.want) == 1 && strings.HasPrefix(c.want[0], "error: ") {
			var ee *EvalError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), strings.TrimPrefix(c.want[0], "error: ")) {
				t.Errorf("%s%v: err = %v, want %s", c.name, c.rows, err, c.want[0])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s%v: %v", c.name, c.rows, err)
			continue
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s%v = %v, want %v", c.name, c.rows, got, c.want)
		}
	}
}

func TestAggregateKernels(t *testing.T) {
	cases := []struct {
		name string
		arg  *types.Type
		ret  *types.Type
		vals []any
		want string
	}{
		{"SUM", tInt, tInt, []any{int32(1), nil, int32(2)}, "3"},
		{"SUM", tInt, tInt, []any{nil, nil}, "NULL"},
		{"SUM", tInt, tInt, []any{int32(2147483647), int32(1)}, "-2147483648"},
		{"SUM", tDec, types.NewDecimal(38, 2), []any{dec("1.10"), dec("2.25")}, "3.35"},
		{"AVG", tInt, tInt, []any{int32(1), int32(2)}, "1"},
		{"AVG", tDouble, tDouble, []any{1.0, 2.0, nil}, "1.5"},
		{"AVG", tDec, types.NewDecimal(38, 6), []any{dec("1.00"), dec("2.00"), dec("2.00")}, "1.666667"},
		{"COUNT", tInt, types.New(types.BigInt).WithNullable(false), []any{int32(1), nil, int32(3)}, "2"},
		{"MIN", tStr, tStr, []any{"b", nil, "a"}, "a"},
		{"MAX", tInt, tInt, []any{nil}, "NULL"},
		{"STDDEV_POP", tDouble, tDouble, []any{2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}, "2.0"},
		{"VAR_SAMP", tDouble, tDouble, []any{1.0}, "NULL"},
		{"LISTAGG", tStr, tStr, []any{"a", nil, "b"}, "a,b"},
		{"FIRST_VALUE", tInt, tInt, []any{nil, int32(4), int32(5)}, "4"},
		{"LAST_VALUE", tInt, tInt, []any{int32(4), int32(5), nil}, "5"},
		{"BOOL_AND", tBool, tBool, []any{true, nil, false}, "FALSE"},
	}
	for _, c := range cases {
		mk, err := AggregateKernel(c.name, []*types.Type{c.arg}, c.ret)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v := vector.New(c.arg, len(c.vals))
		for _, x := range c.vals {
			v.Append(x)
		}
		acc := mk()
		for i := range c.vals {
			acc.Add([]*vector.Vec{v}, i)
		}
		if got := types.ValueString(acc.Result(), c.ret); got != c.want {
			t.Errorf("%s(%v) = %s, want %s", c.name, c.vals, got, c.want)
		}
	}
	// COUNT(*) counts every row; retraction undoes an add.
	mk, _ := AggregateKernel("COUNT", nil, tBig)
	acc := mk()
	acc.Add(nil, 0)
	acc.Add(nil, 1)
	acc.Retract(nil, 0)
	if got := acc.Result(); got != int64(1) {
		t.Errorf("COUNT(*) after retract = %v", got)
	}
}
