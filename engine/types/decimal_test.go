package types

import (
	"strconv"
	"testing"
)

func TestDecimalFormats(t *testing.T) {
	cases := []struct {
		in, plain, java, stripped string
	}{
		{"1.50", "1.50", "1.50", "1.5"},
		{"-0.00", "0.00", "0.00", "0"},
		{"12000", "12000", "12000", "1.2E+4"},
		{"0.00000012", "0.00000012", "1.2E-7", "1.2E-7"},
		{"-123.456", "-123.456", "-123.456", "-123.456"},
		{"1e3", "1000", "1E+3", "1E+3"},
		{"99999999999999999999999999999999999999", "99999999999999999999999999999999999999",
			"99999999999999999999999999999999999999", "99999999999999999999999999999999999999"},
	}
	for _, c := range cases {
		d, err := ParseDecimal(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := DecimalText(d); got != c.plain {
			t.Errorf("DecimalText(%s) = %s, want %s", c.in, got, c.plain)
		}
		if got := DecimalJavaString(d); got != c.java {
			t.Errorf("DecimalJavaString(%s) = %s, want %s", c.in, got, c.java)
		}
		if got := DecimalJavaString(DecimalStripped(d)); got != c.stripped {
			t.Errorf("stripped %s = %s, want %s", c.in, got, c.stripped)
		}
	}
}

func TestDecimalRounding(t *testing.T) {
	cases := []struct {
		in   string
		p, s int
		want string // "" for NULL (does not fit)
	}{
		{"1.245", 10, 2, "1.25"},
		{"-1.245", 10, 2, "-1.25"},
		{"1.244", 10, 2, "1.24"},
		{"2", 10, 3, "2.000"},
		{"999.5", 3, 0, ""},
		{"999.4", 3, 0, "999"},
		{"0.0004", 5, 3, "0.000"},
	}
	for _, c := range cases {
		d, _ := ParseDecimal(c.in)
		r := RoundDecimal(d, c.p, c.s)
		got := ""
		if r != nil {
			got = DecimalText(r)
		}
		if got != c.want {
			t.Errorf("RoundDecimal(%s, %d, %d) = %q, want %q", c.in, c.p, c.s, got, c.want)
		}
	}
	for in, want := range map[string]int64{"13.89": 13, "-13.89": -13, "9223372036854775807": 9223372036854775807, "1e3": 1000} {
		d, _ := ParseDecimal(in)
		if got, ok := DecimalInt64(d); !ok || got != want {
			t.Errorf("DecimalInt64(%s) = %d, %v; want %d", in, got, ok, want)
		}
	}
	d, _ := ParseDecimal("9223372036854775808")
	if _, ok := DecimalInt64(d); ok {
		t.Errorf("DecimalInt64 of 2^63 fits")
	}
}

func TestDecimalFloat64(t *testing.T) {
	for _, s := range []string{"0.25", "-1.1", "123456789.123456789", "1e22", "1e-22", "9007199254740993",
		"0.1", "3.14159265358979323846264338327950288", "1e300", "-2.5e-310", "12345678901234567890123.5"} {
		d, err := ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := strconv.ParseFloat(s, 64)
		if got := DecimalFloat64(d); got != want {
			t.Errorf("DecimalFloat64(%s) = %v, want %v", s, got, want)
		}
	}
}
