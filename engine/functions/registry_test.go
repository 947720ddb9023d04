package functions

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"eddy/engine/types"
)

func mustParse(t *testing.T, s string) *types.Type {
	t.Helper()
	ty, err := types.Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return ty
}

// TestRegistryCoversReference checks that every function named in
// types-and-functions.md §5 is registered with the right kind.
func TestRegistryCoversReference(t *testing.T) {
	r := NewRegistry()
	r.load()
	if len(r.dups) > 0 {
		t.Fatalf("names registered twice: %v", r.dups)
	}
	want := map[Kind][]string{
		Scalar: {"POWER", "ABS", "SQRT", "LN", "LOG10", "LOG2", "LOG", "EXP", "CEIL", "CEILING", "FLOOR",
			"SIN", "COS", "TAN", "COT", "ASIN", "ACOS", "ATAN", "ATAN2", "SINH", "COSH", "TANH", "DEGREES",
			"RADIANS", "SIGN", "ROUND", "TRUNCATE", "PI", "E", "RAND", "RAND_INTEGER", "UUID", "BIN", "HEX", "MOD",
			"CONCAT", "CONCAT_WS", "CHAR_LENGTH", "CHARACTER_LENGTH", "UPPER", "LOWER", "INITCAP", "POSITION",
			"LOCATE", "INSTR", "TRIM", "LTRIM", "RTRIM", "REPEAT", "REPLACE", "OVERLAY", "SUBSTRING", "SUBSTR",
			"LEFT", "RIGHT", "LPAD", "RPAD", "REVERSE", "REGEXP", "REGEXP_REPLACE", "REGEXP_EXTRACT",
			"SPLIT_INDEX", "STR_TO_MAP", "FROM_BASE64", "TO_BASE64", "ASCII", "CHR", "ENCODE", "DECODE",
			"PARSE_URL", "ELT", "SPLIT", "REGEXP_COUNT", "TRANSLATE", "PRINTF",
			"CURRENT_DATE", "CURRENT_TIME", "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP", "NOW",
			"CURRENT_ROW_TIMESTAMP", "PROCTIME", "EXTRACT", "YEAR", "QUARTER", "MONTH", "WEEK", "DAYOFYEAR",
			"DAYOFMONTH", "DAYOFWEEK", "HOUR", "MINUTE", "SECOND", "DATE_FORMAT", "TIMESTAMPADD",
			"TIMESTAMPDIFF", "CONVERT_TZ", "FROM_UNIXTIME", "UNIX_TIMESTAMP", "TO_DATE", "TO_TIMESTAMP",
			"TO_TIMESTAMP_LTZ", "CURRENT_WATERMARK", "NULLIF", "COALESCE", "IF", "IFNULL", "IS_ALPHA",
			"IS_DECIMAL", "IS_DIGIT", "GREATEST", "LEAST", "TYPEOF", "CARDINALITY", "ELEMENT", "ARRAY_CONTAINS",
			"ARRAY_DISTINCT", "ARRAY_POSITION", "ARRAY_REMOVE", "ARRAY_REVERSE", "MAP_KEYS", "MAP_VALUES",
			"MAP_FROM_ARRAYS", "ARRAY_CONCAT", "ARRAY_SLICE", "ARRAY_SORT", "JSON_EXISTS", "JSON_STRING",
			"JSON_VALUE", "JSON_QUERY", "JSON_OBJECT", "JSON_ARRAY", "MD5", "SHA1", "SHA224", "SHA256",
			"SHA384", "SHA512", "SHA2", "CURRENT_DATABASE", "CURRENT_CATALOG"},
		Aggregate: {"COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP",
			"VARIANCE", "COLLECT", "LISTAGG", "FIRST_VALUE", "LAST_VALUE", "ARRAY_AGG", "JSON_OBJECTAGG",
			"JSON_ARRAYAGG", "GROUP_ID", "GROUPING", "GROUPING_ID"},
		Window: {"ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE", "LAG", "LEAD"},
	}
	for kind, names := range want {
		for _, name := range names {
			f, ok := r.Lookup(strings.ToLower(name))
			if !ok {
				t.Errorf("%s is not registered", name)
				continue
			}
			if f.Kind != kind {
				t.Errorf("%s: kind %s, want %s", name, f.Kind, kind)
			}
			if f.Return == nil || len(f.Overloads) == 0 {
				t.Errorf("%s: no signature", name)
			}
		}
	}
	names := r.Names()
	if !sort.StringsAreSorted(names) {
		t.Errorf("Names is not sorted")
	}
	for _, n := range names {
		if n != strings.ToLower(n) {
			t.Errorf("Names lists %q, not lower case", n)
		}
	}
}

// TestInfer checks result types against the reference's rules
// (types-and-functions.md §2 and §5).
func TestInfer(t *testing.T) {
	r := NewRegistry()
	cases := []struct {
		fn   string
		args []string
		want string
	}{
		{"COUNT", nil, "BIGINT NOT NULL"},
		{"COUNT", []string{"STRING"}, "BIGINT NOT NULL"},
		{"SUM", []string{"INT"}, "INT"},
		{"SUM", []string{"INT NOT NULL"}, "INT"},
		{"SUM", []string{"DECIMAL(10, 2)"}, "DECIMAL(38, 2)"},
		{"AVG", []string{"INT"}, "INT"},
		{"AVG", []string{"DECIMAL(10, 2)"}, "DECIMAL(38, 6)"},
		{"AVG", []string{"DECIMAL(20, 8)"}, "DECIMAL(38, 8)"},
		{"MAX", []string{"TIMESTAMP(3) NOT NULL"}, "TIMESTAMP(3)"},
		{"PROCTIME", nil, "TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*"},
		{"CURRENT_TIMESTAMP", nil, "TIMESTAMP_LTZ(3) NOT NULL"},
		{"NOW", nil, "TIMESTAMP_LTZ(3) NOT NULL"},
		{"LOCALTIMESTAMP", nil, "TIMESTAMP(3) NOT NULL"},
		{"CURRENT_DATE", nil, "DATE NOT NULL"},
		{"UPPER", []string{"VARCHAR(10)"}, "VARCHAR(10)"},
		{"UPPER", []string{"CHAR(3) NOT NULL"}, "CHAR(3) NOT NULL"},
		{"CONCAT", []string{"STRING", "STRING NOT NULL"}, "STRING"},
		{"COALESCE", []string{"INT", "BIGINT NOT NULL"}, "BIGINT NOT NULL"},
		{"COALESCE", []string{"INT", "BIGINT"}, "BIGINT"},
		{"IFNULL", []string{"INT", "INT NOT NULL"}, "INT NOT NULL"},
		{"IF", []string{"BOOLEAN", "CHAR(1) NOT NULL", "CHAR(3) NOT NULL"}, "VARCHAR(3) NOT NULL"},
		{"ROUND", []string{"DECIMAL(10, 4)"}, "DECIMAL(7, 0)"},
		{"ROUND", []string{"DOUBLE NOT NULL"}, "DOUBLE NOT NULL"},
		{"TO_TIMESTAMP_LTZ", []string{"BIGINT"}, "TIMESTAMP_LTZ(3)"},
		{"ROW_NUMBER", nil, "BIGINT NOT NULL"},
		{"LAG", []string{"INT NOT NULL"}, "INT"},
		{"MAP_KEYS", []string{"MAP<STRING, INT>"}, "ARRAY<STRING>"},
		{"CARDINALITY", []string{"ARRAY<INT> NOT NULL"}, "INT NOT NULL"},
		{"COLLECT", []string{"INT"}, "MULTISET<INT> NOT NULL"},
		{"TYPEOF", []string{"INT"}, "STRING NOT NULL"},
		{"UUID", nil, "CHAR(36) NOT NULL"},
		{"MD5", []string{"STRING"}, "CHAR(32)"},
	}
	for _, c := range cases {
		f, ok := r.Lookup(c.fn)
		if !ok {
			t.Fatalf("%s not registered", c.fn)
		}
		args := make([]*types.Type, len(c.args))
		for i, a := range c.args {
			args[i] = mustParse(t, a)
		}
		got, err := f.Infer(args)
		if err != nil {
			t.Errorf("%s(%v): %v", c.fn, c.args, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s(%v) = %s, want %s", c.fn, c.args, got, c.want)
		}
	}
}

func TestInferErrors(t *testing.T) {
	r := NewRegistry()
	abs, _ := r.Lookup("ABS")
	_, err := abs.Infer(nil)
	var count *ArgCountError
	if !errors.As(err, &count) || err.Error() != "Invalid number of arguments to function 'ABS'. Was expecting 1 arguments" {
		t.Errorf("ABS(): %v", err)
	}
	power, _ := r.Lookup("power")
	_, err = power.Infer([]*types.Type{types.NewChar(1).WithNullable(false), types.New(types.Int)})
	var typ *ArgTypeError
	want := "Cannot apply 'POWER' to arguments of type 'POWER(<CHAR(1)>, <INTEGER>)'. Supported form(s): 'POWER(<NUMERIC>, <NUMERIC>)'"
	if !errors.As(err, &typ) || err.Error() != want {
		t.Errorf("POWER('a', 1): %v", err)
	}
	if typ.Class() != "SqlValidatorException" {
		t.Errorf("class %s", typ.Class())
	}
	upper, _ := r.Lookup("UPPER")
	if _, err := upper.Infer([]*types.Type{types.New(types.Null)}); err == nil || err.Error() != "Illegal use of 'NULL'" {
		t.Errorf("UPPER(NULL): %v", err)
	}
}

// TestDescribe checks the fields DESCRIBE FUNCTION EXTENDED prints
// (function.q: kind AGGREGATE, deterministic, signature SUM(<NUMERIC>)).
func TestDescribe(t *testing.T) {
	r := NewRegistry()
	sum, _ := r.Lookup("sum")
	if sum.Kind.String() != "AGGREGATE" || !sum.Deterministic || sum.Signature() != "SUM(<NUMERIC>)" {
		t.Errorf("SUM: kind %s, deterministic %v, signature %q", sum.Kind, sum.Deterministic, sum.Signature())
	}
	for _, name := range []string{"RAND", "UUID", "NOW", "PROCTIME", "CURRENT_TIMESTAMP", "UNIX_TIMESTAMP"} {
		f, _ := r.Lookup(name)
		if f.Deterministic {
			t.Errorf("%s is marked deterministic", name)
		}
	}
	if ceil, _ := r.Lookup("CEILING"); ceil.Name != "CEIL" {
		t.Errorf("CEILING resolves to %s", ceil.Name)
	}
}

func TestCommonType(t *testing.T) {
	cases := []struct {
		in   []string
		want string // "" for none
	}{
		{[]string{"CHAR(1) NOT NULL", "CHAR(3) NOT NULL"}, "VARCHAR(3) NOT NULL"},
		{[]string{"CHAR(3) NOT NULL", "CHAR(3)"}, "CHAR(3)"},
		{[]string{"VARCHAR(5)", "CHAR(10) NOT NULL"}, "VARCHAR(10)"},
		{[]string{"INT NOT NULL", "BIGINT NOT NULL"}, "BIGINT NOT NULL"},
		{[]string{"TINYINT", "SMALLINT"}, "SMALLINT"},
		{[]string{"INT", "DECIMAL(5, 2)"}, "DECIMAL(12, 2)"},
		{[]string{"DECIMAL(5, 2)", "DOUBLE"}, "DOUBLE"},
		{[]string{"FLOAT", "INT"}, "FLOAT"},
		{[]string{"FLOAT", "DECIMAL(5, 2)"}, "DOUBLE"},
		{[]string{"TIMESTAMP(3)", "TIMESTAMP(6) NOT NULL"}, "TIMESTAMP(6)"},
		{[]string{"TIMESTAMP(3) NOT NULL", "TIMESTAMP_LTZ(0) NOT NULL"}, "TIMESTAMP_LTZ(3) NOT NULL"},
		{[]string{"DATE NOT NULL", "TIMESTAMP(0) NOT NULL"}, "TIMESTAMP(0) NOT NULL"},
		{[]string{"NULL", "INT NOT NULL"}, "INT"},
		{[]string{"ARRAY<INT>", "ARRAY<BIGINT NOT NULL>"}, "ARRAY<BIGINT>"},
		{[]string{"MAP<STRING, INT>", "MAP<CHAR(1), DOUBLE>"}, "MAP<STRING, DOUBLE>"},
		{[]string{"ROW<`a` INT, `b` CHAR(1)>", "ROW<`x` BIGINT, `y` CHAR(2)>"}, "ROW<`a` BIGINT, `b` VARCHAR(2)>"},
		{[]string{"INT", "STRING"}, ""},
		{[]string{"BOOLEAN", "INT"}, ""},
		{[]string{"DATE", "TIME(0)"}, ""},
		{[]string{"ARRAY<INT>", "ROW<`a` INT>"}, ""},
	}
	for _, c := range cases {
		in := make([]*types.Type, len(c.in))
		for i, s := range c.in {
			in[i] = mustParse(t, s)
		}
		got, ok := CommonType(in...)
		switch {
		case c.want == "" && ok:
			t.Errorf("CommonType(%v) = %s, want none", c.in, got)
		case c.want != "" && !ok:
			t.Errorf("CommonType(%v): none, want %s", c.in, c.want)
		case ok && got.String() != c.want:
			t.Errorf("CommonType(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestNumericArithmetic(t *testing.T) {
	cases := []struct{ op, l, r, want string }{
		{"/", "INT NOT NULL", "INT NOT NULL", "INT NOT NULL"},
		{"+", "INT", "BIGINT NOT NULL", "BIGINT"},
		{"%", "BIGINT", "INT", "INT"},
		{"+", "DECIMAL(10, 2)", "DECIMAL(5, 3)", "DECIMAL(12, 3)"},
		{"*", "DECIMAL(10, 2)", "DECIMAL(5, 3)", "DECIMAL(16, 5)"},
		{"/", "DECIMAL(10, 2)", "DECIMAL(5, 3)", "DECIMAL(19, 8)"},
		{"%", "DECIMAL(10, 2)", "DECIMAL(5, 3)", "DECIMAL(5, 3)"},
		{"*", "DECIMAL(38, 10)", "DECIMAL(38, 10)", "DECIMAL(38, 6)"},
		{"/", "DECIMAL(38, 0)", "DECIMAL(38, 0)", "DECIMAL(38, 6)"},
		{"+", "DECIMAL(10, 2)", "DOUBLE", "DOUBLE"},
		{"+", "FLOAT", "INT", "FLOAT"},
	}
	for _, c := range cases {
		got, ok := NumericArithmetic(c.op, mustParse(t, c.l), mustParse(t, c.r))
		if !ok || got.String() != c.want {
			t.Errorf("%s %s %s = %v, want %s", c.l, c.op, c.r, got, c.want)
		}
	}
	if _, ok := NumericArithmetic("+", types.New(types.Int), types.NewString()); ok {
		t.Errorf("INT + STRING typed")
	}
	if got := RoundDecimal(10, 4, 2).String(); got != "DECIMAL(9, 2)" {
		t.Errorf("ROUND(DECIMAL(10, 4), 2) = %s", got)
	}
}

// TestCanCast follows LogicalTypeCasts; TIMESTAMP and BIGINT do not
// convert (types-and-functions.md §1 and §3).
func TestCanCast(t *testing.T) {
	cases := []struct {
		from, to string
		ok       bool
	}{
		{"INT", "STRING", true},
		{"STRING", "INT", true},
		{"STRING", "TIMESTAMP(3)", true},
		{"BIGINT", "TIMESTAMP(3)", false},
		{"TIMESTAMP(3)", "BIGINT", false},
		{"BIGINT", "TIMESTAMP_LTZ(3)", true},
		{"TIMESTAMP(3)", "DATE", true},
		{"DATE", "TIMESTAMP(3)", true},
		{"DATE", "INT", false},
		{"BOOLEAN", "INT", true},
		{"INT", "BOOLEAN", true},
		{"BOOLEAN", "DATE", false},
		{"STRING", "BYTES", true},
		{"BYTES", "INT", false},
		{"ARRAY<INT>", "ARRAY<STRING>", true},
		{"ARRAY<INT>", "STRING", true},
		{"ARRAY<INT>", "INT", false},
		{"ROW<`a` INT>", "ROW<`b` BIGINT>", true},
		{"ROW<`a` INT>", "ROW<`b` INT, `c` INT>", false},
		{"NULL", "DATE", true},
		{"INTERVAL DAY(2)", "BIGINT", true},
		{"INTERVAL DAY(2) TO HOUR", "BIGINT", false},
	}
	for _, c := range cases {
		if got := CanCast(mustParse(t, c.from), mustParse(t, c.to)); got != c.ok {
			t.Errorf("CanCast(%s, %s) = %v, want %v", c.from, c.to, got, c.ok)
		}
	}
}

func TestCalciteNames(t *testing.T) {
	cases := []struct{ typ, str, fam string }{
		{"INT NOT NULL", "INTEGER", "NUMERIC"},
		{"STRING", "VARCHAR(2147483647)", "CHARACTER"},
		{"CHAR(3)", "CHAR(3)", "CHARACTER"},
		{"DECIMAL(4, 3)", "DECIMAL(4, 3)", "NUMERIC"},
		{"TIMESTAMP_LTZ(3)", "TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)", "TIMESTAMP"},
		{"BYTES", "VARBINARY(2147483647)", "BINARY"},
		{"ARRAY<INT>", "INTEGER ARRAY", "INTEGER ARRAY"},
		{"MAP<STRING, INT>", "(VARCHAR(2147483647), INTEGER) MAP", "(VARCHAR(2147483647), INTEGER) MAP"},
		{"BOOLEAN", "BOOLEAN", "BOOLEAN"},
	}
	for _, c := range cases {
		ty := mustParse(t, c.typ)
		if got := CalciteTypeString(ty); got != c.str {
			t.Errorf("CalciteTypeString(%s) = %s, want %s", c.typ, got, c.str)
		}
		if got := CalciteFamily(ty); got != c.fam {
			t.Errorf("CalciteFamily(%s) = %s, want %s", c.typ, got, c.fam)
		}
	}
}

// TestListedNames: SHOW FUNCTIONS lists Flink 2.2's 229 built-in names,
// sorted as Java sorts strings, each once.
func TestListedNames(t *testing.T) {
	names := NewRegistry().ListedNames()
	if len(names) != 229 {
		t.Errorf("%d names, want 229", len(names))
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("%q before %q", names[i-1], names[i])
		}
	}
	for _, want := range []string{"ARRAY_AGG", "UNHEX", "abs", "charLength", "rowtime"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s is not listed", want)
		}
	}
}
