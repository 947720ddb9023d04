package types

import "testing"

func TestParseAndPrint(t *testing.T) {
	tests := []struct {
		in, summary, serial string
	}{
		{"STRING", "STRING", "VARCHAR(2147483647)"},
		{"varchar(32) not null", "VARCHAR(32) NOT NULL", "VARCHAR(32) NOT NULL"},
		{"BYTES", "BYTES", "VARBINARY(2147483647)"},
		{"DECIMAL", "DECIMAL(10, 0)", "DECIMAL(10, 0)"},
		{"NUMERIC(5,2)", "DECIMAL(5, 2)", "DECIMAL(5, 2)"},
		{"INTEGER", "INT", "INT"},
		{"DOUBLE PRECISION", "DOUBLE", "DOUBLE"},
		{"TIMESTAMP", "TIMESTAMP(6)", "TIMESTAMP(6)"},
		{"TIMESTAMP(3) WITHOUT TIME ZONE", "TIMESTAMP(3)", "TIMESTAMP(3)"},
		{"TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
		{"TIMESTAMP(9) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(9)", "TIMESTAMP(9) WITH LOCAL TIME ZONE"},
		{"TIME", "TIME(0)", "TIME(0)"},
		{"ARRAY<INT NOT NULL>", "ARRAY<INT NOT NULL>", "ARRAY<INT NOT NULL>"},
		{"INT ARRAY", "ARRAY<INT>", "ARRAY<INT>"},
		{"MAP<STRING, BIGINT>", "MAP<STRING, BIGINT>", "MAP<VARCHAR(2147483647), BIGINT>"},
		{"ROW<a INT, `b c` STRING 'desc'>", "ROW<`a` INT, `b c` STRING 'desc'>", "ROW<`a` INT, `b c` VARCHAR(2147483647) 'desc'>"},
		{"ROW(a INT)", "ROW<`a` INT>", "ROW<`a` INT>"},
		{"INTERVAL DAY TO SECOND(3)", "INTERVAL DAY(2) TO SECOND(3)", "INTERVAL DAY(2) TO SECOND(3)"},
		{"INTERVAL YEAR TO MONTH", "INTERVAL YEAR(2) TO MONTH", "INTERVAL YEAR(2) TO MONTH"},
		{"INTERVAL MONTH", "INTERVAL MONTH", "INTERVAL MONTH"},
		{"CHAR", "CHAR(1)", "CHAR(1)"},
	}
	for _, tc := range tests {
		ty, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := ty.String(); got != tc.summary {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.summary)
		}
		if got := ty.SerializableString(); got != tc.serial {
			t.Errorf("Parse(%q).SerializableString() = %q, want %q", tc.in, got, tc.serial)
		}
		back, err := Parse(ty.SerializableString())
		if err != nil || !back.Equal(ty) {
			t.Errorf("round trip of %q: %v, %v", tc.in, back, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "FOO", "VARCHAR(", "ARRAY<INT", "MAP<INT>", "INT garbage"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
		}
	}
}

func TestParsePrefix(t *testing.T) {
	ty, n, err := ParsePrefix("TIMESTAMP(3) NOT NULL, b INT")
	if err != nil || n != len("TIMESTAMP(3) NOT NULL") || ty.String() != "TIMESTAMP(3) NOT NULL" {
		t.Fatalf("ParsePrefix = %v, %d, %v", ty, n, err)
	}
}

func TestTimeAttr(t *testing.T) {
	ty := NewTimestamp(3).WithTimeAttr(Rowtime)
	if got := ty.String(); got != "TIMESTAMP(3) *ROWTIME*" {
		t.Fatalf("got %q", got)
	}
	if got := NewTimestampLTZ(3).WithNullable(false).WithTimeAttr(Proctime).String(); got != "TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*" {
		t.Fatalf("got %q", got)
	}
}
